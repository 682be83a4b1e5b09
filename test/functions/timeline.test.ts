import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAssetStatisticsHandler } from '#functions/asset/get-asset-statistics.ts';
import { handler as getRandomHandler } from '#functions/asset/get-random.ts';
import { handler as getTimeBucketHandler } from '#functions/asset/get-time-bucket.ts';
import { handler as getTimeBucketsHandler } from '#functions/asset/get-time-buckets.ts';
import { handler as createLinkHandler } from '#functions/shared-link/create-shared-link.ts';
import { handler as restoreAssetsHandler } from '#functions/trash/restore-assets.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, createAlbum, personNamed, trash, updateAsset } from '../support/library.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
let token: string;
beforeAll(async () => {
  accounts = await setupAccounts();
  token = (await freshUser(accounts.admin.accessToken, `Timeline${Date.now()}`)).accessToken;
});

const buckets = (auth: Record<string, string>, query: Record<string, string>) =>
  invoke(getTimeBucketsHandler, { path: '/api/asset/time-buckets', query, headers: auth });
const bucket = (auth: Record<string, string>, query: Record<string, string>) =>
  invoke(getTimeBucketHandler, { path: '/api/asset/time-bucket', query, headers: auth });
const statistics = (auth: Record<string, string>, query: Record<string, string> = {}) =>
  invoke(getAssetStatisticsHandler, { path: '/api/asset/statistics', query, headers: auth });
const restore = (auth: Record<string, string>, ids: string[]) =>
  invoke(restoreAssetsHandler, { method: 'POST', path: '/api/trash/restore/assets', headers: auth, body: { ids } });

/** A photo taken at this wall-clock time and offset (EXIF `YYYY:MM:DD HH:mm:ss`). */
const takenAt = (who: string, dateTimeOriginal: string, offsetTimeOriginal = '+00:00', extra = {}) =>
  addPhoto(who, { dateTimeOriginal, offsetTimeOriginal, ...extra });

const face = (name: string) => ({ name, x: 0.1, y: 0.1, w: 0.2, h: 0.2 });

