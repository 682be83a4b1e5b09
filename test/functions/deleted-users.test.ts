import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAlbumCountHandler } from '#functions/album/get-album-count.ts';
import { handler as getAllAlbumsHandler } from '#functions/album/get-all-albums.ts';
import { handler as getAllAssetsHandler } from '#functions/asset/get-all-assets.ts';
import { handler as getTimeBucketsHandler } from '#functions/asset/get-time-buckets.ts';
import { handler as createPartnerHandler } from '#functions/partner/create-partner.ts';
import { handler as getPartnersHandler } from '#functions/partner/get-partners.ts';
import { handler as updatePartnerHandler } from '#functions/partner/update-partner.ts';
import { handler as createLinkHandler } from '#functions/shared-link/create-shared-link.ts';
import { handler as deleteUserHandler } from '#functions/user/delete-user.ts';
import { handler as restoreUserHandler } from '#functions/user/restore-user.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, addToAlbum, albumInfo, assetInfo, createAlbum, updateAsset } from '../support/library.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const deleteUser = (id: string) =>
  invoke(deleteUserHandler, {
    method: 'DELETE',
    path: `/api/user/${id}`,
    pathParameters: { id },
    headers: bearer(accounts.admin.accessToken),
  });
const restoreUser = (id: string) =>
  invoke(restoreUserHandler, {
    method: 'POST',
    path: `/api/user/${id}/restore`,
    pathParameters: { id },
    headers: bearer(accounts.admin.accessToken),
  });
const albums = (token: string, query: Record<string, string> = {}) =>
  invoke(getAllAlbumsHandler, { path: '/api/album', query, headers: bearer(token) });
const albumCount = async (token: string) => (await invoke(getAlbumCountHandler, { path: '/api/album/count', headers: bearer(token) })).body;
const ids = (reply: { body: { id: string }[] }) => reply.body.map((each) => each.id).sort();

describe('a deleted user’s library', () => {
  it('is hidden from their partners and album members until a restore', async () => {
    const sharer = await freshUser(accounts.admin.accessToken, `Leaving${Date.now()}`);
    const partner = await freshUser(accounts.admin.accessToken, `Staying${Date.now()}`);
    const photo = await addPhoto(sharer.accessToken, { dateTimeOriginal: '2021:04:04 10:00:00', offsetTimeOriginal: '+00:00' });
    const theirAlbum = await createAlbum(sharer.accessToken, {
      albumName: 'theirs',
      assetIds: [photo],
      sharedWithUserIds: [partner.userId],
    });
    const create = await invoke(createPartnerHandler, {
      method: 'POST',
      path: `/api/partner/${partner.userId}`,
      headers: bearer(sharer.accessToken),
      pathParameters: { id: partner.userId },
    });
    expect(create.status).toBe(201);
    await invoke(updatePartnerHandler, {
      method: 'PUT',
      path: `/api/partner/${sharer.userId}`,
      headers: bearer(partner.accessToken),
      pathParameters: { id: sharer.userId },
      body: { inTimeline: true },
    });
    const timeline = () =>
      invoke(getTimeBucketsHandler, {
        path: '/api/asset/time-buckets',
        query: { size: 'MONTH', withPartners: 'true', isArchived: 'false' },
        headers: bearer(partner.accessToken),
      });
    const sees = async () => ({
      partners: ids(
        await invoke(getPartnersHandler, {
          path: '/api/partner',
          query: { direction: 'shared-with' },
          headers: bearer(partner.accessToken),
        }),
      ),
      photo: (await assetInfo(partner.accessToken, photo)).status,
      timeline: (await timeline()).body,
      sync: (
        await invoke(getAllAssetsHandler, { path: '/api/asset', query: { userId: sharer.userId }, headers: bearer(partner.accessToken) })
      ).status,
      sharedAlbums: ids(await albums(partner.accessToken, { shared: 'true' })),
      album: (await albumInfo(partner.accessToken, theirAlbum.id)).status,
      count: await albumCount(partner.accessToken),
    });
    const before = await sees();
    expect(before).toEqual({
      partners: [sharer.userId],
      photo: 200,
      timeline: [{ timeBucket: '2021-04-01T00:00:00.000Z', count: 1 }],
      sync: 200,
      sharedAlbums: [theirAlbum.id],
      album: 200,
      count: { owned: 0, shared: 1, notShared: 0 },
    });

    expect((await deleteUser(sharer.userId)).status).toBe(200);
    expect(await sees()).toEqual({
      partners: [],
      photo: 400,
      timeline: [],
      sync: 400,
      sharedAlbums: [],
      album: 400,
      count: { owned: 0, shared: 0, notShared: 0 },
    });
    // Nor can the partner change what they no longer see.
    expect((await updateAsset(partner.accessToken, photo, { isFavorite: true })).status).toBe(400);

    expect((await restoreUser(sharer.userId)).status).toBe(201);
    expect(await sees()).toEqual(before);
  });
});

