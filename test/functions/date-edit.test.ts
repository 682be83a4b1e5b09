import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getMemoryLane } from '#functions/asset/get-memory-lane.ts';
import { handler as getTimeBucketV1 } from '#functions/asset/get-time-bucket.ts';
import { handler as getTimeBucketsV1 } from '#functions/asset/get-time-buckets.ts';
import { handler as updateAssetsV1 } from '#functions/asset/update-assets.ts';
import { handler as textSearch } from '#functions/search/search.ts';
import { handler as searchAssets } from '#functions/search/search-assets.ts';
import { handler as getAssetInfoV3 } from '#functions/v3/asset/get-asset-info.ts';
import { handler as getAssetStatisticsV3 } from '#functions/v3/asset/get-asset-statistics.ts';
import { handler as updateAssetV3 } from '#functions/v3/asset/update-asset.ts';
import { handler as updateAssetsV3 } from '#functions/v3/asset/update-assets.ts';
import { handler as getTimeBucketV3 } from '#functions/v3/timeline/get-time-bucket.ts';
import { handler as getTimeBucketsV3 } from '#functions/v3/timeline/get-time-buckets.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, albumInfo, assetInfo, createAlbum, personNamed, updateAsset } from '../support/library.ts';
import { objectCreated, turnOffMl } from '../support/media.ts';
import { SyncClient } from '../support/sync-client.ts';
import { tableItems } from '../support/table-items.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
  // Not about OCR or duplicates: off, as each photo's cost (test/support/ml-tasks.ts).
  await turnOffMl(accounts.admin.accessToken, ['ocr', 'duplicateDetection']);
});

const putV3 = (token: string, id: string, body: unknown) =>
  invoke(updateAssetV3, { method: 'PUT', path: `/api/assets/${id}`, pathParameters: { id }, body, headers: bearer(token) });
const putManyV3 = (token: string, body: unknown) =>
  invoke(updateAssetsV3, { method: 'PUT', path: '/api/assets', body, headers: bearer(token) });
const putManyV1 = (token: string, body: unknown) =>
  invoke(updateAssetsV1, { method: 'PUT', path: '/api/asset', body, headers: bearer(token) });
const infoV3 = async (token: string, id: string) =>
  (await invoke(getAssetInfoV3, { path: `/api/assets/${id}`, pathParameters: { id }, headers: bearer(token) })).body;
const bucketsV3 = async (token: string, query: Record<string, string> = {}) =>
  (await invoke(getTimeBucketsV3, { path: '/api/timeline/buckets', query, headers: bearer(token) })).body;
const bucketV3 = async (token: string, query: Record<string, string>) =>
  (await invoke(getTimeBucketV3, { path: '/api/timeline/bucket', query, headers: bearer(token) })).body;
const bucketsV1 = async (token: string, query: Record<string, string>) =>
  (await invoke(getTimeBucketsV1, { path: '/api/asset/time-buckets', query, headers: bearer(token) })).body;
const bucketV1 = async (token: string, query: Record<string, string>) =>
  (await invoke(getTimeBucketV1, { path: '/api/asset/time-bucket', query, headers: bearer(token) })).body;
const found = async (token: string, query: Record<string, string>) =>
  (await invoke(searchAssets, { path: '/api/assets', query, headers: bearer(token) })).body.map((asset: { id: string }) => asset.id);
const ada = { name: 'Ada', x: 0.1, y: 0.1, w: 0.2, h: 0.2 };

