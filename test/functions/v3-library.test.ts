import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getTimeBucketsV1 } from '#functions/asset/get-time-buckets.ts';
import { handler as getDownloadInfo } from '#functions/download/get-download-info.ts';
import { handler as getExploreData } from '#functions/search/get-explore-data.ts';
import { handler as searchMetadata } from '#functions/search/search-metadata.ts';
import { handler as emptyTrash } from '#functions/trash/empty-trash.ts';
import { handler as restoreAssets } from '#functions/trash/restore-assets.ts';
import { handler as restoreTrash } from '#functions/trash/restore-trash.ts';
import { handler as searchRandom } from '#functions/v3/search/search-random.ts';
import { handler as getTimeBucket } from '#functions/v3/timeline/get-time-bucket.ts';
import { handler as getTimeBuckets } from '#functions/v3/timeline/get-time-buckets.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, assetInfo, createAlbum, trash, updateAsset } from '../support/library.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

/** What v3's SDK sends (fetchJson), and what the 3.x Android app sends. */
const v3Sdk = { accept: 'application/json' };
const v3App = { 'user-agent': 'immich-android/3.1.0' };

describe('timeline (v3)', () => {
  let user: { accessToken: string; userId: string };
  let ids: string[];
  beforeAll(async () => {
    user = await freshUser(accounts.admin.accessToken, 'Timeline');
    ids = [
      await addPhoto(user.accessToken, { color: [1, 1, 50], width: 60, height: 40 }, new Date('2024-03-05T10:00:00.000Z')),
      await addPhoto(user.accessToken, { color: [1, 1, 60] }, new Date('2024-03-20T10:00:00.000Z')),
      await addPhoto(user.accessToken, { color: [1, 1, 70] }, new Date('2023-12-24T18:00:00.000Z')),
    ];
    await updateAsset(user.accessToken, ids[2] ?? '', { isArchived: true });
  });
  const buckets = (query: Record<string, string> = {}) =>
    invoke(getTimeBuckets, { path: '/api/timeline/buckets', query, headers: bearer(user.accessToken) });
  const bucket = (query: Record<string, string>) =>
    invoke(getTimeBucket, { path: '/api/timeline/bucket', query, headers: bearer(user.accessToken) });

  it('counts months as dates, the timeline and the archive unless visibility says, as v1.100 counts them', async () => {
    expect((await buckets()).body).toEqual([
      { timeBucket: '2024-03-01', count: 2 },
      { timeBucket: '2023-12-01', count: 1 },
    ]);
    expect((await buckets({ visibility: 'timeline' })).body).toEqual([{ timeBucket: '2024-03-01', count: 2 }]);
    expect((await buckets({ visibility: 'archive', order: 'asc' })).body).toEqual([{ timeBucket: '2023-12-01', count: 1 }]);
    const v1 = await invoke(getTimeBucketsV1, {
      path: '/api/asset/time-buckets',
      query: { size: 'MONTH', isArchived: 'false' },
      headers: bearer(user.accessToken),
    });
    expect(v1.body).toEqual([{ timeBucket: '2024-03-01T00:00:00.000Z', count: 2 }]);
    // A tag that is not the caller's: Immich's tag.read refusal.
    expect((await buckets({ tagId: '00000000-0000-4000-a000-000000000000' })).body).toMatchObject({
      message: 'Not found or no tag.read access',
    });
  });

  it("answers a month's assets as v3's columns", async () => {
    const reply = await bucket({ timeBucket: '2024-03-01', withCoordinates: 'true' });
    expect(reply.status).toBe(200);
    expect(reply.body.id).toEqual([ids[1], ids[0]]);
    expect(reply.body).toMatchObject({
      ownerId: [user.userId, user.userId],
      isFavorite: [false, false],
      visibility: ['timeline', 'timeline'],
      isTrashed: [false, false],
      isImage: [true, true],
      duration: [null, null],
      livePhotoVideoId: [null, null],
      localOffsetHours: [0, 0],
      fileCreatedAt: ['2024-03-20T10:00:00.000Z', '2024-03-05T10:00:00.000Z'],
      latitude: [null, null],
    });
    expect(reply.body.ratio[1]).toBe(1.5);
    expect(Object.keys(reply.body)).not.toContain('stack');
    expect((await bucket({ timeBucket: '2024-03-01', order: 'asc' })).body.id).toEqual([ids[0], ids[1]]);
    expect((await bucket({ timeBucket: '2023-12-01', visibility: 'timeline' })).body.id).toEqual([]);
  });

  it("reads an album's months by albumId", async () => {
    const album = await createAlbum(user.accessToken, { albumName: 'Timeline album', assetIds: [ids[0]] });
    expect((await buckets({ albumId: album.id })).body).toEqual([{ timeBucket: '2024-03-01', count: 1 }]);
    expect((await bucket({ albumId: album.id, timeBucket: '2024-03-01' })).body.id).toEqual([ids[0]]);
  });
});