describe('GET /asset/time-buckets and /asset/time-bucket', () => {
  it("buckets by the local date, counts exactly through archive, favourite, trash, restore and delete, and lists a bucket's assets", async () => {
    const me = bearer(token);
    // 00:30 on 1 July at UTC+2 is 30 June in UTC: Immich buckets by the local date.
    const july1 = await takenAt(token, '2023:07:01 00:30:00', '+02:00');
    const july20 = await takenAt(token, '2023:07:20 18:00:00', '-07:00');
    const july31 = await takenAt(token, '2023:07:31 23:00:00', '-10:00');
    const june = await takenAt(token, '2023:06:30 12:00:00');
    const march = await takenAt(token, '2021:03:03 03:03:03');

    expect((await buckets(me, { size: 'MONTH' })).body).toEqual([
      { timeBucket: '2023-07-01T00:00:00.000Z', count: 3 },
      { timeBucket: '2023-06-01T00:00:00.000Z', count: 1 },
      { timeBucket: '2021-03-01T00:00:00.000Z', count: 1 },
    ]);
    expect((await buckets(me, { size: 'DAY', order: 'asc' })).body).toEqual([
      { timeBucket: '2021-03-03T00:00:00.000Z', count: 1 },
      { timeBucket: '2023-06-30T00:00:00.000Z', count: 1 },
      { timeBucket: '2023-07-01T00:00:00.000Z', count: 1 },
      { timeBucket: '2023-07-20T00:00:00.000Z', count: 1 },
      { timeBucket: '2023-07-31T00:00:00.000Z', count: 1 },
    ]);

    const ids = async (query: Record<string, string>) => {
      const reply = await bucket(me, { size: 'MONTH', ...query });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return reply.body.map((asset: { id: string }) => asset.id);
    };
    // Newest first by time taken; ascending on request; only the bucket's own assets.
    expect(await ids({ timeBucket: '2023-07-01T00:00:00.000Z' })).toEqual([july31, july20, july1]);
    expect(await ids({ timeBucket: '2023-07-01T00:00:00.000Z', order: 'asc' })).toEqual([july1, july20, july31]);
    expect(await ids({ timeBucket: '2023-06-01T00:00:00.000Z' })).toEqual([june]);
    expect(await ids({ timeBucket: '2023-07-20T00:00:00.000Z', size: 'DAY' })).toEqual([july20]);
    // Not the start of a bucket: nothing matches (Immich compares the truncated date).
    expect(await ids({ timeBucket: '2023-07-15T00:00:00.000Z' })).toEqual([]);
    const [first] = (await bucket(me, { size: 'MONTH', timeBucket: '2021-03-01T00:00:00.000Z' })).body;
    expect(first).toMatchObject({
      id: march,
      isFavorite: false,
      isTrashed: false,
      exifInfo: { dateTimeOriginal: '2021-03-03T03:03:03.000Z' },
    });

    // Each change moves exactly one count.
    expect((await updateAsset(token, july20, { isArchived: true })).status).toBe(200);
    expect((await updateAsset(token, july1, { isFavorite: true })).status).toBe(200);
    expect((await trash(token, [june])).status).toBe(204);
    const month = async (query: Record<string, string>) => (await buckets(me, { size: 'MONTH', ...query })).body;
    expect(await month({ isArchived: 'false' })).toEqual([
      { timeBucket: '2023-07-01T00:00:00.000Z', count: 2 },
      { timeBucket: '2021-03-01T00:00:00.000Z', count: 1 },
    ]);
    expect(await month({ isArchived: 'true' })).toEqual([{ timeBucket: '2023-07-01T00:00:00.000Z', count: 1 }]);
    expect(await month({ isFavorite: 'true' })).toEqual([{ timeBucket: '2023-07-01T00:00:00.000Z', count: 1 }]);
    expect(await month({ isTrashed: 'true' })).toEqual([{ timeBucket: '2023-06-01T00:00:00.000Z', count: 1 }]);
    expect(await ids({ timeBucket: '2023-07-01T00:00:00.000Z', isArchived: 'false' })).toEqual([july31, july1]);
    expect(await ids({ timeBucket: '2023-06-01T00:00:00.000Z', isTrashed: 'true' })).toEqual([june]);
    expect(await ids({ timeBucket: '2023-06-01T00:00:00.000Z' })).toEqual([]);

    expect((await statistics(me)).body).toEqual({ images: 4, videos: 0, total: 4 });
    expect((await statistics(me, { isArchived: 'true' })).body).toEqual({ images: 1, videos: 0, total: 1 });
    expect((await statistics(me, { isFavorite: 'true' })).body).toEqual({ images: 1, videos: 0, total: 1 });
    // Immich: isTrashed given at all counts the trash.
    expect((await statistics(me, { isTrashed: 'false' })).body).toEqual({ images: 1, videos: 0, total: 1 });

    expect((await restore(me, [june])).status).toBe(204);
    expect((await trash(token, [march], true)).status).toBe(204);
    // Repeats change nothing.
    expect((await updateAsset(token, july1, { isFavorite: true })).status).toBe(200);
    expect((await trash(token, [march], true)).status).toBe(400);
    expect(await month({})).toEqual([
      { timeBucket: '2023-07-01T00:00:00.000Z', count: 3 },
      { timeBucket: '2023-06-01T00:00:00.000Z', count: 1 },
    ]);
    expect((await statistics(me)).body).toEqual({ images: 4, videos: 0, total: 4 });
  });

  it("an album's and a person's buckets come from their entries", async () => {
    const me = bearer(token);
    const user = (await freshUser(accounts.admin.accessToken, `Albums${Date.now()}`)).accessToken;
    const a = await takenAt(user, '2022:05:05 10:00:00', '+00:00', { mwgFaces: [face('Ada')] });
    const b = await takenAt(user, '2022:05:06 10:00:00', '+00:00', { mwgFaces: [face('Ada')] });
    const c = await takenAt(user, '2020:01:01 10:00:00');
    const album = await createAlbum(user, { albumName: 'trip', assetIds: [a, c] });
    const auth = bearer(user);
    expect((await buckets(auth, { size: 'MONTH', albumId: album.id })).body).toEqual([
      { timeBucket: '2022-05-01T00:00:00.000Z', count: 1 },
      { timeBucket: '2020-01-01T00:00:00.000Z', count: 1 },
    ]);
    expect(
      (await bucket(auth, { size: 'MONTH', albumId: album.id, timeBucket: '2022-05-01T00:00:00.000Z' })).body.map(
        (x: { id: string }) => x.id,
      ),
    ).toEqual([a]);
    expect((await updateAsset(user, c, { isFavorite: true })).status).toBe(200);
    expect((await buckets(auth, { size: 'MONTH', albumId: album.id, isFavorite: 'true' })).body).toEqual([
      { timeBucket: '2020-01-01T00:00:00.000Z', count: 1 },
    ]);
    // Trashed entries leave the album's buckets (and come back to the trash's).
    expect((await trash(user, [a])).status).toBe(204);
    expect((await buckets(auth, { size: 'MONTH', albumId: album.id })).body).toEqual([
      { timeBucket: '2020-01-01T00:00:00.000Z', count: 1 },
    ]);

    const ada = await personNamed(user, 'Ada');
    expect((await buckets(auth, { size: 'MONTH', personId: ada.id, isArchived: 'false' })).body).toEqual([
      { timeBucket: '2022-05-01T00:00:00.000Z', count: 1 },
    ]);
    expect(
      (await bucket(auth, { size: 'DAY', personId: ada.id, timeBucket: '2022-05-06T00:00:00.000Z' })).body.map((x: { id: string }) => x.id),
    ).toEqual([b]);

    // Another user: their album is refused, their person finds nothing of the caller's.
    expect((await buckets(me, { size: 'MONTH', albumId: album.id })).body).toMatchObject({
      statusCode: 400,
      message: 'Not found or no album.read access',
    });
    expect((await bucket(me, { size: 'MONTH', albumId: album.id, timeBucket: '2022-05-01T00:00:00.000Z' })).status).toBe(400);
    expect((await buckets(me, { size: 'MONTH', personId: ada.id })).body).toEqual([]);
    expect((await buckets(me, { size: 'MONTH', userId: accounts.user1.userId })).body).toMatchObject({
      statusCode: 400,
      message: 'Not found or no timeline.read access',
    });
    expect((await statistics(me)).body.total).toBe(4);
  });

  it("a shared link's visitor reads the buckets of its album only, without metadata unless shown", async () => {
    const owner = accounts.user1.accessToken;
    const photo = await takenAt(owner, '2019:09:09 09:09:09', '+00:00', { make: 'Leica' });
    const album = await createAlbum(owner, { albumName: 'shared timeline', assetIds: [photo] });
    const other = await createAlbum(owner, { albumName: 'not shared' });
    const link = await invoke(createLinkHandler, {
      method: 'POST',
      path: '/api/shared-link',
      headers: bearer(owner),
      body: { type: 'ALBUM', albumId: album.id, showMetadata: false },
    });
    const visitor = (query: Record<string, string>) => ({ ...query, key: link.body.key });
    const reply = await invoke(getTimeBucketsHandler, {
      path: '/api/asset/time-buckets',
      query: visitor({ size: 'MONTH', albumId: album.id }),
    });
    expect(reply.body).toEqual([{ timeBucket: '2019-09-01T00:00:00.000Z', count: 1 }]);
    const assets = await invoke(getTimeBucketHandler, {
      path: '/api/asset/time-bucket',
      query: visitor({ size: 'MONTH', albumId: album.id, timeBucket: '2019-09-01T00:00:00.000Z' }),
    });
    expect(assets.body).toHaveLength(1);
    expect(assets.body[0].id).toBe(photo);
    expect(assets.body[0].exifInfo).toBeUndefined();
    expect(assets.body[0].originalFileName).toBeUndefined();
    for (const query of [{ size: 'MONTH' }, { size: 'MONTH', albumId: other.id as string }] as Record<string, string>[]) {
      const refused = await invoke(getTimeBucketsHandler, { path: '/api/asset/time-buckets', query: visitor(query) });
      expect(refused.status).toBe(400);
    }
    // Statistics are not a shared-link route: a key alone is forbidden there.
    expect((await invoke(getAssetStatisticsHandler, { path: '/api/asset/statistics', query: { key: link.body.key } })).status).toBe(403);
  });

  it('GET /asset/random: distinct visible, untrashed assets of the caller, up to count', async () => {
    const user = (await freshUser(accounts.admin.accessToken, `Random${Date.now()}`)).accessToken;
    const auth = bearer(user);
    const random = (query: Record<string, string>) => invoke(getRandomHandler, { path: '/api/asset/random', query, headers: auth });
    const ids = [
      await takenAt(user, '2020:01:01 10:00:00'),
      await takenAt(user, '2020:01:02 10:00:00'),
      await takenAt(user, '2021:05:05 10:00:00'),
      await takenAt(user, '2022:09:09 10:00:00'),
    ];
    const gone = await takenAt(user, '2020:01:03 10:00:00');
    expect((await trash(user, [gone])).status).toBe(204);
    const one = await random({});
    expect(one.status).toBe(200);
    expect(one.body).toHaveLength(1);
    expect(ids).toContain(one.body[0].id);
    const all = (await random({ count: '10' })).body.map((asset: { id: string }) => asset.id);
    expect([...all].sort()).toEqual([...ids].sort());
    const three = (await random({ count: '3' })).body.map((asset: { id: string }) => asset.id);
    expect(new Set(three).size).toBe(3);
    for (const id of three) expect(ids).toContain(id);
    // Another user's library is never drawn from.
    expect(
      (await invoke(getRandomHandler, { path: '/api/asset/random', query: { count: '50' }, headers: bearer(token) })).body.map(
        (a: { id: string }) => a.id,
      ),
    ).not.toContain(ids[0]);
    expect((await random({ count: '0' })).body.message).toEqual(['count must be a positive number']);
    expect((await random({ count: 'x' })).body.message).toEqual(['count must be a positive number', 'count must be an integer number']);
  });

  it('validates as Immich', async () => {
    const me = bearer(token);
    expect((await buckets(me, {})).body.message).toEqual([
      'size must be one of the following values: DAY, MONTH',
      'size should not be empty',
    ]);
    expect((await buckets(me, { size: 'YEAR', albumId: 'x', order: 'up', isArchived: 'maybe' })).body.message).toEqual([
      'size must be one of the following values: DAY, MONTH',
      'albumId must be a UUID',
      'isArchived must be a boolean value',
      'order must be one of the following values: asc, desc',
    ]);
    expect((await bucket(me, { size: 'MONTH' })).body.message).toEqual(['timeBucket must be a string']);
    expect((await bucket(me, { size: 'MONTH', timeBucket: 'soon' })).body).toMatchObject({
      statusCode: 400,
      message: 'timeBucket must be a date string',
    });
    // Immich's own case: a five-digit year is a bucket with nothing in it, not an error.
    expect(await bucket(me, { size: 'MONTH', timeBucket: '+012345-01-01T00:00:00.000Z' })).toMatchObject({ status: 200, body: [] });
    expect((await buckets(me, { size: 'MONTH', withPartners: 'true' })).body.message).toBe(
      'withPartners is only supported for non-archived, non-trashed, non-favorited assets',
    );
    expect((await buckets(me, { size: 'MONTH', withPartners: 'true', isArchived: 'false' })).status).toBe(200);
    expect((await statistics(me, { isFavorite: 'x' })).body.message).toEqual(['isFavorite must be a boolean value']);
  });
});
