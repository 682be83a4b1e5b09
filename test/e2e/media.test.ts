import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  downloadFile,
  getAllPeople,
  getAssetInfo,
  getAssetThumbnail,
  getPersonThumbnail,
  serveFile,
  ThumbnailFormat,
  updatePerson,
} from '@immich/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg, type PhotoSpec } from '../support/photos.ts';
import { adminWithApiKey, type SdkUser, sdkUpload } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';
import { hangGuard } from '../support/timeouts.ts';
import { makeVideo } from '../support/videos.ts';
import { pollUntil } from '../support/waits.ts';

// Deployed, the originals bucket's notification invokes the media function's bundle (with its
// WebAssembly codecs copied beside it); locally the server invokes the same handler.
describe('previews through @immich/sdk 1.100.0 and the local server', () => {
  const server = useServer();
  let user: SdkUser;

  beforeAll(async () => {
    user = await adminWithApiKey(server.baseUrl, 'media@immich.cloud');
    // Not about OCR or duplicates: off, as each photo's cost (test/support/ml-tasks.ts).
    await turnOffMlTasks(user, ['ocr', 'duplicateDetection']);
  });

  const send = (data: Buffer, fileName: string) => sdkUpload(user, data, fileName);

  /** The asset once its previews are made (the media work runs after the upload's answer). */
  const resized = async (id: string) => {
    const deadline = Date.now() + hangGuard.wait;
    let asset = await getAssetInfo({ id }, user);
    while (!asset.resized && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      asset = await getAssetInfo({ id }, user);
    }
    expect(asset.resized).toBe(true);
    return asset;
  };

  it('an upload is resized within seconds, with a thumbhash; the SDK fetches its thumbnail, preview, original and download', async () => {
    const photo = makeJpeg({ width: 800, height: 600, color: [200, 30, 90] });
    const id = await send(photo, 'sunset.jpg');
    const asset = await resized(id);
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

  it('an iPhone photo (HEIC) is resized (deployed, libheif loaded from beside the bundle)', async () => {
    const data = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'iphone.heic'));
    const asset = await resized(await send(data, 'IMG_0001.HEIC'));
    expect(asset.exifInfo).toMatchObject({ make: 'Apple', timeZone: 'America/Chicago' });
  });

  it('a motion photo’s video becomes its hidden live-photo video, with a poster of its own', async () => {
    const video = makeVideo({ seconds: 1, width: 240, height: 160 });
    const photo = await resized(
      await send(Buffer.concat([makeJpeg({ width: 300, height: 200, color: [50, 90, 10] }), video]), 'PXL_E2E.MP.jpg'),
    );
    expect(photo.livePhotoVideoId).toMatch(/^[0-9a-f-]{36}$/);
    const motion = await resized(photo.livePhotoVideoId ?? '');
    expect(motion).toMatchObject({ type: 'VIDEO', duration: '00:00:01.000', checksum: createHash('sha1').update(video).digest('base64') });
  });

  it('a video gets its poster (ffmpeg: deployed, the bundle’s own binary) and its container’s duration', async () => {
    const id = await send(makeVideo({ seconds: 1, width: 320, height: 240 }), 'clip.mp4');
    const asset = await resized(id);
    expect(asset).toMatchObject({ type: 'VIDEO', duration: '00:00:01.000' });
    const jpeg = Buffer.from(await (await getAssetThumbnail({ id, format: ThumbnailFormat.Jpeg }, user)).arrayBuffer());
    expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });

  it('a new feature face gets a new person thumbnail (deployed, the person function invokes the media function)', async () => {
    const face = (x: number): PhotoSpec['mwgFaces'] => [{ name: 'Feature E2E', x, y: 0.25, w: 0.2, h: 0.5 }];
    const first = await send(makeJpeg({ width: 400, height: 400, color: [220, 30, 30], mwgFaces: face(0.1) }), 'red.jpg');
    const second = await send(makeJpeg({ width: 800, height: 400, color: [30, 30, 220], mwgFaces: face(0.6) }), 'blue.jpg');
    await resized(first);
    await resized(second);
    // The person's thumbnail is made by the media job after the previews it waited for: wait for it too.
    const { people } = await pollUntil(
      () => getAllPeople({}, user),
      ({ people }) => (people.find((each) => each.name === 'Feature E2E')?.thumbnailPath ?? '') !== '',
    );
    const person = people.find((each) => each.name === 'Feature E2E');
    expect(person?.thumbnailPath).not.toBe('');
    const thumbnail = async () => Buffer.from(await (await getPersonThumbnail({ id: person?.id ?? '' }, user)).arrayBuffer());
    const before = await thumbnail();
    await updatePerson({ id: person?.id ?? '', personUpdateDto: { featureFaceAssetId: second } }, user);
    const deadline = Date.now() + hangGuard.wait;
    let after = await thumbnail();
    while (after.equals(before) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      after = await thumbnail();
    }
    expect(after.equals(before)).toBe(false);
    expect([...after.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });
});