describe('trash: one path, each generation its answer', () => {
  it("answers v3's clients {count} and v1.100's an empty 204", async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Trasher');
    const [a, b, c] = [await addPhoto(user.accessToken), await addPhoto(user.accessToken), await addPhoto(user.accessToken)];
    await trash(user.accessToken, [a, b, c]);
    const restoreOne = (headers: Record<string, string>) =>
      invoke(restoreAssets, {
        method: 'POST',
        path: '/api/trash/restore/assets',
        headers: { ...bearer(user.accessToken), ...headers },
        body: { ids: [a] },
      });
    const v1 = await restoreOne({});
    expect(v1).toMatchObject({ status: 204, body: '' });
    expect((await assetInfo(user.accessToken, a)).body.isTrashed).toBe(false);
    await trash(user.accessToken, [a]);
    expect(await restoreOne(v3Sdk)).toMatchObject({ status: 200, body: { count: 1 } });
    const all = await invoke(restoreTrash, {
      method: 'POST',
      path: '/api/trash/restore',
      headers: { ...bearer(user.accessToken), ...v3App },
    });
    expect(all).toMatchObject({ status: 200, body: { count: 2 } });
    await trash(user.accessToken, [a, b]);
    const emptied = await invoke(emptyTrash, {
      method: 'POST',
      path: '/api/trash/empty',
      headers: { ...bearer(user.accessToken), ...v3Sdk },
    });
    expect(emptied).toMatchObject({ status: 200, body: { count: 2 } });
    expect((await assetInfo(user.accessToken, a)).status).toBe(400);
    expect((await invoke(emptyTrash, { method: 'POST', path: '/api/trash/empty', headers: bearer(user.accessToken) })).status).toBe(204);
  });
});

