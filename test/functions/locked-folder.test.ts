import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAllAssetsV1 } from '#functions/asset/get-all-assets.ts';
import { handler as getTimeBucketsV1 } from '#functions/asset/get-time-buckets.ts';
import { handler as getAuditDeletes } from '#functions/audit/get-audit-deletes.ts';
import { handler as searchMetadata } from '#functions/search/search-metadata.ts';
import { handler as emptyTrash } from '#functions/trash/empty-trash.ts';
import { handler as restoreTrash } from '#functions/trash/restore-trash.ts';
import { handler as addAssetsToAlbum } from '#functions/v3/album/add-assets-to-album.ts';
import { handler as getAlbumInfo } from '#functions/v3/album/get-album-info.ts';
import { handler as deleteAssets } from '#functions/v3/asset/delete-assets.ts';
import { handler as getAssetInfo } from '#functions/v3/asset/get-asset-info.ts';
import { handler as getAssetStatistics } from '#functions/v3/asset/get-asset-statistics.ts';
import { handler as updateAsset } from '#functions/v3/asset/update-asset.ts';
import { handler as updateAssets } from '#functions/v3/asset/update-assets.ts';
import { handler as viewAsset } from '#functions/v3/asset/view-asset.ts';
import { handler as setupPinCode } from '#functions/v3/auth/setup-pin-code.ts';
import { handler as unlockSession } from '#functions/v3/auth/unlock-auth-session.ts';
import { handler as createPartner } from '#functions/v3/partner/create-partner.ts';
import { handler as createSharedLink } from '#functions/v3/shared-link/create-shared-link.ts';
import { handler as getMySharedLink } from '#functions/v3/shared-link/get-my-shared-link.ts';
import { handler as getTimeBucket } from '#functions/v3/timeline/get-time-bucket.ts';
import { handler as getTimeBuckets } from '#functions/v3/timeline/get-time-buckets.ts';
import { bearer, createApiKey, freshUser, login, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, createAlbum } from '../support/library.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const march = new Date('2024-03-05T10:00:00.000Z');
const ids = (items: { id: string }[]) => items.map((item) => item.id).sort();

const buckets = (token: string, query: Record<string, string> = {}) =>
  invoke(getTimeBuckets, { path: '/api/timeline/buckets', query, headers: bearer(token) });
const bucket = (token: string, query: Record<string, string> = {}) =>
  invoke(getTimeBucket, { path: '/api/timeline/bucket', query: { timeBucket: '2024-03-01', ...query }, headers: bearer(token) });
const statistics = (token: string, query: Record<string, string> = {}) =>
  invoke(getAssetStatistics, { path: '/api/assets/statistics', query, headers: bearer(token) });
const search = (token: string, body: Record<string, unknown>) =>
  invoke(searchMetadata, { method: 'POST', path: '/api/search/metadata', headers: bearer(token), body });
const info = (token: string, id: string, query: Record<string, string> = {}) =>
  invoke(getAssetInfo, { path: `/api/assets/${id}`, query, headers: token ? bearer(token) : {}, pathParameters: { id } });
const put = (token: string, id: string, body: unknown) =>
  invoke(updateAsset, { method: 'PUT', path: `/api/assets/${id}`, headers: bearer(token), pathParameters: { id }, body });
const putMany = (token: string, body: unknown) =>
  invoke(updateAssets, { method: 'PUT', path: '/api/assets', headers: bearer(token), body });
const album = (token: string, id: string) =>
  invoke(getAlbumInfo, { path: `/api/albums/${id}`, headers: bearer(token), pathParameters: { id } });
const unlock = (token: string) =>
  invoke(unlockSession, { method: 'POST', path: '/api/auth/session/unlock', headers: bearer(token), body: { pinCode: '123456' } });

/** A user with a PIN code, three photos of March 2024, an album of two shared with a second user, a partner share and a link. */
const lockerWithLibrary = async (name: string) => {
  const owner = await freshUser(accounts.admin.accessToken, name);
  const friend = await freshUser(accounts.admin.accessToken, `${name}Friend`);
  const token = owner.accessToken;
  expect(
    (await invoke(setupPinCode, { method: 'POST', path: '/api/auth/pin-code', headers: bearer(token), body: { pinCode: '123456' } }))
      .status,
  ).toBe(204);
  const [a, b, c] = [await addPhoto(token, {}, march), await addPhoto(token, {}, march), await addPhoto(token, {}, march)];
  const shared = await createAlbum(token, { albumName: 'Shared', assetIds: [a, b], sharedWithUserIds: [friend.userId] });
  await invoke(createPartner, { method: 'POST', path: '/api/partners', headers: bearer(token), body: { sharedWithId: friend.userId } });
  const link = await invoke(createSharedLink, {
    method: 'POST',
    path: '/api/shared-links',
    headers: bearer(token),
    body: { type: 'INDIVIDUAL', assetIds: [a, c] },
  });
  expect(link.status).toBe(201);
  return { owner, friend, token, a, b, c, albumId: shared.id as string, key: link.body.key as string };
};

