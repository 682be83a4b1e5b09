import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteAlbumHandler } from '#functions/album/delete-album.ts';
import { handler as restoreUserHandler } from '#functions/user/restore-user.ts';
import { handler as deleteUserAdminHandler } from '#functions/v3/user-admin/delete-user-admin.ts';
import * as albumRepo from '#shared/db/album.repository.ts';
import { db, tableName } from '#shared/db/client.ts';
import * as keys from '#shared/db/item-keys.ts';
import { bearer, freshUser, setupAccounts, unlockSession } from '../support/accounts.ts';
import { appAlbums, serverAlbums } from '../support/album-views.ts';
import { duringDeploy } from '../support/deployment.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, addToAlbum, createAlbum, lock, shareAlbum } from '../support/library.ts';
import { SyncClient } from '../support/sync-client.ts';
import { holdTransaction } from '../support/transact-hold.ts';

/**
 * The user's album sync marker lets a sync that finds nothing skip the albums (docs/data-model.md,
 * "Album summaries"); these are the ways it could have skipped a change the app needed (a review's
 * findings, each failing before its fix): an album created in several transactions, a completed
 * stream of other types, an owner restored.
 */

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

/** A new user with two photos, an album of the first, and their app synced until a sync finds nothing. */
const quietAlbum = async (name: string, color: [number, number, number]) => {
  const owner = await freshUser(accounts.admin.accessToken, name);
  const a = await addPhoto(owner.accessToken, { color });
  const b = await addPhoto(owner.accessToken, { color: [color[2], color[1], color[0] + 1] });
  const album = (await createAlbum(owner.accessToken, { albumName: name, assetIds: [a] })).id as string;
  const app = new SyncClient(owner.accessToken);
  await app.sync();
  await app.sync();
  expect((await app.sync()).map((line) => line.type)).toEqual(['SyncCompleteV1']);
  return { owner, b, album, app };
};

