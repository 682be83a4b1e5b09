import { beforeAll, describe, expect, it } from 'vitest';
import { handler as addUsersHandler } from '#functions/album/add-users-to-album.ts';
import { handler as createAlbumHandler } from '#functions/album/create-album.ts';
import { handler as deleteAlbumHandler } from '#functions/album/delete-album.ts';
import { handler as getAlbumCountHandler } from '#functions/album/get-album-count.ts';
import { handler as getAllAlbumsHandler } from '#functions/album/get-all-albums.ts';
import { handler as removeUserHandler } from '#functions/album/remove-user-from-album.ts';
import { handler as updateAlbumHandler } from '#functions/album/update-album-info.ts';
import { handler as getAssetInfoHandler } from '#functions/asset/get-asset-info.ts';
import { handler as getAssetThumbnailHandler } from '#functions/asset/get-asset-thumbnail.ts';
import { handler as getTimeBucketsHandler } from '#functions/asset/get-time-buckets.ts';
import { handler as serveFileHandler } from '#functions/asset/serve-file.ts';
import { handler as downloadFileHandler } from '#functions/download/download-file.ts';
import { handler as downloadInfoHandler } from '#functions/download/get-download-info.ts';
import { handler as createLinkHandler } from '#functions/shared-link/create-shared-link.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, addToAlbum, albumInfo, assetInfo, createAlbum, removeFromAlbum, trash } from '../support/library.ts';
import { objectCreated } from '../support/media.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const albums = (token: string, query: Record<string, string> = {}) =>
  invoke(getAllAlbumsHandler, { path: '/api/album', query, headers: bearer(token) });
const addUsers = (token: string, id: string, sharedUserIds: unknown) =>
  invoke(addUsersHandler, {
    method: 'PUT',
    path: `/api/album/${id}/users`,
    headers: bearer(token),
    pathParameters: { id },
    body: { sharedUserIds },
  });
const removeUser = (token: string, id: string, userId: string) =>
  invoke(removeUserHandler, {
    method: 'DELETE',
    path: `/api/album/${id}/user/${userId}`,
    headers: bearer(token),
    pathParameters: { id, userId },
  });
const createLink = (token: string, body: unknown) =>
  invoke(createLinkHandler, { method: 'POST', path: '/api/shared-link', headers: bearer(token), body });
const count = async (token: string) => (await invoke(getAlbumCountHandler, { path: '/api/album/count', headers: bearer(token) })).body;

