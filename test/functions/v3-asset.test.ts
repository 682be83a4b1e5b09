import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAssetStatisticsV1 } from '#functions/asset/get-asset-statistics.ts';
import { handler as checkBulkUpload } from '#functions/v3/asset/check-bulk-upload.ts';
import { handler as deleteAssets } from '#functions/v3/asset/delete-assets.ts';
import { handler as downloadAsset } from '#functions/v3/asset/download-asset.ts';
import { handler as getAssetInfo } from '#functions/v3/asset/get-asset-info.ts';
import { handler as getAssetStatistics } from '#functions/v3/asset/get-asset-statistics.ts';
import { handler as playAssetVideo } from '#functions/v3/asset/play-asset-video.ts';
import { handler as updateAssetV3 } from '#functions/v3/asset/update-asset.ts';
import { handler as updateAssetsV3 } from '#functions/v3/asset/update-assets.ts';
import { handler as uploadAsset } from '#functions/v3/asset/upload-asset.ts';
import { handler as viewAsset } from '#functions/v3/asset/view-asset.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { assetInfo, updateAsset } from '../support/library.ts';
import { objectCreated } from '../support/media.ts';
import { makeJpeg } from '../support/photos.ts';
import { type FilePart, multipart, sha1 } from '../support/uploads.ts';
import { makeVideo } from '../support/videos.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

/** The fields @immich/cli 3.2.2 sends (no device ids), or the mobile app's (with them and a duration). */
const cliForm = (size: number, extra: Record<string, string> = {}) => ({
  fileCreatedAt: '2024-05-06T07:08:09.000Z',
  fileModifiedAt: '2024-05-06T07:08:09.000Z',
  fileSize: String(size),
  isFavorite: 'false',
  ...extra,
});

const post = async (token: string, fields: Record<string, string>, files: Record<string, FilePart>) => {
  const { body, contentType } = await multipart(fields, files);
  return invoke(uploadAsset, { method: 'POST', path: '/api/assets', headers: { ...bearer(token), 'content-type': contentType }, body });
};

const uploadPhoto = async (token: string, data = makeJpeg({ color: [Math.random() * 255, 90, 30] }), extra: Record<string, string> = {}) =>
  post(token, cliForm(data.length, extra), { assetData: { data, fileName: 'IMG_0001.jpg', contentType: 'image/jpeg' } });

const info = (token: string, id: string) =>
  invoke(getAssetInfo, { path: `/api/assets/${id}`, headers: bearer(token), pathParameters: { id } });
const put = (token: string, id: string, body: unknown) =>
  invoke(updateAssetV3, { method: 'PUT', path: `/api/assets/${id}`, headers: bearer(token), pathParameters: { id }, body });
const putMany = (token: string, body: unknown) =>
  invoke(updateAssetsV3, { method: 'PUT', path: '/api/assets', headers: bearer(token), body });
const file = (handler: typeof viewAsset, route: string, token: string, id: string, query: Record<string, string> = {}) =>
  invoke(handler, { path: `/api/assets/${id}/${route}`, query, headers: bearer(token), pathParameters: { id } });

