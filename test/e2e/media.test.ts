import { createHash } from 'node:crypto';
import { downloadFile, getAssetInfo, getAssetThumbnail, serveFile, ThumbnailFormat, uploadFile } from '@immich/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeJpeg } from '../support/photos.ts';
import { adminWithApiKey, type SdkUser } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';

// Deployed, the originals bucket's notification invokes the media function's bundle (with its
// WebAssembly codecs copied beside it); locally the server invokes the same handler.
describe('previews through @immich/sdk 1.100.0 and the local server', () => {
  const server = useServer();
  let user: SdkUser;

  beforeAll(async () => {
    user = await adminWithApiKey(server.baseUrl, 'media@immich.cloud');
  });

  it('an upload is resized within seconds, with a thumbhash; the SDK fetches its thumbnail, preview, original and download', async () => {
    const photo = makeJpeg({ width: 800, height: 600, color: [200, 30, 90] });
    const { id } = await uploadFile(
      {
        createAssetDto: {
          assetData: new File([new Uint8Array(photo)], 'sunset.jpg'),
          deviceAssetId: 'media-1',
          deviceId: 'e2e',
          fileCreatedAt: '2024-01-01T00:00:00.000Z',
          fileModifiedAt: '2024-01-01T00:00:00.000Z',
        },
      },
      user,
    );
    const deadline = Date.now() + 15_000;
    let asset = await getAssetInfo({ id }, user);
    while (!asset.resized && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      asset = await getAssetInfo({ id }, user);
    }
    expect(asset.resized).toBe(true);
    expect(asset.thumbhash).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const webp = Buffer.from(await (await getAssetThumbnail({ id }, user)).arrayBuffer());
    expect(webp.subarray(0, 4).toString()).toBe('RIFF');
    expect(webp.subarray(8, 12).toString()).toBe('WEBP');
    const jpeg = Buffer.from(await (await getAssetThumbnail({ id, format: ThumbnailFormat.Jpeg }, user)).arrayBuffer());
    expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    // The original and its download: the same bytes (deployed, through a redirect to a presigned URL).
    const sha1 = (bytes: ArrayBuffer) => createHash('sha1').update(Buffer.from(bytes)).digest('hex');
    expect(sha1(await (await serveFile({ id }, user)).arrayBuffer())).toBe(
      sha1(photo.buffer.slice(photo.byteOffset, photo.byteOffset + photo.length) as ArrayBuffer),
    );
    expect(sha1(await (await downloadFile({ id }, user)).arrayBuffer())).toBe(
      asset.checksum ? Buffer.from(asset.checksum, 'base64').toString('hex') : '',
    );
  });
});
