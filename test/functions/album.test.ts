import { beforeAll, describe, expect, it } from 'vitest';
import { handler as addAssetsHandler } from '#functions/album/add-assets-to-album.ts';
import { handler as createAlbumHandler } from '#functions/album/create-album.ts';
import { handler as deleteAlbumHandler } from '#functions/album/delete-album.ts';
import { handler as getAllAlbumsHandler } from '#functions/album/get-all-albums.ts';
import { handler as updateAlbumHandler } from '#functions/album/update-album-info.ts';
import { handler as createLinkHandler } from '#functions/shared-link/create-shared-link.ts';
import { handler as getMyLinkHandler } from '#functions/shared-link/get-my-shared-link.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, addToAlbum, albumInfo, assetInfo, createAlbum, removeFromAlbum, trash } from '../support/library.ts';
import { tableItems } from '../support/table-items.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const all = (token: string, query: Record<string, string> = {}) =>
  invoke(getAllAlbumsHandler, { path: '/api/album', query, headers: bearer(token) });

describe('albums', () => {
  it("POST /album: 201 with Immich's album fields; only the caller’s assets go in", async () => {
    const token = accounts.user1.accessToken;
    const a = await addPhoto(token, { make: 'A' }, new Date('2021-01-01T00:00:00.000Z'));
    const b = await addPhoto(token, {}, new Date('2022-01-01T00:00:00.000Z'));
    const foreign = await addPhoto(accounts.user2.accessToken);
    const album = await createAlbum(token, { albumName: 'Trip', description: 'summer', assetIds: [a, b, foreign] });
    expect(album).toEqual({
      albumName: 'Trip',
      description: 'summer',
      albumThumbnailAssetId: a,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      id: expect.any(String),
      ownerId: accounts.user1.userId,
      owner: expect.objectContaining({ id: accounts.user1.userId, email: 'user1@immich.cloud' }),
      sharedUsers: [],
      shared: false,
      hasSharedLink: false,
      startDate: '2021-01-01T00:00:00.000Z',
      endDate: '2022-01-01T00:00:00.000Z',
      assets: [expect.objectContaining({ id: b }), expect.objectContaining({ id: a, exifInfo: expect.objectContaining({ make: 'A' }) })],
      assetCount: 2,
      isActivityEnabled: true,
      order: 'desc',
    });
    const empty = await createAlbum(token, { albumName: 'Empty' });
    expect(empty).toMatchObject({ assets: [], assetCount: 0, albumThumbnailAssetId: null, description: '' });
    expect(empty.startDate).toBeUndefined();
  });

  it('GET /album lists mine (newest first, without assets); GET /album/:id; another user gets 400', async () => {
    const { accessToken: token } = await freshUser(accounts.admin.accessToken, 'Lister');
    const assetIds = [await addPhoto(token), await addPhoto(token)];
    await createAlbum(token, { albumName: 'Trip', assetIds });
    await createAlbum(token, { albumName: 'Empty' });
    const list = await all(token);
    expect(list.status).toBe(200);
    expect(list.body.map((album: { albumName: string }) => album.albumName)).toEqual(['Empty', 'Trip']);
    expect(list.body[1]).toMatchObject({ assets: [], assetCount: 2 });
    expect((await all(accounts.user2.accessToken)).body).toEqual([]);
    expect((await all(token, { shared: 'true' })).body).toEqual([]);
    const trip = list.body[1];
    const one = await albumInfo(token, trip.id);
    expect(one.body).toMatchObject({ id: trip.id, assetCount: 2 });
    expect(one.body.assets).toHaveLength(2);
    expect((await albumInfo(token, trip.id, { withoutAssets: 'true' })).body.assets).toEqual([]);
    expect((await albumInfo(accounts.user2.accessToken, trip.id)).body).toEqual({
      message: 'Not found or no album.read access',
      error: 'Bad Request',
      statusCode: 400,
    });
    expect((await albumInfo(token, 'invalid-uuid')).body.message).toEqual(['id must be a UUID']);
    // ?assetId= finds the albums holding an asset.
    const holding = await all(token, { assetId: trip.assets?.[0]?.id ?? one.body.assets[0].id });
    expect(holding.body.map((album: { id: string }) => album.id)).toEqual([trip.id]);
  });

  it('PUT /album/:id/assets: per-id results as Immich (success, duplicate, no_permission); the thumbnail is set', async () => {
    const token = accounts.user1.accessToken;
    const album = await createAlbum(token, { albumName: 'Adds' });
    const mine = await addPhoto(token);
    const theirs = await addPhoto(accounts.user2.accessToken);
    const missing = '00000000-0000-4000-a000-000000000000';
    const reply = await addToAlbum(token, album.id, [mine, mine, theirs, missing]);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([
      { id: mine, success: true },
      { id: mine, success: false, error: 'duplicate' },
      { id: theirs, success: false, error: 'no_permission' },
      { id: missing, success: false, error: 'no_permission' },
    ]);
    expect((await addToAlbum(token, album.id, [mine])).body).toEqual([{ id: mine, success: false, error: 'duplicate' }]);
    expect((await albumInfo(token, album.id)).body).toMatchObject({ assetCount: 1, albumThumbnailAssetId: mine });
    expect((await addToAlbum(accounts.user2.accessToken, album.id, [theirs])).body.message).toBe('Not found or no album.read access');
  });

  it('DELETE /album/:id/assets: success or not_found; a removed thumbnail moves to the newest remaining asset', async () => {
    const token = accounts.user1.accessToken;
    const older = await addPhoto(token, {}, new Date('2020-01-01T00:00:00.000Z'));
    const newer = await addPhoto(token, {}, new Date('2023-01-01T00:00:00.000Z'));
    const album = await createAlbum(token, { albumName: 'Removes', assetIds: [older, newer] });
    expect(album.albumThumbnailAssetId).toBe(older);
    const reply = await removeFromAlbum(token, album.id, [older, older]);
    expect(reply.body).toEqual([
      { id: older, success: true },
      { id: older, success: false, error: 'not_found' },
    ]);
    expect((await albumInfo(token, album.id)).body).toMatchObject({ assetCount: 1, albumThumbnailAssetId: newer });
  });

  it('a thumbnail deleted for good is replaced by the newest remaining asset', async () => {
    const token = accounts.user1.accessToken;
    const first = await addPhoto(token, {}, new Date('2020-02-02T00:00:00.000Z'));
    const second = await addPhoto(token, {}, new Date('2021-02-02T00:00:00.000Z'));
    const album = await createAlbum(token, { albumName: 'Thumbs', assetIds: [first, second] });
    expect(album.albumThumbnailAssetId).toBe(first);
    expect((await trash(token, [first], true)).status).toBe(204);
    expect((await albumInfo(token, album.id)).body).toMatchObject({ albumThumbnailAssetId: second, assetCount: 1 });
  });

  it('trashed assets leave the album’s assets, count and dates', async () => {
    const token = accounts.user1.accessToken;
    const kept = await addPhoto(token, {}, new Date('2019-05-05T00:00:00.000Z'));
    const gone = await addPhoto(token, {}, new Date('2024-05-05T00:00:00.000Z'));
    const album = await createAlbum(token, { albumName: 'Trash', assetIds: [kept, gone] });
    expect(album).toMatchObject({ assetCount: 2, endDate: '2024-05-05T00:00:00.000Z' });
    await trash(token, [gone]);
    const after = (await albumInfo(token, album.id)).body;
    expect(after).toMatchObject({ assetCount: 1, startDate: '2019-05-05T00:00:00.000Z', endDate: '2019-05-05T00:00:00.000Z' });
    expect(after.assets.map((asset: { id: string }) => asset.id)).toEqual([kept]);
    const listed = (await all(token)).body.find((a: { id: string }) => a.id === album.id);
    expect(listed.assetCount).toBe(1);
  });

  it.each([
    [{}, ['albumName must be a string']],
    [{ albumName: 'x', assetIds: ['nope'] }, ['each value in assetIds must be a UUID']],
    [{ albumName: 'x', assetIds: 'nope' }, ['each value in assetIds must be a UUID', 'assetIds must be an array']],
    [{ albumName: 'x', sharedWithUserIds: ['00000000-0000-4000-a000-000000000000'] }, 'User not found'],
  ])('POST /album %j → 400 %j', async (body, message) => {
    const reply = await invoke(createAlbumHandler, {
      method: 'POST',
      path: '/api/album',
      headers: bearer(accounts.user1.accessToken),
      body,
    });
    expect({ status: reply.status, message: reply.body.message }).toEqual({ status: 400, message });
  });

  it.each([
    [{}, ['each value in ids must be a UUID', 'ids should not be empty', 'ids must be an array']],
    [{ ids: ['x'] }, ['each value in ids must be a UUID']],
  ])('PUT /album/:id/assets %j → 400 %j', async (body, message) => {
    const album = await createAlbum(accounts.user1.accessToken, { albumName: 'Validation' });
    const reply = await invoke(addAssetsHandler, {
      method: 'PUT',
      path: `/api/album/${album.id}/assets`,
      headers: bearer(accounts.user1.accessToken),
      pathParameters: { id: album.id },
      body,
    });
    expect({ status: reply.status, message: reply.body.message }).toEqual({ status: 400, message });
  });
});