describe('POST /assets (v3)', () => {
  it("stores the CLI's upload (no device ids): 201 created, then 200 duplicate, readable through v1.100", async () => {
    const token = accounts.user1.accessToken;
    const data = makeJpeg({ color: [12, 200, 77] });
    const created = await uploadPhoto(token, data);
    expect(created).toMatchObject({ status: 201, body: { id: expect.any(String), status: 'created' } });
    expect(Object.keys(created.body).sort()).toEqual(['id', 'status']);
    const again = await uploadPhoto(token, data);
    expect(again).toMatchObject({ status: 200, body: { id: created.body.id, status: 'duplicate' } });
    const v1 = await assetInfo(token, created.body.id);
    expect(v1.body).toMatchObject({
      originalFileName: 'IMG_0001.jpg',
      deviceId: 'NONE',
      isArchived: false,
      fileCreatedAt: '2024-05-06T07:08:09.000Z',
    });
  });

  it('takes the visibility, favourite, file name and a duration in milliseconds', async () => {
    const token = accounts.user1.accessToken;
    const reply = await uploadPhoto(token, undefined, {
      visibility: 'archive',
      isFavorite: 'true',
      filename: 'renamed.jpg',
      duration: '1500',
    });
    expect(reply.status).toBe(201);
    expect((await info(token, reply.body.id)).body).toMatchObject({
      visibility: 'archive',
      isArchived: true,
      isFavorite: true,
      originalFileName: 'renamed.jpg',
      duration: 1500,
    });
    // v1.100 sees the same asset archived, the duration as its text.
    expect((await assetInfo(token, reply.body.id)).body).toMatchObject({ isArchived: true, duration: '00:00:01.500' });
  });

  it('links a live photo as the iOS app uploads it: the video first (hidden), then the photo naming it', async () => {
    const token = accounts.user1.accessToken;
    const video = makeVideo({ seconds: 1, width: 64, height: 48 });
    const motion = await post(token, cliForm(video.length, { visibility: 'hidden', deviceAssetId: 'LIVE-1', deviceId: 'iPhone' }), {
      assetData: { data: video, fileName: 'IMG_0002.MOV', contentType: 'video/quicktime' },
    });
    expect(motion.status).toBe(201);
    const still = await uploadPhoto(token, undefined, { livePhotoVideoId: motion.body.id, deviceAssetId: 'LIVE-1', deviceId: 'iPhone' });
    expect(still.status).toBe(201);
    expect((await info(token, still.body.id)).body.livePhotoVideoId).toBe(motion.body.id);
    expect((await info(token, motion.body.id)).body).toMatchObject({ visibility: 'hidden', type: 'VIDEO' });
  });

  it('hides a video still in the timeline once a photo names it as its live video', async () => {
    const token = accounts.user1.accessToken;
    const video = makeVideo({ seconds: 2, width: 64, height: 48 });
    const motion = await post(token, cliForm(video.length), { assetData: { data: video, fileName: 'clip.mp4', contentType: 'video/mp4' } });
    expect((await info(token, motion.body.id)).body.visibility).toBe('timeline');
    const still = await uploadPhoto(token, undefined, { livePhotoVideoId: motion.body.id });
    expect(still.status).toBe(201);
    expect((await info(token, motion.body.id)).body.visibility).toBe('hidden');
  });

  it("refuses a live video that is not the caller's, is not a video, or does not exist, storing nothing", async () => {
    const token = accounts.user1.accessToken;
    const other = await freshUser(accounts.admin.accessToken, 'Lender');
    const video = makeVideo({ seconds: 3, width: 64, height: 48 });
    const theirs = await post(other.accessToken, cliForm(video.length), { assetData: { data: video, fileName: 'theirs.mp4' } });
    const photo = await uploadPhoto(token);
    const cases: [string, string][] = [
      [theirs.body.id, 'Live photo video does not belong to the user'],
      [photo.body.id, 'Live photo video must be a video'],
      ['00000000-0000-4000-a000-000000000000', 'Live photo video not found'],
    ];
    for (const [livePhotoVideoId, message] of cases) {
      const data = makeJpeg({ color: [1, 2, Math.random() * 255] });
      const reply = await uploadPhoto(token, data, { livePhotoVideoId });
      expect(reply).toMatchObject({ status: 400, body: { message } });
      expect(Object.keys(reply.body)).toEqual(['message']);
      const check = await invoke(checkBulkUpload, {
        method: 'POST',
        path: '/api/assets/bulk-upload-check',
        headers: bearer(token),
        body: { assets: [{ id: 'x', checksum: sha1(data) }] },
      });
      expect(check.body.results[0].action).toBe('accept');
    }
  });

  it("answers a bad form in v3's validation shape", async () => {
    const data = makeJpeg();
    const reply = await post(
      accounts.user1.accessToken,
      { fileModifiedAt: 'yesterday', visibility: 'secret', duration: '-5' },
      {
        assetData: { data, fileName: 'x.jpg' },
      },
    );
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe('Validation failed');
    expect(reply.body.errors.map((issue: { path: string[] }) => issue.path[0]).sort()).toEqual(
      ['duration', 'fileCreatedAt', 'fileModifiedAt', 'visibility'].sort(),
    );
  });
});