describe('the album sync marker never lets a sync skip what the app needs', () => {
  it('sends every entry of an album whose later transactions landed after a sync that saw it partly filled', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'MarkerBigCreate');
    const seedPhoto = await addPhoto(owner.accessToken, { color: [1, 2, 3] });
    await createAlbum(owner.accessToken, { albumName: 'Seed', assetIds: [seedPhoto] });
    const app = new SyncClient(owner.accessToken);
    await app.sync();
    await app.sync();
    expect((await app.sync()).map((line) => line.type)).toEqual(['SyncCompleteV1']);

    const photos: string[] = [];
    for (let n = 0; n < 50; n++) photos.push(await addPhoto(owner.accessToken, { color: [n * 5, 255 - n * 5, 100] }));
    // Own assets: AssetsV2 sends them; let the app have them.
    await app.sync();

    // The create's first part (the album item and its first entries) written, its answer held.
    const hold = holdTransaction(
      (items) => /"albumAsset"/.test(JSON.stringify(items)) && items.some((item) => item.Put?.Item?.type === 'album'),
      { after: true },
    );
    const creating = createAlbum(owner.accessToken, { albumName: 'Big', assetIds: photos });
    await hold.held;
    // The first part (the album and 49 entries) is written, the 50th entry's part not begun: a sync
    // sees the album part filled and completes (a create of 10,000 assets writes 200 parts in turn).
    await app.sync();
    hold.release();
    await creating;

    await app.sync();
    const quiet = await app.sync();
    expect(quiet.map((line) => line.type)).toEqual(['SyncCompleteV1']);
    expect(appAlbums(app)).toEqual(await serverAlbums(owner.id));
  });

  it('does not let a later sync of the album types skip a change no sync of them read', async () => {
    const { owner, b, album, app } = await quietAlbum('MarkerSubset', [9, 9, 9]);

    expect((await addToAlbum(owner.accessToken, album, [b])).status).toBe(200);
    // A stream of other types only (it completes, and its SyncCompleteV1 is acked).
    const other = await app.sync({ types: ['AuthUsersV1', 'AssetsV2'] });
    expect(other.at(-1)?.type).toBe('SyncCompleteV1');
    await app.sync();
    const quiet = await app.sync();
    expect(quiet.map((line) => line.type)).toEqual(['SyncCompleteV1']);
    expect(appAlbums(app)).toEqual(await serverAlbums(owner.id));
  });

  it("sends a member the deletion of the owner's photo moved into the locked folder after the restore", async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'MarkerRestoreOwner');
    const member = await freshUser(accounts.admin.accessToken, 'MarkerRestoreMember');
    const x = await addPhoto(owner.accessToken, { color: [40, 80, 160] });
    const album = (await createAlbum(owner.accessToken, { albumName: 'Restored', assetIds: [x] })).id as string;
    const shared = await shareAlbum(owner.accessToken, album, [member.id]);
    expect(shared.status).toBe(200);
    const memberApp = new SyncClient(member.accessToken);
    await memberApp.sync();
    await memberApp.sync();
    expect(memberApp.assets.has(x)).toBe(true);

    const deleted = await invoke(deleteUserAdminHandler, {
      method: 'DELETE',
      path: `/api/admin/users/${owner.id}`,
      pathParameters: { id: owner.id },
      headers: bearer(accounts.admin.accessToken),
      body: {},
    });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    await memberApp.sync();
    await memberApp.sync();
    const learnt = (await db.send(new GetCommand({ TableName: tableName, Key: keys.albumSyncMark(member.id) }))).Item;
    expect(learnt).toMatchObject({ shared: false, learnt: 'none' });

    const restored = await invoke(restoreUserHandler, {
      method: 'POST',
      path: `/api/user/${owner.id}/restore`,
      pathParameters: { id: owner.id },
      headers: bearer(accounts.admin.accessToken),
    });
    expect(restored.status).toBe(201);
    const afterRestore = (await db.send(new GetCommand({ TableName: tableName, Key: keys.albumSyncMark(member.id) }))).Item;
    // The member has a shared album again, and their marker says so (it said otherwise while the owner was deleted).
    expect(afterRestore?.shared).toBe(true);

    await unlockSession(owner.accessToken, '123456');
    expect((await lock(owner.accessToken, [x])).status).toBe(204);
    const lines = await memberApp.sync();
    await memberApp.sync();
    expect(lines.filter((line) => line.type === 'PartnerAssetDeleteV1').map((line) => line.data.assetId)).toEqual([x]);
    expect(memberApp.assets.has(x)).toBe(false);
  });

  it('tells a user an album was shared with while it was being deleted that it is gone', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'MarkerDeleteOwner');
    const late = await freshUser(accounts.admin.accessToken, 'MarkerDeleteLate');
    const photo = await addPhoto(owner.accessToken, { color: [120, 20, 220] });
    const album = (await createAlbum(owner.accessToken, { albumName: 'Going', assetIds: [photo] })).id as string;
    const lateApp = new SyncClient(late.accessToken);
    await lateApp.sync();

    // The delete read the album (no user it is shared with); before its write, the owner shares it.
    const hold = holdTransaction((items) => items.some((item) => item.Delete?.Key?.sk === `ALBUM#${album}`));
    const deleting = invoke(deleteAlbumHandler, {
      method: 'DELETE',
      path: `/api/album/${album}`,
      pathParameters: { id: album },
      headers: bearer(owner.accessToken),
    });
    await hold.held;
    expect((await shareAlbum(owner.accessToken, album, [late.id])).status).toBe(200);
    await lateApp.sync();
    expect(lateApp.albums.has(album)).toBe(true);
    hold.release();
    expect((await deleting).status).toBe(200);

    // The user it was shared with meanwhile has it no more: their share is gone and their app learns it.
    expect(await albumRepo.getUser(album, late.id)).toBeUndefined();
    const lines = await lateApp.sync();
    expect(lines.filter((line) => line.type === 'AlbumDeleteV1').map((line) => line.data.albumId)).toEqual([album]);
    expect(lateApp.albums.has(album)).toBe(false);
  });

  it('does not trust a marker learnt before the deploy that replaced the functions completed', async () => {
    const { owner, b, album, app } = await quietAlbum('MarkerDeploy', [30, 60, 90]);

    // While CloudFormation replaces the functions, an old one (from before markers) adds a photo:
    // the entry is written and no marker moves (the marker is put back as it was).
    const marker = (await db.send(new GetCommand({ TableName: tableName, Key: keys.albumSyncMark(owner.id) }))).Item;
    expect((await addToAlbum(owner.accessToken, album, [b])).status).toBe(200);
    await db.send(new PutCommand({ TableName: tableName, Item: marker }));
    // The marker the new sync learnt would skip it (which is why it is not trusted after the deploy).
    expect((await app.sync()).map((line) => line.type)).toEqual(['SyncCompleteV1']);

    // The deploy completes: its custom resource writes the functions' new generation.
    const deployment = async () => (await db.send(new GetCommand({ TableName: tableName, Key: keys.deployment() }))).Item;
    const oldRunAdds = async (photo: string) => {
      const before = (await db.send(new GetCommand({ TableName: tableName, Key: keys.albumSyncMark(owner.id) }))).Item;
      expect((await addToAlbum(owner.accessToken, album, [photo])).status).toBe(200);
      await db.send(new PutCommand({ TableName: tableName, Item: before }));
    };
    await duringDeploy('next', async (drained) => {
      const lines = await app.sync();
      expect(lines.filter((line) => line.type === 'AlbumToAssetV1').map((line) => line.data.assetId)).toEqual([b]);
      // The first sync under it recorded when it saw it; while the runs the old functions began
      // before the deploy may go on (Lambda's 15 minutes), no marker is learnt, so an album write of
      // one of them then is still sent.
      expect(typeof (await deployment())?.seenAt).toBe('number');
      const c = await addPhoto(owner.accessToken, { color: [60, 90, 30] });
      await app.sync();
      await oldRunAdds(c);
      const later = await app.sync();
      expect(later.filter((line) => line.type === 'AlbumToAssetV1').map((line) => line.data.assetId)).toEqual([c]);
      expect((await db.send(new GetCommand({ TableName: tableName, Key: keys.albumSyncMark(owner.id) }))).Item?.learnt).toBe('none');

      // Once those runs are over, a sync learns the marker under the new generation; the one after is quiet.
      await drained();
      await app.sync();
      expect((await app.sync()).map((line) => line.type)).toEqual(['SyncCompleteV1']);
      expect(appAlbums(app)).toEqual(await serverAlbums(owner.id));
      const learnt = (await db.send(new GetCommand({ TableName: tableName, Key: keys.albumSyncMark(owner.id) }))).Item;
      expect(learnt).toMatchObject({ learnt: 'next' });
    });
  });
});
