import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as removeUserHandler } from '#functions/album/remove-user-from-album.ts';
import { handler as nightlyHandler } from '#functions/nightly/run-nightly-tasks.ts';
import { handler as deleteUserAdminHandler } from '#functions/v3/user-admin/delete-user-admin.ts';
import { db, tableName } from '#shared/db/client.ts';
import * as keys from '#shared/db/item-keys.ts';
import * as partitions from '#shared/db/partitions.ts';
import { bearer, freshUser, setupAccounts, sharePartner } from '../support/accounts.ts';
import { appAlbums, serverAlbums } from '../support/album-views.ts';
import { duringDeploy } from '../support/deployment.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, addToAlbum, createAlbum, lock, shareAlbum, trash, updateAsset } from '../support/library.ts';
import { SyncClient } from '../support/sync-client.ts';
import { tableItems } from '../support/table-items.ts';

/**
 * The owners of an album's entries' assets (shared/db/items/album-mark.ts; docs/data-model.md,
 * "Album summaries"): an album can hold assets of a user who is not one of its users (a partner's
 * photo an editor added, the photos of a member who left), and its users' apps get that user's
 * changes to them as Immich's do, by the quiet sync as by the full one. An album from before the
 * owners were kept learns them at a nightly tick (shared/services/sync/entry-owners.ts).
 */

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

type User = Awaited<ReturnType<typeof freshUser>>;

const marker = async (user: User) => (await db.send(new GetCommand({ TableName: tableName, Key: keys.albumSyncMark(user.id) }))).Item;
const summary = async (albumId: string) => (await db.send(new GetCommand({ TableName: tableName, Key: keys.albumSummary(albumId) }))).Item;
const entryOwners = async (albumId: string) => [...((await summary(albumId))?.entryOwners ?? [])].sort();
/** The nightly function's tick, as the schedule gives it. */
const tick = () => nightlyHandler({ time: new Date().toISOString() });

/** Syncs until the app has the server's albums, then once more: that sync sends nothing (but acks). */
const converges = async (app: SyncClient, user: User) => {
  await app.sync();
  expect(appAlbums(app)).toEqual(await serverAlbums(user.id));
  await app.sync();
  expect((await app.sync()).filter((line) => line.type !== 'SyncAckV1').map((line) => line.type)).toEqual(['SyncCompleteV1']);
};

/** The types and asset ids of the lines one sync sends of an asset. */
const linesOf = async (app: SyncClient, assetId: string) =>
  (await app.sync()).filter((line) => line.data.assetId === assetId || line.data.id === assetId).map((line) => line.type);

/** A member adds a photo of theirs to the album, then leaves it (Immich keeps their photo in it). */
const departedMember = async (owner: User, name: string) => {
  const member = await freshUser(accounts.admin.accessToken, name);
  const mine = await addPhoto(owner.accessToken, { color: [20, 80, 140] });
  const album = (await createAlbum(owner.accessToken, { albumName: `${name}'s album`, assetIds: [mine] })).id as string;
  expect((await shareAlbum(owner.accessToken, album, [member.id])).status).toBe(200);
  const theirs = await addPhoto(member.accessToken, { color: [140, 80, 20] });
  expect((await addToAlbum(member.accessToken, album, [theirs])).status).toBe(200);
  const left = await invoke(removeUserHandler, {
    method: 'DELETE',
    path: `/api/album/${album}/user/${member.id}`,
    pathParameters: { id: album, userId: member.id },
    headers: bearer(member.accessToken),
  });
  expect(left.status).toBe(200);
  return { member, album, mine, theirs };
};