describe('the locked folder (v3 visibility "locked")', () => {
  it('moves a photo in: it leaves its albums and vanishes from every view, partner, album member and link visitor', async () => {
    const { owner, friend, token, a, b, c, albumId, key } = await lockerWithLibrary('Hider');
    expect((await album(token, albumId)).body.albumThumbnailAssetId).toBe(a);

    // Moving in needs no unlock (as Immich's server); the asset is the owner's.
    const before = new Date(Date.now() - 1000).toISOString();
    expect((await put(token, a, { visibility: 'locked' })).status).toBe(200);
    // v1.100's apps, which know no locked folder, learn it is gone as from a deletion, and their delta sync leaves it out.
    const v1Deletes = async () =>
      (await invoke(getAuditDeletes, { path: '/api/audit/deletes', query: { entityType: 'ASSET', after: before }, headers: bearer(token) }))
        .body;
    expect(await v1Deletes()).toEqual({ needsFullSync: false, ids: [a] });
    const v1Changed = await invoke(getAllAssetsV1, { path: '/api/asset', query: { updatedAfter: before }, headers: bearer(token) });
    expect(v1Changed.body.map((asset: { id: string }) => asset.id)).not.toContain(a);

    expect((await buckets(token)).body).toEqual([{ timeBucket: '2024-03-01', count: 2 }]);
    expect(ids((await bucket(token)).body.id.map((id: string) => ({ id })))).toEqual([b, c].sort());
    expect((await statistics(token)).body).toEqual({ images: 2, videos: 0, total: 2 });
    const v1 = await invoke(getTimeBucketsV1, { path: '/api/asset/time-buckets', query: { size: 'MONTH' }, headers: bearer(token) });
    expect(v1.body).toEqual([{ timeBucket: '2024-03-01T00:00:00.000Z', count: 2 }]);
    expect(ids((await search(token, { visibility: 'timeline' })).body.assets.items)).toEqual([b, c].sort());
    expect(ids((await search(token, {})).body.items ?? (await search(token, {})).body.assets.items)).toEqual([b, c].sort());

    // Out of its album (Immich's removeAssetsFromAll), whose thumbnail moves on.
    const after = (await album(token, albumId)).body;
    expect(after.assetCount).toBe(1);
    expect(after.albumThumbnailAssetId).toBe(b);
    expect((await album(friend.accessToken, albumId)).body.assetCount).toBe(1);

    // Nobody else reaches it: the album's member and partner, a link's visitor.
    expect((await info(friend.accessToken, a)).status).toBe(400);
    expect((await info(friend.accessToken, c)).status).toBe(200);
    const visit = await invoke(getMySharedLink, { path: '/api/shared-links/me', query: { key } });
    expect(ids(visit.body.assets)).toEqual([c]);
    expect((await info('', a, { key })).status).toBe(400);

    // Nor the owner, until the session is unlocked with the PIN code.
    expect((await info(token, a)).body).toMatchObject({ message: expect.stringMatching(/^Not found or no asset\.read access/) });
    const thumbnail = await invoke(viewAsset, { path: `/api/assets/${a}/thumbnail`, headers: bearer(token), pathParameters: { id: a } });
    expect(thumbnail.status).toBe(400);
    for (const reply of [
      await buckets(token, { visibility: 'locked' }),
      await bucket(token, { visibility: 'locked' }),
      await statistics(token, { visibility: 'locked' }),
      await search(token, { visibility: 'locked' }),
    ]) {
      expect(reply.status).toBe(401);
      expect(reply.body).toMatchObject({ message: 'Elevated permission is required' });
    }

    expect((await unlock(token)).status).toBe(204);
    expect((await buckets(token, { visibility: 'locked' })).body).toEqual([{ timeBucket: '2024-03-01', count: 1 }]);
    expect((await bucket(token, { visibility: 'locked' })).body).toMatchObject({ id: [a], visibility: ['locked'] });
    expect((await statistics(token, { visibility: 'locked' })).body).toEqual({ images: 1, videos: 0, total: 1 });
    expect(ids((await search(token, { visibility: 'locked' })).body.assets.items)).toEqual([a]);
    expect((await info(token, a)).body).toMatchObject({ id: a, visibility: 'locked' });
    // Unlocked, the timeline still leaves it out: only the locked folder shows it.
    expect((await buckets(token)).body).toEqual([{ timeBucket: '2024-03-01', count: 2 }]);

    // A locked asset is never shared, not even by its unlocked owner.
    const added = await invoke(addAssetsToAlbum, {
      method: 'PUT',
      path: `/api/albums/${albumId}/assets`,
      headers: bearer(token),
      pathParameters: { id: albumId },
      body: { ids: [a] },
    });
    expect(added.body).toEqual([{ id: a, success: false, error: 'no_permission' }]);

    // Another session of the owner is not unlocked; an API key never is.
    const other = await login({ email: 'hider@immich.cloud', password: 'password-Hider' });
    expect((await info(other.accessToken, a)).status).toBe(400);
    const apiKey = await createApiKey(token);
    const byKey = await invoke(getAssetInfo, {
      path: `/api/assets/${a}`,
      headers: { 'x-api-key': apiKey.secret },
      pathParameters: { id: a },
    });
    expect(byKey.status).toBe(400);
    // Nobody reads another's locked timeline, partner or not.
    const theirs = () => buckets(friend.accessToken, { visibility: 'locked', userId: owner.userId });
    expect((await theirs()).status).toBe(401);
    const pin = { method: 'POST', path: '/api/auth/pin-code', headers: bearer(friend.accessToken), body: { pinCode: '123456' } };
    expect((await invoke(setupPinCode, pin)).status).toBe(204);
    expect((await unlock(friend.accessToken)).status).toBe(204);
    expect((await theirs()).body).toEqual({ message: "You may not access another user's locked timeline" });

    // Moved out again (unlocked): back in the timeline, not back in the album (as Immich).
    expect((await putMany(token, { ids: [a], visibility: 'timeline' })).status).toBe(204);
    // And to v1.100's apps it is no longer gone: their delta sync lists it again.
    expect((await v1Deletes()).ids).toEqual([]);
    const relisted = await invoke(getAllAssetsV1, { path: '/api/asset', query: { updatedAfter: before }, headers: bearer(token) });
    expect(relisted.body.map((asset: { id: string }) => asset.id)).toContain(a);
    expect((await buckets(token)).body).toEqual([{ timeBucket: '2024-03-01', count: 3 }]);
    expect((await buckets(token, { visibility: 'locked' })).body).toEqual([]);
    expect((await album(token, albumId)).body.assetCount).toBe(1);
    expect((await info(friend.accessToken, a)).status).toBe(200);
  });

  it('keeps a locked asset out of the trash page but not out of the trash: trashed, restored, emptied while unlocked', async () => {
    const { token, a, b } = await lockerWithLibrary('Binner');
    await putMany(token, { ids: [a], visibility: 'locked' });
    // Trashing it needs the unlock (the owner's access to it does).
    const trash = (body: unknown) => invoke(deleteAssets, { method: 'DELETE', path: '/api/assets', headers: bearer(token), body });
    expect((await trash({ ids: [a] })).status).toBe(400);
    await unlock(token);
    expect((await trash({ ids: [a, b] })).status).toBe(204);
    expect((await buckets(token, { isTrashed: 'true' })).body).toEqual([{ timeBucket: '2024-03-01', count: 1 }]);
    expect((await buckets(token, { isTrashed: 'true', visibility: 'locked' })).body).toEqual([{ timeBucket: '2024-03-01', count: 1 }]);
    expect((await statistics(token, { visibility: 'locked' })).body.total).toBe(0);
    // Restoring everything brings it back to the locked folder, not the timeline.
    const restored = await invoke(restoreTrash, {
      method: 'POST',
      path: '/api/trash/restore',
      headers: { ...bearer(token), accept: 'application/json' },
    });
    expect(restored.body).toEqual({ count: 2 });
    expect((await statistics(token, { visibility: 'locked' })).body.total).toBe(1);
    expect((await buckets(token)).body).toEqual([{ timeBucket: '2024-03-01', count: 2 }]);
    // Emptying the trash deletes a trashed locked asset for good too.
    expect((await trash({ ids: [a] })).status).toBe(204);
    const emptied = await invoke(emptyTrash, {
      method: 'POST',
      path: '/api/trash/empty',
      headers: { ...bearer(token), accept: 'application/json' },
    });
    expect(emptied.body).toEqual({ count: 1 });
    expect((await info(token, a)).status).toBe(400);
    expect((await buckets(token, { isTrashed: 'true', visibility: 'locked' })).body).toEqual([]);
  });

  it('refuses to move the locked folder’s assets for anyone but their owner, and a visibility it does not know', async () => {
    const { friend, token, c } = await lockerWithLibrary('Guard');
    expect((await put(friend.accessToken, c, { visibility: 'locked' })).status).toBe(400);
    expect((await put(token, c, { visibility: 'secret' })).body).toMatchObject({ message: 'Validation failed' });
    expect((await info(token, c)).body.visibility).toBe('timeline');
  });
});
