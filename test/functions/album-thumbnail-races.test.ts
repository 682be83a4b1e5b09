import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAlbumsHandler } from '#functions/album/get-all-albums.ts';
import { handler as updateAlbumHandler } from '#functions/album/update-album-info.ts';
import * as keys from '#shared/db/item-keys.ts';
import { bearer, freshUser, setupAccounts, sharePartner } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, addToAlbum, albumInfo, createAlbum, trash } from '../support/library.ts';
import { holdTransaction } from '../support/transact-hold.ts';

/**
 * An add sets the thumbnail of an album that had none after its entries are written; a delete for
 * good of the same asset that read the album before that and wrote after it must not leave the
 * album naming the deleted asset (the sync stream would send an album whose thumbnail the app's
 * tables no longer hold). The two requests are interleaved by holding their transactions
 * (test/support/transact-hold.ts): the add's thumbnail write waits until the delete has read the
 * albums, and lands before the delete's transaction is sent.
 */

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

type Items = Parameters<Parameters<typeof holdTransaction>[0]>[0];
const checksAsset = (asset: string) => (items: Items) => items.some((item) => item.ConditionCheck?.Key?.pk === keys.asset(asset).pk);
const deletesAsset = (asset: string) => (items: Items) =>
  items.some((item) => item.Delete?.Key?.pk === keys.asset(asset).pk && item.Delete.Key.sk === keys.asset(asset).sk);

/**
 * Adds the asset to the album and deletes it for good, the add's thumbnail landing between the
 * delete's read and its write (`after`: after its write, before its entries go).
 */
const raceAddAndDelete = async (token: string, albumId: string, asset: string, options: { after?: boolean } = {}) => {
  const thumbnail = holdTransaction(checksAsset(asset));
  const adding = addToAlbum(token, albumId, [asset]);
  await thumbnail.held;
  const deleteWrite = holdTransaction(deletesAsset(asset), options);
  const deleting = trash(token, [asset], true);
  await deleteWrite.held;
  thumbnail.release();
  expect((await adding).status).toBe(200);
  deleteWrite.release();
  expect((await deleting).status).toBe(204);
};

describe('an album never names an asset deleted for good', () => {
  it('when an add set its thumbnail between the delete reading the album and writing', async () => {
    const token = accounts.user1.accessToken;
    const album = await createAlbum(token, { albumName: 'Thumbnail race' });
    const asset = await addPhoto(token, { color: [40, 4, 220] });
    await raceAddAndDelete(token, album.id, asset);
    const view = (await albumInfo(token, album.id)).body;
    expect(view).toMatchObject({ assetCount: 0, assets: [], albumThumbnailAssetId: null });
  });

  it('when the asset is in more albums than its deleting transaction can check', async () => {
    const token = accounts.user2.accessToken;
    const asset = await addPhoto(token, { color: [41, 4, 221] });
    const kept = await addPhoto(token, { color: [42, 4, 222] });
    // 99 albums showing it (and another photo), and one that gets it as the race's add.
    const showing: string[] = [];
    for (let n = 0; n < 99; n++) showing.push((await createAlbum(token, { albumName: `Many ${n}`, assetIds: [asset, kept] })).id);
    const last = await createAlbum(token, { albumName: 'Many, the last' });
    await raceAddAndDelete(token, last.id, asset);
    expect((await albumInfo(token, last.id)).body).toMatchObject({ assetCount: 0, albumThumbnailAssetId: null });
    const albums = await invoke(getAlbumsHandler, { path: '/api/album', headers: bearer(token) });
    const thumbnails = new Map(
      (albums.body as { id: string; albumThumbnailAssetId: string | null }[]).map((a) => [a.id, a.albumThumbnailAssetId]),
    );
    expect(showing.map((id) => thumbnails.get(id))).toEqual(showing.map(() => kept));
  });

  it('when a PATCH names it as the thumbnail after its delete was written, before its entries went', async () => {
    const token = accounts.user1.accessToken;
    const kept = await addPhoto(token, { color: [43, 5, 223] });
    const asset = await addPhoto(token, { color: [44, 5, 224] });
    const album = await createAlbum(token, { albumName: 'Patch race', assetIds: [kept, asset] });
    const deleteWrite = holdTransaction(deletesAsset(asset), { after: true });
    const deleting = trash(token, [asset], true);
    await deleteWrite.held;
    const patched = await invoke(updateAlbumHandler, {
      method: 'PATCH',
      path: `/api/album/${album.id}`,
      headers: bearer(token),
      pathParameters: { id: album.id },
      body: { albumThumbnailAssetId: asset },
    });
    deleteWrite.release();
    expect((await deleting).status).toBe(204);
    expect(patched.status).toBe(400);
    expect((await albumInfo(token, album.id)).body).toMatchObject({ assetCount: 1, albumThumbnailAssetId: kept });
  });

  it('when an add’s thumbnail write comes after the delete was written, before its entries went', async () => {
    const token = accounts.user2.accessToken;
    const album = await createAlbum(token, { albumName: 'Touch after' });
    const asset = await addPhoto(token, { color: [45, 5, 225] });
    await raceAddAndDelete(token, album.id, asset, { after: true });
    expect((await albumInfo(token, album.id)).body).toMatchObject({ assetCount: 0, albumThumbnailAssetId: null });
  });

  it('when it is a partner’s photo, the thumbnail of an album its owner shares with no one', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'ThumbOwner');
    const partner = await freshUser(accounts.admin.accessToken, 'ThumbPartner');
    await sharePartner(partner, owner.id);
    const theirs = await addPhoto(partner.accessToken, { color: [46, 10, 151] });
    const mine = await addPhoto(owner.accessToken, { color: [151, 10, 46] }, new Date('2020-01-01T00:00:00.000Z'));
    const album = (await createAlbum(owner.accessToken, { albumName: 'Mine', assetIds: [theirs, mine] })).id as string;
    expect((await albumInfo(owner.accessToken, album)).body.albumThumbnailAssetId).toBe(theirs);
    expect((await trash(partner.accessToken, [theirs], true)).status).toBe(204);
    expect((await albumInfo(owner.accessToken, album)).body).toMatchObject({ assetCount: 1, albumThumbnailAssetId: mine });
  });
});
