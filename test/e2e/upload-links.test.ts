import { createHash } from 'node:crypto';
import * as v1 from '@immich/sdk';
import * as v3 from '@immich/sdk-v3';
import { beforeAll, describe, expect, it } from 'vitest';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg } from '../support/photos.ts';
import { adminWithApiKey, type SdkUser } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';

/**
 * Uploads through a shared link that allows them, and Immich's early duplicate answer
 * (`x-immich-checksum`), as the v3 web app's share page and @immich/sdk 1.100.0 send them, through
 * the server (the local one, or the stack's bundles in the deployed project).
 */
describe('uploads through a shared link, with @immich/sdk 3.2.2 and 1.100.0', () => {
  const server = useServer();
  let owner: SdkUser;

  beforeAll(async () => {
    owner = await adminWithApiKey(server.baseUrl, 'upload-links@immich.cloud');
    // Not about OCR or duplicates or faces: off, as each photo's cost (test/support/ml-tasks.ts).
    await turnOffMlTasks(owner, ['facialRecognition', 'ocr', 'duplicateDetection']);
  });

  const file = (data: Buffer, name: string) => new File([new Uint8Array(data)], name, { type: 'image/jpeg' });
  const form = (data: Buffer, name: string) => ({
    assetData: file(data, name),
    deviceAssetId: name,
    deviceId: 'WEB',
    fileCreatedAt: '2024-03-04T05:06:07.000Z',
    fileModifiedAt: '2024-03-04T05:06:07.000Z',
  });

  it("a visitor uploads into the link's album (v3 then v1.100), which shows the photos; the checksum header answers a duplicate", async () => {
    const album = await v3.createAlbum({ createAlbumDto: { albumName: 'Guests' } }, owner);
    const link = await v3.createSharedLink(
      {
        sharedLinkCreateDto: {
          type: v3.SharedLinkType.Album,
          albumId: album.id,
          allowUpload: true,
          allowDownload: true,
          showMetadata: true,
        },
      },
      owner,
    );
    const visitor = { baseUrl: server.baseUrl };
    const first = makeJpeg({ width: 64, height: 48, color: [200, 10, 10] });
    const created = await v3.uploadAsset({ key: link.key, assetMediaCreateDto: form(first, 'guest-1.jpg') }, visitor);
    expect(created.status).toBe('created');
    const second = await v1.uploadFile(
      { key: link.key, createAssetDto: form(makeJpeg({ width: 64, height: 48, color: [10, 200, 10] }), 'guest-2.jpg') },
      visitor,
    );
    expect(second.duplicate).toBe(false);
    const shown = await v1.getAlbumInfo({ id: album.id }, owner);
    expect(shown.assets.map((asset) => asset.id).sort()).toEqual([created.id, second.id].sort());
    // The visitor sees them through the link.
    expect((await v1.getAssetInfo({ id: created.id, key: link.key }, visitor)).id).toBe(created.id);

    // The same photo named by its SHA-1 (base64, as the web app sends it): answered from the header.
    const checksum = createHash('sha1').update(first).digest('base64');
    const again = await v3.uploadAsset(
      { key: link.key, xImmichChecksum: checksum, assetMediaCreateDto: form(Buffer.from('not even a photo'), 'guest-1.jpg') },
      visitor,
    );
    expect(again).toEqual({ id: created.id, status: 'duplicate' });
  });

  it('a link without uploads is refused: v3 400, v1.100 401', async () => {
    const album = await v3.createAlbum({ createAlbumDto: { albumName: 'Look only' } }, owner);
    const link = await v3.createSharedLink(
      { sharedLinkCreateDto: { type: v3.SharedLinkType.Album, albumId: album.id, allowUpload: false } },
      owner,
    );
    const visitor = { baseUrl: server.baseUrl };
    const data = makeJpeg({ width: 64, height: 48, color: [10, 10, 200] });
    const statusOf = (call: Promise<unknown>) =>
      call.then(
        () => 0,
        (error: unknown) => (v3.isHttpError(error) || v1.isHttpError(error) ? error.status : -1),
      );
    expect(await statusOf(v3.uploadAsset({ key: link.key, assetMediaCreateDto: form(data, 'no-1.jpg') }, visitor))).toBe(400);
    expect(await statusOf(v1.uploadFile({ key: link.key, createAssetDto: form(data, 'no-2.jpg') }, visitor))).toBe(401);
    expect((await v1.getAlbumInfo({ id: album.id }, owner)).assets).toEqual([]);
  });
});