describe('GET /assets/{id} and the files (v3)', () => {
  it("answers v3's asset: visibility, milliseconds, the shown size, exif with a rating, no library", async () => {
    const token = accounts.user1.accessToken;
    const reply = await uploadPhoto(token, makeJpeg({ width: 64, height: 48, orientation: 6, color: [3, 4, 5] }));
    const body = (await info(token, reply.body.id)).body;
    expect(body).toMatchObject({
      id: reply.body.id,
      visibility: 'timeline',
      isArchived: false,
      isTrashed: false,
      duration: null,
      width: 48,
      height: 64,
      libraryId: null,
      isEdited: false,
      duplicateId: null,
      people: [],
      tags: [],
      stack: null,
      exifInfo: { exifImageWidth: 64, exifImageHeight: 48, orientation: '6', rating: null },
      owner: { id: accounts.user1.userId, email: 'user1@immich.cloud' },
    });
    expect(body).not.toHaveProperty('deviceAssetId');
  });

  it('serves the thumbnail and the preview, redirects fullsize and original, and plays only videos', async () => {
    const token = accounts.user1.accessToken;
    const reply = await uploadPhoto(token, makeJpeg({ width: 640, height: 480, color: [200, 10, 10] }));
    const id = reply.body.id as string;
    expect(await file(viewAsset, 'thumbnail', token, id)).toMatchObject({ status: 404, body: { message: 'Asset media not found' } });
    const { originalPath } = (await info(token, id)).body;
    await objectCreated(originalPath);
    const thumbnail = await file(viewAsset, 'thumbnail', token, id);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers).toMatchObject({
      'content-type': 'image/webp',
      'content-disposition': "inline; filename*=UTF-8''IMG_0001_thumbnail.webp",
    });
    const preview = await file(viewAsset, 'thumbnail', token, id, { size: 'preview' });
    expect(preview.headers['content-type']).toBe('image/jpeg');
    expect(await file(viewAsset, 'thumbnail', token, id, { size: 'fullsize', edited: 'true' })).toMatchObject({
      status: 302,
      headers: { location: 'original?edited=true' },
    });
    expect((await file(viewAsset, 'thumbnail', token, id, { size: 'original', c: 'x' })).headers.location).toBe('original?c=x');
    const original = await file(downloadAsset, 'original', token, id);
    expect(original.status).toBe(200);
    expect(original.headers['content-type']).toBe('image/jpeg');
    expect(await file(playAssetVideo, 'video/playback', token, id)).toMatchObject({
      status: 404,
      body: { message: 'Asset not found or asset is not a video' },
    });
  });

  it("keeps another user's asset out of reach in v3's shape", async () => {
    const id = (await uploadPhoto(accounts.user1.accessToken)).body.id;
    const reply = await info(accounts.user2.accessToken, id);
    expect(reply).toEqual(expect.objectContaining({ status: 400, body: { message: 'Not found or no asset.read access' } }));
  });
});