describe('search: one path, each generation its request and answer', () => {
  let user: { accessToken: string; userId: string };
  let [plain, archived, described]: string[] = [];
  beforeAll(async () => {
    user = await freshUser(accounts.admin.accessToken, 'Seeker');
    plain = await addPhoto(user.accessToken, { make: 'Canon', city: 'Oslo', color: [9, 1, 1] });
    archived = await addPhoto(user.accessToken, { make: 'Canon', city: 'Oslo', color: [9, 2, 2] });
    described = await addPhoto(user.accessToken, { make: 'Nikon', description: 'Fjord at Dawn', color: [9, 3, 3] });
    await updateAsset(user.accessToken, archived ?? '', { isArchived: true });
  });
  const search = (body: unknown, headers: Record<string, string> = {}) =>
    invoke(searchMetadata, { method: 'POST', path: '/api/search/metadata', headers: { ...bearer(user.accessToken), ...headers }, body });

  it("answers v1.100's request (no visibility) in v1.100's shape", async () => {
    const reply = await search({ make: 'Canon' });
    expect(reply.body.assets.items.map((asset: { id: string }) => asset.id)).toEqual([plain]);
    expect(reply.body.assets.items[0]).toMatchObject({ duration: '0:00:00.00000', deviceId: 'CLI' });
    expect(reply.body.assets).not.toHaveProperty('nextCursor');
  });

  it("answers v3's request (visibility, as v3's clients always send it) in v3's shape", async () => {
    const timeline = await search({ visibility: 'timeline', make: 'Canon', withExif: true });
    expect(timeline.body.assets.items.map((asset: { id: string }) => asset.id)).toEqual([plain]);
    expect(timeline.body.assets).toMatchObject({ nextCursor: null, nextPage: null });
    expect(timeline.body.assets.items[0]).toMatchObject({
      visibility: 'timeline',
      duration: null,
      exifInfo: { make: 'Canon', rating: null },
    });
    expect((await search({ visibility: 'archive' })).body.assets.items.map((asset: { id: string }) => asset.id)).toEqual([archived]);
    const found = await search({ visibility: 'timeline', description: 'fjord AT' });
    expect(found.body.assets.items.map((asset: { id: string }) => asset.id)).toEqual([described]);
    // A tag that is not the caller's matches nothing (test/functions/tags.test.ts has tags that match).
    expect((await search({ visibility: 'timeline', tagIds: ['00000000-0000-4000-a000-000000000000'] })).body.assets.items).toEqual([]);
    // The apps get v3's answer whatever they send.
    expect((await search({ make: 'Nikon' }, v3App)).body.assets.items[0]).toMatchObject({ id: described, visibility: 'timeline' });
    // The locked folder only in a session unlocked with the PIN code (test/functions/locked-folder.test.ts).
    const bad = await search({ visibility: 'locked' });
    expect(bad.status).toBe(401);
    expect(bad.body.message).toBe('Elevated permission is required');
    expect((await search({ visibility: 'secret' })).status).toBe(400);
  });

  it('narrows to the assets in every album named (albumIds)', async () => {
    const [one, two] = [
      await createAlbum(user.accessToken, { albumName: 'One', assetIds: [plain, described] }),
      await createAlbum(user.accessToken, { albumName: 'Two', assetIds: [described] }),
    ];
    const reply = await search({ visibility: 'timeline', albumIds: [one.id, two.id] });
    expect(reply.body.assets.items.map((asset: { id: string }) => asset.id)).toEqual([described]);
    const theirs = await createAlbum(accounts.user2.accessToken, { albumName: 'Not mine' });
    expect((await search({ visibility: 'timeline', albumIds: [theirs.id] })).status).toBe(400);
  });

  it("draws random assets in v3's shape (POST /search/random)", async () => {
    const random = await invoke(searchRandom, {
      method: 'POST',
      path: '/api/search/random',
      headers: bearer(user.accessToken),
      body: { size: 2 },
    });
    expect(random.status).toBe(200);
    expect(random.body).toHaveLength(2);
    expect(random.body[0]).toHaveProperty('visibility');
    const filtered = await invoke(searchRandom, {
      method: 'POST',
      path: '/api/search/random',
      headers: bearer(user.accessToken),
      body: { make: 'Nikon' },
    });
    expect(filtered.body.map((asset: { id: string }) => asset.id)).toEqual([described]);
  });

  it("explores places: v3's assets for v3's apps, v1.100's for the rest", async () => {
    const v1 = await invoke(getExploreData, { path: '/api/search/explore', headers: bearer(user.accessToken) });
    const v3 = await invoke(getExploreData, { path: '/api/search/explore', headers: { ...bearer(user.accessToken), ...v3App } });
    expect(v1.body[0]).toMatchObject({ fieldName: 'exifInfo.city' });
    expect(v3.body[0]).toMatchObject({ fieldName: 'exifInfo.city' });
    for (const item of v1.body[0].items) expect(item.data).not.toHaveProperty('visibility');
    for (const item of v3.body[0].items) expect(item.data).toHaveProperty('visibility');
  });

  it('answers download info the same to both', async () => {
    const reply = await invoke(getDownloadInfo, {
      method: 'POST',
      path: '/api/download/info',
      headers: { ...bearer(user.accessToken), ...v3Sdk },
      body: { assetIds: [plain] },
    });
    expect(reply.body).toMatchObject({ totalSize: expect.any(Number), archives: [{ assetIds: [plain] }] });
  });
});