describe('albums shared with users', () => {
  it('create with sharedWithUserIds: the users see it, its assets, thumbnails and buckets; others do not', async () => {
    const owner = await freshUser(accounts.admin.accessToken, `Sharer${Date.now()}`);
    const friend = await freshUser(accounts.admin.accessToken, `Friend${Date.now()}`);
    const stranger = await freshUser(accounts.admin.accessToken, `Stranger${Date.now()}`);
    const photo = await addPhoto(owner.accessToken, { mwgFaces: [{ name: 'Private Person', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] });
    const outside = await addPhoto(owner.accessToken, {});
    await objectCreated((await assetInfo(owner.accessToken, photo)).body.originalPath);

    for (const [ids, message] of [
      [[owner.userId], 'Cannot be shared with owner'],
      [['00000000-0000-4000-a000-000000000000'], 'User not found'],
    ] as const) {
      const refused = await invoke(createAlbumHandler, {
        method: 'POST',
        path: '/api/album',
        headers: bearer(owner.accessToken),
        body: { albumName: 'x', sharedWithUserIds: ids },
      });
      expect(refused.body).toMatchObject({ statusCode: 400, message });
    }
    const album = await createAlbum(owner.accessToken, { albumName: 'Together', assetIds: [photo], sharedWithUserIds: [friend.userId] });
    expect(album).toMatchObject({ shared: true, hasSharedLink: false, sharedUsers: [{ id: friend.userId }], assetCount: 1 });

    // The friend: the album (listed as shared), its assets, their thumbnails, its buckets.
    expect((await albums(friend.accessToken, { shared: 'true' })).body.map((a: { id: string }) => a.id)).toEqual([album.id]);
    expect((await albums(friend.accessToken)).body).toEqual([]);
    const seen = await albumInfo(friend.accessToken, album.id);
    expect(seen.body).toMatchObject({
      id: album.id,
      ownerId: owner.userId,
      owner: { id: owner.userId },
      assets: [{ id: photo, isFavorite: false }],
    });
    const asset = await assetInfo(friend.accessToken, photo);
    expect(asset.body).toMatchObject({ id: photo, people: [] });
    expect(
      (
        await invoke(getAssetThumbnailHandler, {
          path: `/api/asset/thumbnail/${photo}`,
          headers: bearer(friend.accessToken),
          pathParameters: { id: photo },
        })
      ).status,
    ).toBe(200);
    expect((await assetInfo(friend.accessToken, outside)).status).toBe(400);
    const buckets = await invoke(getTimeBucketsHandler, {
      path: '/api/asset/time-buckets',
      query: { size: 'MONTH', albumId: album.id },
      headers: bearer(friend.accessToken),
    });
    expect(buckets.body).toHaveLength(1);
    expect(await count(friend.accessToken)).toEqual({ owned: 0, shared: 1, notShared: 0 });
    expect(await count(owner.accessToken)).toEqual({ owned: 1, shared: 1, notShared: 0 });

    // The friend may add and remove their own assets, not the owner's, and may not change the album.
    const theirs = await addPhoto(friend.accessToken, {});
    expect((await addToAlbum(friend.accessToken, album.id, [theirs, outside])).body).toEqual([
      { id: theirs, success: true },
      { id: outside, success: false, error: 'no_permission' },
    ]);
    expect((await removeFromAlbum(friend.accessToken, album.id, [photo])).body).toEqual([
      { id: photo, success: false, error: 'no_permission' },
    ]);
    expect((await removeFromAlbum(friend.accessToken, album.id, [theirs])).body).toEqual([{ id: theirs, success: true }]);
    const patch = await invoke(updateAlbumHandler, {
      method: 'PATCH',
      path: `/api/album/${album.id}`,
      headers: bearer(friend.accessToken),
      pathParameters: { id: album.id },
      body: { albumName: 'mine now' },
    });
    expect(patch.body).toMatchObject({ statusCode: 400, message: 'Not found or no album.update access' });
    expect((await addUsers(friend.accessToken, album.id, [stranger.userId])).body).toMatchObject({
      message: 'Not found or no album.share access',
    });

    // A stranger sees none of it.
    expect((await albumInfo(stranger.accessToken, album.id)).body).toMatchObject({
      statusCode: 400,
      message: 'Not found or no album.read access',
    });
    expect((await assetInfo(stranger.accessToken, photo)).status).toBe(400);
    expect((await albums(stranger.accessToken, { shared: 'true' })).body).toEqual([]);
  });

  it('PUT /album/:id/users and DELETE /album/:id/user/:userId (also `me`), with Immich messages', async () => {
    const owner = await freshUser(accounts.admin.accessToken, `Host${Date.now()}`);
    const one = await freshUser(accounts.admin.accessToken, `Guest${Date.now()}`);
    const two = await freshUser(accounts.admin.accessToken, `Visitor${Date.now()}`);
    const album = await createAlbum(owner.accessToken, { albumName: 'Party' });
    const added = await addUsers(owner.accessToken, album.id, [one.userId, two.userId]);
    expect(added.status).toBe(200);
    expect(added.body.sharedUsers.map((user: { id: string }) => user.id)).toEqual([one.userId, two.userId]);
    expect((await addUsers(owner.accessToken, album.id, [one.userId])).body).toMatchObject({
      statusCode: 400,
      message: 'User already added',
    });
    expect((await addUsers(owner.accessToken, album.id, [owner.userId])).body.message).toBe('Cannot be shared with owner');
    expect((await addUsers(owner.accessToken, album.id, ['x'])).body.message).toEqual(['each value in sharedUserIds must be a UUID']);

    expect((await removeUser(one.accessToken, album.id, two.userId)).body).toMatchObject({
      statusCode: 400,
      message: 'Not found or no album.share access',
    });
    expect((await removeUser(one.accessToken, album.id, 'me')).status).toBe(200);
    expect((await albumInfo(one.accessToken, album.id)).status).toBe(400);
    expect((await removeUser(owner.accessToken, album.id, one.userId)).body.message).toBe('Album not shared with user');
    expect((await removeUser(owner.accessToken, album.id, owner.userId)).body.message).toBe('Cannot remove album owner');
    expect((await removeUser(owner.accessToken, album.id, 'someone')).body.message).toEqual(['Validation failed (uuid v 4 is expected)']);
    expect((await albumInfo(two.accessToken, album.id)).status).toBe(200);

    // Deleting the album ends every share.
    expect(
      (
        await invoke(deleteAlbumHandler, {
          method: 'DELETE',
          path: `/api/album/${album.id}`,
          headers: bearer(owner.accessToken),
          pathParameters: { id: album.id },
        })
      ).status,
    ).toBe(200);
    expect((await albums(two.accessToken, { shared: 'true' })).body).toEqual([]);
    expect(await count(two.accessToken)).toEqual({ owned: 0, shared: 0, notShared: 0 });
  });
});

describe('what an album shows, by id', () => {
  it('its owner views and downloads what a member added; a trashed asset is gone for everyone but its owner', async () => {
    const owner = (await freshUser(accounts.admin.accessToken, `AlbumOwner${Date.now()}`)).accessToken;
    const member = await freshUser(accounts.admin.accessToken, `AlbumMember${Date.now()}`);
    const album = await createAlbum(owner, { albumName: 'Together', sharedWithUserIds: [member.userId] });
    const added = await addPhoto(member.accessToken, { comment: 'added by the member' });
    expect((await addToAlbum(member.accessToken, album.id, [added])).status).toBe(200);
    const download = (token: string, id: string) =>
      invoke(downloadFileHandler, { method: 'POST', path: `/api/download/asset/${id}`, headers: bearer(token), pathParameters: { id } });
    const file = (token: string, id: string) =>
      invoke(serveFileHandler, { path: `/api/asset/file/${id}`, headers: bearer(token), pathParameters: { id } });
    expect((await assetInfo(owner, added)).status).toBe(200);
    expect((await file(owner, added)).status).toBe(200);
    expect((await download(owner, added)).status).toBe(200);

    const mine = await addPhoto(owner, { comment: 'the owner’s, then trashed' });
    expect((await addToAlbum(owner, album.id, [mine])).status).toBe(200);
    expect((await assetInfo(member.accessToken, mine)).status).toBe(200);
    const link = (await createLink(owner, { type: 'INDIVIDUAL', assetIds: [mine], allowDownload: true })).body;
    const visitor = { 'x-immich-share-key': link.key };
    expect((await invoke(getAssetInfoHandler, { path: `/api/asset/${mine}`, headers: visitor, pathParameters: { id: mine } })).status).toBe(
      200,
    );
    expect((await trash(owner, [mine])).status).toBe(204);
    const refused = { statusCode: 400, message: expect.stringMatching(/^Not found or no asset\.(read|view|download) access$/) };
    for (const reply of [
      await assetInfo(member.accessToken, mine),
      await file(member.accessToken, mine),
      await download(member.accessToken, mine),
      await invoke(getAssetInfoHandler, { path: `/api/asset/${mine}`, headers: visitor, pathParameters: { id: mine } }),
      await invoke(serveFileHandler, { path: `/api/asset/file/${mine}`, headers: visitor, pathParameters: { id: mine } }),
      await invoke(downloadFileHandler, {
        method: 'POST',
        path: `/api/download/asset/${mine}`,
        headers: visitor,
        pathParameters: { id: mine },
      }),
      await invoke(downloadInfoHandler, { method: 'POST', path: '/api/download/info', headers: visitor, body: { assetIds: [mine] } }),
    ])
      expect(reply.body).toMatchObject(refused);
    // Its owner still sees it (the trash page).
    expect((await assetInfo(owner, mine)).status).toBe(200);
  });
});

describe('DELETE /album/:id/assets: Immich’s e2e cases', () => {
  it('removes the assets one may share, from one’s own album or a shared one; someone else’s asset is no_permission, the owner’s own album too', async () => {
    const user1 = await freshUser(accounts.admin.accessToken, `RemoverOne${Date.now()}`);
    const user2 = await freshUser(accounts.admin.accessToken, `RemoverTwo${Date.now()}`);
    const asset1 = await addPhoto(user1.accessToken, { comment: 'remover' });
    const user1Album = await createAlbum(user1.accessToken, { albumName: 'one', sharedWithUserIds: [user2.userId], assetIds: [asset1] });
    const user2Album = await createAlbum(user2.accessToken, { albumName: 'two', sharedWithUserIds: [user1.userId] });
    expect((await addToAlbum(user1.accessToken, user2Album.id, [asset1])).body).toEqual([{ id: asset1, success: true }]);
    const noPermission = [{ id: asset1, success: false, error: 'no_permission' }];
    // A foreign asset in one's own album, and in someone else's.
    expect((await removeFromAlbum(user2.accessToken, user2Album.id, [asset1])).body).toEqual(noPermission);
    expect((await removeFromAlbum(user2.accessToken, user1Album.id, [asset1])).body).toEqual(noPermission);
    // One's own asset, from one's own album and from a shared one.
    expect((await removeFromAlbum(user1.accessToken, user1Album.id, [asset1])).body).toEqual([{ id: asset1, success: true }]);
    expect((await removeFromAlbum(user1.accessToken, user2Album.id, [asset1])).body).toEqual([{ id: asset1, success: true }]);
  });
});