describe("an album's entries' owners", () => {
  it("send the album's users the changes of a partner's photo an editor added", async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'OwnersOwner');
    const editor = await freshUser(accounts.admin.accessToken, 'OwnersEditor');
    const partner = await freshUser(accounts.admin.accessToken, 'OwnersPartner');
    await sharePartner(partner, editor.id);
    const mine = await addPhoto(owner.accessToken, { color: [10, 160, 90] });
    const album = (await createAlbum(owner.accessToken, { albumName: 'Holiday', assetIds: [mine] })).id as string;
    expect((await shareAlbum(owner.accessToken, album, [editor.id])).status).toBe(200);
    const theirs = await addPhoto(partner.accessToken, { color: [90, 160, 10] });
    expect((await addToAlbum(editor.accessToken, album, [theirs])).status).toBe(200);
    expect(await entryOwners(album)).toEqual([owner.id, partner.id].sort());

    const app = new SyncClient(owner.accessToken);
    await converges(app, owner);
    expect(app.assets.has(theirs)).toBe(true);
    // The owner's albums' other users: the editor, and the partner whose photo is in the album.
    expect((await marker(owner))?.others).toEqual([editor.id, partner.id].sort());

    // The partner describes their photo: the owner's app gets it (the quiet path looks at the partner's changes).
    expect((await updateAsset(partner.accessToken, theirs, { description: 'From the partner' })).status).toBe(200);
    expect(await linesOf(app, theirs)).toContain('AlbumAssetExifUpdateV1');
    expect(app.exifs.get(theirs)?.description).toBe('From the partner');
    await converges(app, owner);

    // The partner moves it into their locked folder: it leaves the album, and the owner's app drops it.
    expect((await lock(partner.accessToken, [theirs])).status).toBe(204);
    await converges(app, owner);
    expect(app.assets.has(theirs)).toBe(false);
    expect(appAlbums(app)[album]?.assets).toEqual([mine]);
  });

  it("send the album's users the changes of a departed member's photos", async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'DepartedOwner');
    const { member, theirs } = await departedMember(owner, 'Departed');
    const app = new SyncClient(owner.accessToken);
    await converges(app, owner);
    expect((await marker(owner))?.others).toEqual([member.id]);

    expect((await updateAsset(member.accessToken, theirs, { description: 'Still mine' })).status).toBe(200);
    expect(await linesOf(app, theirs)).toContain('AlbumAssetExifUpdateV1');
    expect(app.exifs.get(theirs)?.description).toBe('Still mine');
    expect((await updateAsset(member.accessToken, theirs, { isFavorite: true, dateTimeOriginal: '2021-06-01T10:00:00.000Z' })).status).toBe(
      200,
    );
    expect(await linesOf(app, theirs)).toContain('AlbumAssetUpdateV2');
    await converges(app, owner);
  });

  it("send the owner of an album shared with no one the album's changes of a partner's photo they added", async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'SoloOwner');
    const partner = await freshUser(accounts.admin.accessToken, 'SoloPartner');
    await sharePartner(partner, owner.id);
    const mine = await addPhoto(owner.accessToken, { color: [70, 30, 110] });
    const album = (await createAlbum(owner.accessToken, { albumName: 'Just me', assetIds: [mine] })).id as string;
    const app = new SyncClient(owner.accessToken);
    await converges(app, owner);
    // No album of theirs has another user yet: the marker says so.
    expect(await marker(owner)).toMatchObject({ shared: false, others: [] });

    // Adding the partner's photo gives the album another user: the marker no longer says it has none.
    const theirs = await addPhoto(partner.accessToken, { color: [110, 30, 70] });
    expect((await addToAlbum(owner.accessToken, album, [theirs])).status).toBe(200);
    expect(await marker(owner)).toMatchObject({ shared: true });
    expect((await marker(owner))?.others).toBeUndefined();
    await converges(app, owner);
    expect(await marker(owner)).toMatchObject({ shared: true, others: [partner.id] });

    // The partner's change reaches the app as the album's (besides the partner's own types).
    expect((await updateAsset(partner.accessToken, theirs, { description: 'In your album' })).status).toBe(200);
    expect(await linesOf(app, theirs)).toContain('AlbumAssetExifUpdateV1');
    await converges(app, owner);
  });

  it('keep no id of a user purged after their photos left the album', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'PurgeOwner');
    const { member, album, mine, theirs } = await departedMember(owner, 'Purged');
    const app = new SyncClient(owner.accessToken);
    await converges(app, owner);
    // The member deletes their photo for good: it leaves the album.
    expect((await trash(member.accessToken, [theirs], true)).status).toBe(204);
    await converges(app, owner);
    // Their photo left: they stay among the album's entries' owners (a set only added to).
    expect(await entryOwners(album)).toEqual([owner.id, member.id].sort());
    expect((await marker(owner))?.others).toEqual([member.id]);

    // Deleted with force and purged at the next tick; the owner's next sync that reads the albums drops them.
    const deleted = await invoke(deleteUserAdminHandler, {
      method: 'DELETE',
      path: `/api/admin/users/${member.id}`,
      pathParameters: { id: member.id },
      headers: bearer(accounts.admin.accessToken),
      body: { force: true },
    });
    expect(deleted.status).toBe(200);
    await tick();
    expect((await tableItems('user')).some((item) => item.id === member.id)).toBe(false);
    const mineAgain = await addPhoto(owner.accessToken, { color: [21, 81, 141] });
    expect((await addToAlbum(owner.accessToken, album, [mineAgain])).status).toBe(200);
    await converges(app, owner);
    expect(await entryOwners(album)).toEqual([owner.id]);
    expect((await marker(owner))?.others).toEqual([]);
    expect(appAlbums(app)[album]?.assets).toEqual([mine, mineAgain].sort());
  });

  it('are learnt for an album from before at a nightly tick, once a deploy’s old functions are done', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'LearntOwner');
    const { member, album, theirs } = await departedMember(owner, 'LearntMember');
    // As a table from before: entries that name no owner, a summary item that gathered none, the table not marked.
    for (const entry of (await tableItems()).filter(
      (item) => item.pk === partitions.albumAssets(album).value && item.type === 'albumAsset',
    ))
      await db.send(
        new UpdateCommand({ TableName: tableName, Key: { pk: entry.pk, sk: entry.sk }, UpdateExpression: 'REMOVE assetOwnerId' }),
      );
    await db.send(
      new UpdateCommand({ TableName: tableName, Key: keys.albumSummary(album), UpdateExpression: 'REMOVE entryOwners, entryOwnersLearnt' }),
    );
    await db.send(new UpdateCommand({ TableName: tableName, Key: keys.migrations(), UpdateExpression: 'REMOVE entryOwners' }));
    const app = new SyncClient(owner.accessToken);
    await converges(app, owner);
    expect((await marker(owner))?.others).toEqual([]);
    // Until it is learnt, the departed member's change does not reach the app (and is acked past).
    expect((await updateAsset(member.accessToken, theirs, { description: 'Before learning' })).status).toBe(200);
    await converges(app, owner);
    expect(app.exifs.get(theirs)?.description).not.toBe('Before learning');

    // A deploy whose old functions may still run: the tick waits (and records when the generation was first seen).
    await duringDeploy('owners', async (drained) => {
      await tick();
      expect((await summary(album))?.entryOwnersLearnt).toBeUndefined();
      await drained();
      await tick();
    });
    expect((await summary(album))?.entryOwnersLearnt).toBe(true);
    expect(await entryOwners(album)).toEqual([owner.id, member.id].sort());
    expect((await db.send(new GetCommand({ TableName: tableName, Key: keys.migrations() }))).Item?.entryOwners).toEqual(expect.any(String));

    // The owner's marker moved and the member's entry was written again: the next sync sends their
    // photo as it is now (the change it missed) and learns the departed member, whose next change reaches the app.
    await converges(app, owner);
    expect(app.exifs.get(theirs)?.description).toBe('Before learning');
    expect((await marker(owner))?.others).toEqual([member.id]);
    expect((await updateAsset(member.accessToken, theirs, { description: 'Learnt' })).status).toBe(200);
    expect(await linesOf(app, theirs)).toContain('AlbumAssetExifUpdateV1');
    expect(app.exifs.get(theirs)?.description).toBe('Learnt');
  });
});