describe('editing the date taken (PUT /assets/{id}, PUT /asset/{id})', () => {
  it('moves the asset to its new local day: its dates, time zone, buckets, album, person, searches and sync lines', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Redated');
    const token = user.accessToken;
    const photo = await addPhoto(token, {
      dateTimeOriginal: '2021:03:03 10:00:00',
      offsetTimeOriginal: '+00:00',
      description: 'sunset over the harbour',
      mwgFaces: [ada],
    });
    const other = await addPhoto(token, { dateTimeOriginal: '2021:03:04 10:00:00', offsetTimeOriginal: '+00:00', color: [9, 9, 9] });
    // Its previews (the memory lane shows only photos that have them).
    await objectCreated((await assetInfo(token, photo)).body.originalPath);
    const album = await createAlbum(token, { albumName: 'trip', assetIds: [photo] });
    const person = await personNamed(token, 'Ada');
    const client = new SyncClient(token);
    await client.sync();
    expect(client.assets.get(photo)).toMatchObject({ localDateTime: '2021-03-03T10:00:00.000Z' });
    expect(await bucketsV3(token)).toEqual([{ timeBucket: '2021-03-01', count: 2 }]);

    // 01:00 on 1 June at UTC+2, as the web app's date dialog sends it: still 31 May in UTC.
    const reply = await putV3(token, photo, { dateTimeOriginal: '2024-06-01T01:00:00.000+02:00' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({
      fileCreatedAt: '2024-05-31T23:00:00.000Z',
      localDateTime: '2024-06-01T01:00:00.000Z',
      exifInfo: { dateTimeOriginal: '2024-05-31T23:00:00.000Z', timeZone: 'UTC+2' },
    });
    expect(await infoV3(token, photo)).toMatchObject({
      fileCreatedAt: '2024-05-31T23:00:00.000Z',
      localDateTime: '2024-06-01T01:00:00.000Z',
    });
    // v1.100 reads the same asset.
    expect((await assetInfo(token, photo)).body).toMatchObject({
      fileCreatedAt: '2024-05-31T23:00:00.000Z',
      localDateTime: '2024-06-01T01:00:00.000Z',
      exifInfo: { timeZone: 'UTC+2' },
    });

    // The timeline: June of the local date, one each; the month it left keeps only the other photo.
    expect(await bucketsV3(token)).toEqual([
      { timeBucket: '2024-06-01', count: 1 },
      { timeBucket: '2021-03-01', count: 1 },
    ]);
    const june = await bucketV3(token, { timeBucket: '2024-06-01' });
    expect(june).toMatchObject({ id: [photo], fileCreatedAt: ['2024-05-31T23:00:00.000Z'], localOffsetHours: [2] });
    expect((await bucketV3(token, { timeBucket: '2021-03-01' })).id).toEqual([other]);
    expect(await bucketsV1(token, { size: 'DAY' })).toEqual([
      { timeBucket: '2024-06-01T00:00:00.000Z', count: 1 },
      { timeBucket: '2021-03-04T00:00:00.000Z', count: 1 },
    ]);
    const stats = await invoke(getAssetStatisticsV3, { path: '/api/assets/statistics', headers: bearer(token) });
    expect(stats.body).toEqual({ images: 2, videos: 0, total: 2 });

    // Its album and its person: their buckets and dates come from the copies on the entry and the face.
    expect(await bucketsV1(token, { size: 'MONTH', albumId: album.id })).toEqual([{ timeBucket: '2024-06-01T00:00:00.000Z', count: 1 }]);
    expect((await albumInfo(token, album.id)).body).toMatchObject({
      startDate: '2024-05-31T23:00:00.000Z',
      endDate: '2024-05-31T23:00:00.000Z',
    });
    expect(await bucketsV1(token, { size: 'MONTH', personId: person.id })).toEqual([{ timeBucket: '2024-06-01T00:00:00.000Z', count: 1 }]);
    expect(
      (await bucketV1(token, { size: 'MONTH', personId: person.id, timeBucket: '2024-06-01T00:00:00.000Z' })).map(
        (asset: { id: string }) => asset.id,
      ),
    ).toEqual([photo]);
    const face = (await tableItems('face')).find((item) => item.assetId === photo);
    expect(face).toMatchObject({ fileCreatedAt: '2024-05-31T23:00:00.000Z', localDateTime: '2024-06-01T01:00:00.000Z' });
    expect(String(face?.gsi2sk)).toMatch(/^2024-05-31T23:00:00\.000Z#/);

    // Search by the date taken finds it in its new place only; the text search's postings moved with it.
    expect(await found(token, { takenAfter: '2024-05-01T00:00:00.000Z' })).toEqual([photo]);
    expect(await found(token, { takenBefore: '2022-01-01T00:00:00.000Z' })).toEqual([other]);
    const postings = (await tableItems('term')).filter((item) => item.assetId === photo);
    expect(postings.length).toBeGreaterThan(0);
    expect(postings.every((item) => String(item.sk).startsWith('2024-05-31T23:00:00.000Z#'))).toBe(true);
    const text = await invoke(textSearch, { path: '/api/search', query: { q: 'sunset' }, headers: bearer(token) });
    expect(text.body.assets.items.map((asset: { id: string }) => asset.id)).toEqual([photo]);

    // The memory lane reads the new local day.
    const lane = await invoke(getMemoryLane, { path: '/api/asset/memory-lane', query: { day: '1', month: '6' }, headers: bearer(token) });
    expect(lane.body.flatMap((group: { assets: { id: string }[] }) => group.assets.map((asset) => asset.id))).toEqual([photo]);

    // The app's sync: the asset and its EXIF again, with their new dates; nothing else.
    const lines = await client.sync();
    expect(lines.filter((line) => line.type !== 'SyncAckV1').map((line) => line.type)).toEqual([
      'AssetV2',
      'AssetExifV1',
      'SyncCompleteV1',
    ]);
    expect(client.assets.get(photo)).toMatchObject({
      fileCreatedAt: '2024-05-31T23:00:00.000Z',
      localDateTime: '2024-06-01T01:00:00.000Z',
    });
    expect(client.exifs.get(photo)).toMatchObject({ dateTimeOriginal: '2024-05-31T23:00:00.000Z', timeZone: 'UTC+2' });
  });

  it('through v1.100: a date with an offset sets the zone, one without keeps the zone the photo has', async () => {
    const token = (await freshUser(accounts.admin.accessToken, 'RedatedV1')).accessToken;
    const photo = await addPhoto(token, { dateTimeOriginal: '2022:08:10 12:00:00', offsetTimeOriginal: '+09:00' });
    expect((await assetInfo(token, photo)).body.exifInfo.timeZone).toBe('UTC+9');

    const reply = await updateAsset(token, photo, { dateTimeOriginal: '2019-12-31T23:30:00-05:00' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({
      fileCreatedAt: '2020-01-01T04:30:00.000Z',
      localDateTime: '2019-12-31T23:30:00.000Z',
      exifInfo: { dateTimeOriginal: '2020-01-01T04:30:00.000Z', timeZone: 'UTC-5' },
    });
    expect(await bucketsV1(token, { size: 'MONTH' })).toEqual([{ timeBucket: '2019-12-01T00:00:00.000Z', count: 1 }]);

    // No offset: the instant as UTC, shown in the photo's own zone (UTC-5 now).
    const again = await updateAsset(token, photo, { dateTimeOriginal: '2023-03-01T02:00:00' });
    expect(again.body).toMatchObject({
      fileCreatedAt: '2023-03-01T02:00:00.000Z',
      localDateTime: '2023-02-28T21:00:00.000Z',
      exifInfo: { timeZone: 'UTC-5' },
    });
    expect(await bucketsV1(token, { size: 'MONTH' })).toEqual([{ timeBucket: '2023-02-01T00:00:00.000Z', count: 1 }]);
    expect(
      (await bucketV1(token, { size: 'MONTH', timeBucket: '2023-02-01T00:00:00.000Z' })).map((asset: { id: string }) => asset.id),
    ).toEqual([photo]);
  });

  it('keeps the state it is counted in: an archived favourite moves in the archive’s counts', async () => {
    const token = (await freshUser(accounts.admin.accessToken, 'RedatedArchive')).accessToken;
    const photo = await addPhoto(token, { dateTimeOriginal: '2020:02:02 10:00:00', offsetTimeOriginal: '+00:00' });
    await updateAsset(token, photo, { isArchived: true, isFavorite: true });
    await putV3(token, photo, { dateTimeOriginal: '2020-04-04T10:00:00.000Z' });
    expect(await bucketsV3(token, { visibility: 'archive', isFavorite: 'true' })).toEqual([{ timeBucket: '2020-04-01', count: 1 }]);
    expect(await bucketsV3(token, { visibility: 'timeline' })).toEqual([]);
    expect(await bucketsV3(token, { visibility: 'archive' })).toEqual([{ timeBucket: '2020-04-01', count: 1 }]);
  });

  it('counts each asset once when edits of its date race', async () => {
    const token = (await freshUser(accounts.admin.accessToken, 'RedatedRace')).accessToken;
    const photo = await addPhoto(token, { dateTimeOriginal: '2020:01:15 10:00:00', offsetTimeOriginal: '+00:00' });
    const months = ['2020-03', '2020-05', '2020-07', '2020-09', '2020-11', '2021-01'];
    const replies = await Promise.all(months.map((month) => putV3(token, photo, { dateTimeOriginal: `${month}-10T10:00:00.000Z` })));
    for (const reply of replies) expect([200, 409]).toContain(reply.status);
    const final = await infoV3(token, photo);
    expect(await bucketsV3(token)).toEqual([{ timeBucket: `${final.localDateTime.slice(0, 7)}-01`, count: 1 }]);
    expect(await bucketsV1(token, { size: 'DAY' })).toEqual([
      { timeBucket: `${final.localDateTime.slice(0, 10)}T00:00:00.000Z`, count: 1 },
    ]);
  });
});

describe('editing the dates of many assets (PUT /assets, PUT /asset)', () => {
  it('moves each by minutes and into a time zone (v3), or sets one date (both generations)', async () => {
    const token = (await freshUser(accounts.admin.accessToken, 'RedatedMany')).accessToken;
    const a = await addPhoto(token, { dateTimeOriginal: '2022:01:30 22:00:00', offsetTimeOriginal: '+00:00', color: [1, 1, 1] });
    const b = await addPhoto(token, { dateTimeOriginal: '2022:01:10 08:00:00', offsetTimeOriginal: '+00:00', color: [2, 2, 2] });
    expect(await bucketsV3(token)).toEqual([{ timeBucket: '2022-01-01', count: 2 }]);

    // Three days later, in New York (UTC−5 in February).
    const moved = await putManyV3(token, { ids: [a, b], dateTimeRelative: 3 * 24 * 60, timeZone: 'America/New_York' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(204);
    expect(await infoV3(token, a)).toMatchObject({
      fileCreatedAt: '2022-02-02T22:00:00.000Z',
      localDateTime: '2022-02-02T17:00:00.000Z',
      exifInfo: { dateTimeOriginal: '2022-02-02T22:00:00.000Z', timeZone: 'America/New_York' },
    });
    expect(await infoV3(token, b)).toMatchObject({ fileCreatedAt: '2022-01-13T08:00:00.000Z', localDateTime: '2022-01-13T03:00:00.000Z' });
    expect(await bucketsV3(token)).toEqual([
      { timeBucket: '2022-02-01', count: 1 },
      { timeBucket: '2022-01-01', count: 1 },
    ]);

    // A zone alone keeps the instant and moves the local time.
    expect((await putManyV3(token, { ids: [a], dateTimeRelative: 0, timeZone: 'Asia/Tokyo' })).status).toBe(204);
    expect(await infoV3(token, a)).toMatchObject({ fileCreatedAt: '2022-02-02T22:00:00.000Z', localDateTime: '2022-02-03T07:00:00.000Z' });

    // One date for both, through v1.100's bulk edit.
    expect((await putManyV1(token, { ids: [a, b], dateTimeOriginal: '2018-07-04T12:00:00.000+02:00' })).status).toBe(204);
    for (const id of [a, b])
      expect(await infoV3(token, id)).toMatchObject({
        fileCreatedAt: '2018-07-04T10:00:00.000Z',
        localDateTime: '2018-07-04T12:00:00.000Z',
        exifInfo: { timeZone: 'UTC+2' },
      });
    expect(await bucketsV3(token)).toEqual([{ timeBucket: '2018-07-01', count: 2 }]);
    expect(await found(token, { takenBefore: '2019-01-01T00:00:00.000Z' })).toHaveLength(2);
  });
});
