import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAllAlbumsV1 } from '#functions/album/get-all-albums.ts';
import { handler as addAssetsToAlbum } from '#functions/v3/album/add-assets-to-album.ts';
import { handler as addAssetsToAlbums } from '#functions/v3/album/add-assets-to-albums.ts';
import { handler as addUsersToAlbum } from '#functions/v3/album/add-users-to-album.ts';
import { handler as createAlbumV3 } from '#functions/v3/album/create-album.ts';
import { handler as deleteAlbum } from '#functions/v3/album/delete-album.ts';
import { handler as getAlbumInfo } from '#functions/v3/album/get-album-info.ts';
import { handler as getAlbumStatistics } from '#functions/v3/album/get-album-statistics.ts';
import { handler as getAllAlbums } from '#functions/v3/album/get-all-albums.ts';
import { handler as removeAssetFromAlbum } from '#functions/v3/album/remove-asset-from-album.ts';
import { handler as removeUserFromAlbum } from '#functions/v3/album/remove-user-from-album.ts';
import { handler as updateAlbumInfo } from '#functions/v3/album/update-album-info.ts';
import { handler as updateAlbumUser } from '#functions/v3/album/update-album-user.ts';
import { handler as updateMyPreferences } from '#functions/v3/user/update-my-preferences.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, addToAlbum, albumInfo, createAlbum as createAlbumV1 } from '../support/library.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

type Account = { accessToken: string; userId: string };

const create = (token: string, body: unknown) =>
  invoke(createAlbumV3, { method: 'POST', path: '/api/albums', headers: bearer(token), body });
const list = (token: string, query: Record<string, string> = {}) =>
  invoke(getAllAlbums, { path: '/api/albums', query, headers: bearer(token) });
const info = (token: string, id: string) =>
  invoke(getAlbumInfo, { path: `/api/albums/${id}`, headers: bearer(token), pathParameters: { id } });
const addAssets = (token: string, id: string, ids: string[]) =>
  invoke(addAssetsToAlbum, {
    method: 'PUT',
    path: `/api/albums/${id}/assets`,
    headers: bearer(token),
    pathParameters: { id },
    body: { ids },
  });
const setRole = (token: string, id: string, userId: string, role: string) =>
  invoke(updateAlbumUser, {
    method: 'PUT',
    path: `/api/albums/${id}/user/${userId}`,
    headers: bearer(token),
    pathParameters: { id, userId },
    body: { role },
  });