describe('Immich’s album e2e cases around a deleted owner', () => {
  it('GET /album and /album/count leave out albums whose owner was deleted; assetId ignores shared; POST /album answers with its assets', async () => {
    const stamp = Date.now();
    const user1 = await freshUser(accounts.admin.accessToken, `AlbumOne${stamp}`);
    const user2 = await freshUser(accounts.admin.accessToken, `AlbumTwo${stamp}`);
    const user3 = await freshUser(accounts.admin.accessToken, `AlbumThree${stamp}`);
    const [asset1, asset2] = [await addPhoto(user1.accessToken, { comment: 'one' }), await addPhoto(user1.accessToken, { comment: 'two' })];
    await updateAsset(user1.accessToken, asset1, { isFavorite: true });
    const user1SharedUser = await createAlbum(user1.accessToken, {
      albumName: 'user1SharedUser',
      sharedWithUserIds: [user2.userId],
      assetIds: [asset1],
    });
    const user1SharedLink = await createAlbum(user1.accessToken, { albumName: 'user1SharedLink', assetIds: [asset1] });
    await createAlbum(user1.accessToken, { albumName: 'user1NotShared', assetIds: [asset1, asset2] });
    // Immich v1.100 let user2 put user1's asset in at creation; here a user adds only their own
    // (docs/immich-compatibility.md), so user1 adds it, as a member may.
    const user2SharedUser = await createAlbum(user2.accessToken, { albumName: 'user2SharedUser', sharedWithUserIds: [user1.userId] });
    expect((await addToAlbum(user1.accessToken, user2SharedUser.id, [asset1])).body).toEqual([{ id: asset1, success: true }]);
    await createAlbum(user3.accessToken, { albumName: 'Deleted', sharedWithUserIds: [user1.userId] });
    const link = await invoke(createLinkHandler, {
      method: 'POST',
      path: '/api/shared-link',
      headers: bearer(user1.accessToken),
      body: { type: 'ALBUM', albumId: user1SharedLink.id },
    });
    expect(link.status).toBe(201);
    expect((await deleteUser(user3.userId)).status).toBe(200);

    // POST /album answered the album with its assets: GET /album/:id of it equals that answer.
    expect(user1SharedUser.assets).toEqual([expect.objectContaining({ id: asset1 })]);
    expect((await albumInfo(user2.accessToken, user1SharedUser.id)).body).toEqual({
      ...user1SharedUser,
      assets: [expect.objectContaining({ isFavorite: false })],
    });

    const names = async (query: Record<string, string>) =>
      ((await albums(user1.accessToken, query)).body as { albumName: string }[]).map((album) => album.albumName).sort();
    expect(await names({ shared: 'true' })).toEqual(['user1SharedLink', 'user1SharedUser', 'user2SharedUser']);
    expect(await names({})).toEqual(['user1NotShared', 'user1SharedLink', 'user1SharedUser']);
    expect(await names({ shared: 'false' })).toEqual(['user1NotShared']);
    expect(await names({ assetId: asset2 })).toEqual(['user1NotShared']);
    expect(await names({ shared: 'true', assetId: asset1 })).toHaveLength(4);
    expect(await names({ shared: 'false', assetId: asset1 })).toHaveLength(4);
    expect(await albumCount(user1.accessToken)).toEqual({ owned: 3, shared: 3, notShared: 1 });
  });
});