describe('PATCH /album/:id (updateAlbumInfo)', () => {
  const patch = (token: string, id: string, body: unknown) =>
    invoke(updateAlbumHandler, { method: 'PATCH', path: `/api/album/${id}`, pathParameters: { id }, headers: bearer(token), body });

  it('changes the name, description, thumbnail, activity and order; answers without assets', async () => {
    const token = accounts.user1.accessToken;
    const a = await addPhoto(token, { make: 'Patch A' });
    const b = await addPhoto(token, { make: 'Patch B' });
    const album = await createAlbum(token, { albumName: 'Before', assetIds: [a, b] });
    const reply = await patch(token, album.id, {
      albumName: 'After',
      description: 'new words',
      albumThumbnailAssetId: b,
      isActivityEnabled: false,
      order: 'asc',
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({
      id: album.id,
      albumName: 'After',
      description: 'new words',
      albumThumbnailAssetId: b,
      isActivityEnabled: false,
      order: 'asc',
      assetCount: 2,
      assets: [],
    });
    expect(reply.body.updatedAt > album.updatedAt).toBe(true);
    // Only what is sent changes.
    expect((await patch(token, album.id, { description: '' })).body).toMatchObject({ albumName: 'After', description: '' });
    expect((await albumInfo(token, album.id)).body).toMatchObject({ albumName: 'After', description: '', albumThumbnailAssetId: b });
  });

  it('refuses a thumbnail that is not in the album, bad values, and another user’s album', async () => {
    const token = accounts.user1.accessToken;
    const inside = await addPhoto(token, { make: 'Inside' });
    const outside = await addPhoto(token, { make: 'Outside' });
    const album = await createAlbum(token, { albumName: 'Strict', assetIds: [inside] });
    expect((await patch(token, album.id, { albumThumbnailAssetId: outside })).body).toEqual({
      message: 'Invalid album thumbnail',
      error: 'Bad Request',
      statusCode: 400,
    });
    expect((await patch(token, album.id, { order: 'sideways' })).body.message).toEqual([
      'order must be one of the following values: asc, desc',
    ]);
    expect((await patch(token, album.id, { isActivityEnabled: 'maybe' })).body.message).toEqual([
      'isActivityEnabled must be a boolean value',
    ]);
    expect((await patch(token, album.id, { albumThumbnailAssetId: 'x' })).body.message).toEqual(['albumThumbnailAssetId must be a UUID']);
    expect((await patch(accounts.user2.accessToken, album.id, { albumName: 'Mine now' })).body).toEqual({
      message: 'Not found or no album.update access',
      error: 'Bad Request',
      statusCode: 400,
    });
    expect((await albumInfo(token, album.id)).body.albumName).toBe('Strict');
  });
});

describe('DELETE /album/:id', () => {
  const remove = (token: string, id: string) =>
    invoke(deleteAlbumHandler, { method: 'DELETE', path: `/api/album/${id}`, pathParameters: { id }, headers: bearer(token) });

  it('deletes the album, its entries and the links that show it; the assets stay and are in no album', async () => {
    const token = accounts.user1.accessToken;
    const a = await addPhoto(token, { make: 'Kept A' });
    const b = await addPhoto(token, { make: 'Kept B' });
    const album = await createAlbum(token, { albumName: 'Doomed', assetIds: [a, b] });
    const link = await invoke(createLinkHandler, {
      method: 'POST',
      path: '/api/shared-link',
      headers: bearer(token),
      body: { type: 'ALBUM', albumId: album.id },
    });
    expect(link.status).toBe(201);
    expect((await invoke(getMyLinkHandler, { path: '/api/shared-link/me', query: { key: link.body.key } })).status).toBe(200);

    expect((await remove(accounts.user2.accessToken, album.id)).body).toEqual({
      message: 'Not found or no album.delete access',
      error: 'Bad Request',
      statusCode: 400,
    });
    expect((await remove(token, album.id)).status).toBe(200);
    expect((await albumInfo(token, album.id)).status).toBe(400);
    expect((await invoke(getMyLinkHandler, { path: '/api/shared-link/me', query: { key: link.body.key } })).status).toBe(401);
    for (const id of [a, b]) {
      expect((await all(token, { assetId: id })).body).toEqual([]);
      expect((await assetInfo(token, id)).status).toBe(200);
    }
    const items = await tableItems();
    expect(items.filter((item) => item.albumId === album.id && item.type !== 'deletion')).toEqual([]);
    // What the sync stream sends of it: the owner lost the album (its entries go with it, unrecorded).
    expect(items.filter((item) => item.albumId === album.id).map((item) => item.pk)).toEqual([`DELETED#${album.ownerId}#ALBUM`]);
    expect(items.filter((item) => (item.id === a || item.id === b) && item.type === 'asset').map((item) => item.albumCount ?? 0)).toEqual([
      0, 0,
    ]);
    expect((await remove(token, album.id)).status).toBe(400);
  });
});