describe('albums (v3)', () => {
  let owner: Account;
  let editor: Account;
  let viewer: Account;
  beforeAll(async () => {
    owner = await freshUser(accounts.admin.accessToken, 'Olga');
    editor = await freshUser(accounts.admin.accessToken, 'Edith');
    viewer = await freshUser(accounts.admin.accessToken, 'Victor');
  });

  it("creates an album shared in roles, answered with v3's albumUsers (owner first), read by v1.100 too", async () => {
    const photo = await addPhoto(owner.accessToken);
    const reply = await create(owner.accessToken, {
      albumName: 'Summer',
      description: 'sea',
      assetIds: [photo],
      albumUsers: [
        { userId: viewer.userId, role: 'viewer' },
        { userId: editor.userId, role: 'editor' },
      ],
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      albumName: 'Summer',
      description: 'sea',
      assetCount: 1,
      shared: true,
      hasSharedLink: false,
      albumThumbnailAssetId: photo,
      order: 'desc',
      isActivityEnabled: true,
      startDate: '2024-01-02T03:04:05.000Z',
      endDate: '2024-01-02T03:04:05.000Z',
    });
    expect(reply.body.albumUsers.map((entry: { user: { name: string }; role: string }) => [entry.user.name, entry.role])).toEqual([
      ['Olga', 'owner'],
      ['Edith', 'editor'],
      ['Victor', 'viewer'],
    ]);
    expect(reply.body).not.toHaveProperty('ownerId');
    // The caller second, after the owner.
    const seen = (await info(viewer.accessToken, reply.body.id)).body;
    expect(seen.albumUsers.map((entry: { user: { name: string } }) => entry.user.name)).toEqual(['Olga', 'Victor', 'Edith']);
    // v1.100's view: the same album, its shared users.
    const v1 = await albumInfo(owner.accessToken, reply.body.id);
    expect(v1.body).toMatchObject({ albumName: 'Summer', ownerId: owner.userId, assetCount: 1 });
    expect(v1.body.sharedUsers.map((user: { name: string }) => user.name).sort()).toEqual(['Edith', 'Victor']);
  });

  it('lets an editor add assets and a viewer only look; the owner changes roles', async () => {
    const album = (await create(owner.accessToken, { albumName: 'Roles', albumUsers: [{ userId: editor.userId, role: 'editor' }] })).body;
    await invoke(addUsersToAlbum, {
      method: 'PUT',
      path: `/api/albums/${album.id}/users`,
      headers: bearer(owner.accessToken),
      pathParameters: { id: album.id },
      body: { albumUsers: [{ userId: viewer.userId, role: 'viewer' }] },
    });
    const byEditor = await addAssets(editor.accessToken, album.id, [await addPhoto(editor.accessToken)]);
    expect(byEditor).toMatchObject({ status: 200, body: [{ success: true }] });
    const byViewer = await addAssets(viewer.accessToken, album.id, [await addPhoto(viewer.accessToken)]);
    expect(byViewer).toEqual(expect.objectContaining({ status: 400, body: { message: 'Not found or no albumAsset.create access' } }));
    // The same rule through v1.100's route.
    expect((await addToAlbum(viewer.accessToken, album.id, [await addPhoto(viewer.accessToken)])).status).toBe(400);
    expect((await info(viewer.accessToken, album.id)).status).toBe(200);

    expect((await setRole(owner.accessToken, album.id, viewer.userId, 'editor')).status).toBe(204);
    expect((await addAssets(viewer.accessToken, album.id, [await addPhoto(viewer.accessToken)])).body).toMatchObject([{ success: true }]);
    expect((await setRole(owner.accessToken, album.id, editor.userId, 'viewer')).status).toBe(204);
    const removed = await invoke(removeAssetFromAlbum, {
      method: 'DELETE',
      path: `/api/albums/${album.id}/assets`,
      headers: bearer(editor.accessToken),
      pathParameters: { id: album.id },
      body: { ids: [byEditor.body[0].id] },
    });
    expect(removed.body).toEqual({ message: 'Not found or no albumAsset.delete access' });
    const roles = (await info(owner.accessToken, album.id)).body.albumUsers.map((entry: { user: { name: string }; role: string }) => [
      entry.user.name,
      entry.role,
    ]);
    expect(roles).toEqual([
      ['Olga', 'owner'],
      ['Edith', 'viewer'],
      ['Victor', 'editor'],
    ]);
    // Only the owner changes roles, and never their own.
    expect((await setRole(editor.accessToken, album.id, viewer.userId, 'viewer')).status).toBe(400);
    expect((await setRole(owner.accessToken, album.id, owner.userId, 'viewer')).body).toEqual({ message: 'User is owner' });
    // A user leaves: `me`.
    const left = await invoke(removeUserFromAlbum, {
      method: 'DELETE',
      path: `/api/albums/${album.id}/user/me`,
      headers: bearer(viewer.accessToken),
      pathParameters: { id: album.id, userId: 'me' },
    });
    expect(left.status).toBe(204);
    expect((await info(viewer.accessToken, album.id)).status).toBe(400);
  });

  it("lists the albums a user is in by v3's filters, v1.100's own list unchanged; counts them", async () => {
    const me = await freshUser(accounts.admin.accessToken, 'Lister');
    const mine = (await create(me.accessToken, { albumName: 'Mine' })).body;
    const sharedByMe = (await create(me.accessToken, { albumName: 'Shared by me', albumUsers: [{ userId: owner.userId, role: 'viewer' }] }))
      .body;
    const sharedWithMe = (
      await create(owner.accessToken, { albumName: 'Shared with me', albumUsers: [{ userId: me.userId, role: 'editor' }] })
    ).body;
    const names = async (query: Record<string, string> = {}) =>
      ((await list(me.accessToken, query)).body as { albumName: string }[]).map((album) => album.albumName).sort();
    expect(await names()).toEqual(['Mine', 'Shared by me', 'Shared with me']);
    expect(await names({ isOwned: 'true' })).toEqual(['Mine', 'Shared by me']);
    expect(await names({ isOwned: 'false' })).toEqual(['Shared with me']);
    expect(await names({ isShared: 'true' })).toEqual(['Shared by me', 'Shared with me']);
    expect(await names({ isShared: 'false' })).toEqual(['Mine']);
    expect(await names({ name: 'Mine' })).toEqual(['Mine']);
    expect(await names({ id: sharedWithMe.id })).toEqual(['Shared with me']);
    // 3.1's apps still send `shared`.
    expect(await names({ shared: 'false' })).toEqual(['Mine']);
    const v1 = await invoke(getAllAlbumsV1, { path: '/api/album', headers: bearer(me.accessToken) });
    expect(v1.body.map((album: { id: string }) => album.id).sort()).toEqual([mine.id, sharedByMe.id].sort());
    const stats = await invoke(getAlbumStatistics, { path: '/api/albums/statistics', headers: bearer(me.accessToken) });
    expect(stats.body).toEqual({ owned: 2, shared: 2, notShared: 1 });
  });

  it("orders a new album as the owner's preference says, and edits and deletes it", async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Orderly');
    await invoke(updateMyPreferences, {
      method: 'PUT',
      path: '/api/users/me/preferences',
      headers: bearer(user.accessToken),
      body: { albums: { defaultAssetOrder: 'asc' } },
    });
    const album = (await create(user.accessToken, { albumName: 'Oldest first' })).body;
    expect(album.order).toBe('asc');
    expect((await createAlbumV1(user.accessToken, { albumName: 'Through v1.100' })).order).toBe('asc');
    const edited = await invoke(updateAlbumInfo, {
      method: 'PATCH',
      path: `/api/albums/${album.id}`,
      headers: bearer(user.accessToken),
      pathParameters: { id: album.id },
      body: { albumName: 'Renamed', order: 'desc', isActivityEnabled: false },
    });
    expect(edited.body).toMatchObject({ albumName: 'Renamed', order: 'desc', isActivityEnabled: false });
    const deleted = await invoke(deleteAlbum, {
      method: 'DELETE',
      path: `/api/albums/${album.id}`,
      headers: bearer(user.accessToken),
      pathParameters: { id: album.id },
    });
    expect(deleted.status).toBe(204);
    expect((await info(user.accessToken, album.id)).body).toEqual({ message: 'Not found or no album.read access' });
  });

  it('adds assets to many albums at once (PUT /albums/assets)', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Many');
    const [a, b] = [(await create(user.accessToken, { albumName: 'A' })).body, (await create(user.accessToken, { albumName: 'B' })).body];
    const photo = await addPhoto(user.accessToken);
    const put = (albumIds: string[], assetIds: string[]) =>
      invoke(addAssetsToAlbums, {
        method: 'PUT',
        path: '/api/albums/assets',
        headers: bearer(user.accessToken),
        body: { albumIds, assetIds },
      });
    expect((await put([a.id, b.id], [photo])).body).toEqual({ success: true });
    expect((await info(user.accessToken, b.id)).body.assetCount).toBe(1);
    expect((await put([a.id, b.id], [photo])).body).toEqual({ success: false, error: 'duplicate' });
    const theirs = (await create(owner.accessToken, { albumName: 'Not yours' })).body;
    expect((await put([theirs.id], [photo])).body).toEqual({ success: false, error: 'no_permission' });
  });

  it("answers bad input in v3's validation shape", async () => {
    const reply = await create(owner.accessToken, { albumName: 5, albumUsers: [{ userId: 'nope', role: 'owner' }] });
    expect(reply.status).toBe(400);
    expect(reply.body.errors.map((issue: { path: (string | number)[] }) => issue.path.join('.')).sort()).toEqual(
      ['albumName', 'albumUsers.0.role', 'albumUsers.0.userId'].sort(),
    );
  });
});