describe('PUT /assets/{id}, PUT /assets, DELETE /assets (v3)', () => {
  it('archives through visibility, read by v1.100 as isArchived, and back through v1.100', async () => {
    const token = accounts.user1.accessToken;
    const id = (await uploadPhoto(token)).body.id;
    const archived = await put(token, id, { visibility: 'archive', rating: 4, description: 'hello' });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ visibility: 'archive', exifInfo: { rating: 4, description: 'hello' } });
    expect((await assetInfo(token, id)).body).toMatchObject({ isArchived: true, exifInfo: { description: 'hello' } });
    expect((await assetInfo(token, id)).body.exifInfo).not.toHaveProperty('rating');
    await updateAsset(token, id, { isArchived: false });
    expect((await info(token, id)).body.visibility).toBe('timeline');
  });

  it('refuses what it does not keep (duplicate groups), a hidden asset by choice, half a position and a bad date move', async () => {
    const token = accounts.user1.accessToken;
    const id = (await uploadPhoto(token)).body.id;
    for (const body of [{ visibility: 'hidden' }, { latitude: 10 }, { rating: 0 }]) {
      const reply = await put(token, id, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.message).toBe('Validation failed');
    }
    const duplicate = await putMany(token, { ids: [id], duplicateId: 'x' });
    expect(duplicate.body.errors[0]).toEqual({ path: ['duplicateId'], message: 'duplicateId is not supported by this server yet' });
    const before = (await info(token, id)).body;
    for (const [body, error] of [
      [{ dateTimeRelative: 60, dateTimeOriginal: '2024-05-01T10:00:00.000Z' }, 'dateTimeRelative cannot exist alongside dateTimeOriginal'],
      [{ dateTimeRelative: 1.5 }, 'dateTimeRelative must be an integer'],
      [{ timeZone: 'Mars/Olympus_Mons' }, 'timeZone must be a valid IANA time zone'],
      [{ dateTimeOriginal: '2024-05-01T10:00:00.000+15:00' }, 'dateTimeOriginal must have a UTC offset between -12:00 and +14:00'],
    ] as const) {
      const reply = await putMany(token, { ids: [id], ...body });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.errors.map((each: { message: string }) => each.message)).toContain(error);
    }
    const after = (await info(token, id)).body;
    expect(after).toMatchObject({ visibility: 'timeline', fileCreatedAt: before.fileCreatedAt, localDateTime: before.localDateTime });
  });

  it('changes many assets at once as the apps do, and trashes them, read back through v1.100; counts follow visibility', async () => {
    const token = (await freshUser(accounts.admin.accessToken, 'BulkV3')).accessToken;
    const ids = [(await uploadPhoto(token)).body.id, (await uploadPhoto(token)).body.id, (await uploadPhoto(token)).body.id];
    const stats = async (query: Record<string, string> = {}) =>
      (await invoke(getAssetStatistics, { path: '/api/assets/statistics', query, headers: bearer(token) })).body;
    expect(await stats()).toEqual({ images: 3, videos: 0, total: 3 });
    expect(
      (await putMany(token, { ids: ids.slice(0, 2), visibility: 'archive', isFavorite: true, latitude: 1.5, longitude: 2.5 })).status,
    ).toBe(204);
    expect((await assetInfo(token, ids[0])).body).toMatchObject({
      isArchived: true,
      isFavorite: true,
      exifInfo: { latitude: 1.5, longitude: 2.5 },
    });
    expect(await stats({ visibility: 'archive' })).toEqual({ images: 2, videos: 0, total: 2 });
    expect(await stats({ visibility: 'timeline' })).toEqual({ images: 1, videos: 0, total: 1 });
    expect(await stats({ visibility: 'hidden' })).toEqual({ images: 0, videos: 0, total: 0 });
    expect(await stats({ isFavorite: 'true' })).toEqual({ images: 2, videos: 0, total: 2 });
    const v1 = await invoke(getAssetStatisticsV1, { path: '/api/asset/statistics', query: { isArchived: 'true' }, headers: bearer(token) });
    expect(v1.body.total).toBe(2);

    const trashed = await invoke(deleteAssets, { method: 'DELETE', path: '/api/assets', headers: bearer(token), body: { ids: [ids[2]] } });
    expect(trashed.status).toBe(204);
    expect((await assetInfo(token, ids[2] ?? '')).body.isTrashed).toBe(true);
    expect(await stats({ isTrashed: 'true' })).toEqual({ images: 1, videos: 0, total: 1 });
  });
});
