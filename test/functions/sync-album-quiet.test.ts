import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as addUsersHandler } from '#functions/album/add-users-to-album.ts';
import { handler as deleteAlbumHandler } from '#functions/album/delete-album.ts';
import { handler as removeUserHandler } from '#functions/album/remove-user-from-album.ts';
import { handler as updateAlbumHandler } from '#functions/album/update-album-info.ts';
import { handler as createLinkHandler } from '#functions/shared-link/create-shared-link.ts';
import * as albumRepo from '#shared/db/album.repository.ts';
import * as assetRepo from '#shared/db/asset.repository.ts';
import { db, tableName } from '#shared/db/client.ts';
import * as keys from '#shared/db/item-keys.ts';
import * as partitions from '#shared/db/partitions.ts';
import { bearer, freshUser, setupAccounts, unlockSession } from '../support/accounts.ts';
import { appAlbums, serverAlbums } from '../support/album-views.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, addToAlbum, createAlbum, lock, removeFromAlbum, shareAlbum, trash, updateAsset } from '../support/library.ts';
import { recordRoundTrips } from '../support/round-trips.ts';
import { SyncClient } from '../support/sync-client.ts';

/**
 * A user's album sync marker (shared/db/album-sync.repository.ts, docs/data-model.md "Album
 * summaries"): a sync that finds nothing reads none of the user's albums (nor their list), and
 * every kind of change to an album (its row, its users, its entries, their deletions, its own
 * deletion; by the album's routes or by an asset leaving it) moves the marker of each of its
 * users, so the app's tables (test/support/app-store.ts) still come out as the server's.
 */

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

type User = Awaited<ReturnType<typeof freshUser>>;

/** The DynamoDB calls of one sync that read the user's album list (their own, or those shared with them). */
const albumListReads = async (client: SyncClient, user: User) => {
  let lines: string[] = [];
  const calls = await recordRoundTrips(async () => {
    lines = (await client.sync()).map((line) => line.type);
  });
  const values = [partitions.userAlbums(user.id).value, partitions.albumsSharedWith(user.id).value];
  const reads = calls.filter((call) =>
    Object.values(call.input.ExpressionAttributeValues ?? {}).some((value) => values.includes(String(value))),
  );
  return { lines, reads: reads.length, calls: calls.length };
};

/**
 * Syncs until the app has the server's albums; then the next sync, finding nothing, reads none of
 * them (`quiet`: for a user whose album sync marker knows their albums' other users, or who has none).
 */
const converges = async (client: SyncClient, user: User, options: { quiet: boolean }) => {
  await client.sync();
  expect(appAlbums(client)).toEqual(await serverAlbums(user.id));
  // The sync after a change reads the albums (the marker moved after the last completed sync), finding nothing new.
  await client.sync();
  const quiet = await albumListReads(client, user);
  // Nothing sent (an ack past other users' changes that are in no album may come: pattern 106).
  expect(quiet.lines.filter((type) => type !== 'SyncAckV1')).toEqual(['SyncCompleteV1']);
  if (options.quiet) expect(quiet.reads).toBe(0);
  expect(appAlbums(client)).toEqual(await serverAlbums(user.id));
};

describe("a user's album sync marker", () => {
  it('lets a sync that finds nothing read none of the albums, and moves with every change to them', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'QuietOwner');
    const member = await freshUser(accounts.admin.accessToken, 'QuietMember');
    const photos = [
      await addPhoto(owner.accessToken, { color: [200, 10, 10] }),
      await addPhoto(owner.accessToken, { color: [10, 200, 10] }),
      await addPhoto(owner.accessToken, { color: [10, 10, 200] }),
    ];
    const [a, b, c] = photos as [string, string, string];
    const first = (await createAlbum(owner.accessToken, { albumName: 'First', assetIds: [a, b] })).id as string;
    const second = (await createAlbum(owner.accessToken, { albumName: 'Second', assetIds: [b] })).id as string;
    const app = new SyncClient(owner.accessToken);
    const memberApp = new SyncClient(member.accessToken);
    await converges(app, owner, { quiet: true });
    // A user who never had an album has no checkpoint of the album types: their (empty) list is read.
    await converges(memberApp, member, { quiet: false });
    // However many albums: the quiet sync reads none of them, and few items in all.
    const quiet = await albumListReads(app, owner);
    expect(quiet).toMatchObject({ lines: ['SyncCompleteV1'], reads: 0 });

    // Entries added and removed, the album renamed.
    expect((await addToAlbum(owner.accessToken, second, [c])).status).toBe(200);
    await converges(app, owner, { quiet: true });
    expect((await removeFromAlbum(owner.accessToken, first, [a])).status).toBe(200);
    await converges(app, owner, { quiet: true });
    const renamed = await invoke(updateAlbumHandler, {
      method: 'PATCH',
      path: `/api/album/${first}`,
      pathParameters: { id: first },
      headers: bearer(owner.accessToken),
      body: { albumName: 'First, renamed' },
    });
    expect(renamed.status).toBe(200);
    await converges(app, owner, { quiet: true });
    // A shared link of the album: nothing the stream's album holds (as Immich's, whose links are rows of their own).
    const link = await invoke(createLinkHandler, {
      method: 'POST',
      path: '/api/shared-link',
      headers: bearer(owner.accessToken),
      body: { type: 'ALBUM', albumId: first },
    });
    expect(link.status).toBe(201);
    // The next sync that reads the albums (another one changed) sends that one, not the linked one again.
    expect((await addToAlbum(owner.accessToken, second, [a])).status).toBe(200);
    const afterLink = await app.sync();
    expect(afterLink.filter((line) => line.type === 'AlbumV2').map((line) => line.data.id)).toEqual([second]);
    await converges(app, owner, { quiet: true });

    // Shared: the member, quiet until now, gets the album; the member's photo in it reaches the owner.
    const shared = await shareAlbum(owner.accessToken, second, [member.id]);
    expect(shared.status).toBe(200);
    await converges(memberApp, member, { quiet: true });
    await converges(app, owner, { quiet: true });
    const theirs = await addPhoto(member.accessToken, { color: [120, 120, 10] });
    expect((await addToAlbum(member.accessToken, second, [theirs])).status).toBe(200);
    await converges(app, owner, { quiet: true });
    await converges(memberApp, member, { quiet: true });

    // The member's photo moved into their locked folder leaves the album (an asset function, knowing only the album's id).
    await unlockSession(member.accessToken, '123456');
    expect((await lock(member.accessToken, [theirs])).status).toBe(204);
    await converges(app, owner, { quiet: true });
    await converges(memberApp, member, { quiet: true });

    // Unshared: the member loses it, and is quiet again; so is the owner, whose albums no longer have another user.
    const unshared = await invoke(removeUserHandler, {
      method: 'DELETE',
      path: `/api/album/${second}/user/${member.id}`,
      pathParameters: { id: second, userId: member.id },
      headers: bearer(owner.accessToken),
    });
    expect(unshared.status).toBe(200);
    await converges(memberApp, member, { quiet: true });
    expect(memberApp.albums.size).toBe(0);
    await converges(app, owner, { quiet: true });

    // A photo deleted for good leaves its albums; an album deleted goes.
    expect((await trash(owner.accessToken, [b], true)).status).toBe(204);
    await converges(app, owner, { quiet: true });
    const deleted = await invoke(deleteAlbumHandler, {
      method: 'DELETE',
      path: `/api/album/${first}`,
      pathParameters: { id: first },
      headers: bearer(owner.accessToken),
    });
    expect(deleted.status).toBe(200);
    await converges(app, owner, { quiet: true });
    expect([...app.albums.keys()]).toEqual([second]);
  });

  it("is learnt on a table from before markers, and a departed member deleting their photo still moves the owner's", async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'BeforeOwner');
    const member = await freshUser(accounts.admin.accessToken, 'BeforeMember');
    const mine = await addPhoto(owner.accessToken, { color: [30, 60, 90] });
    const album = (await createAlbum(owner.accessToken, { albumName: 'Before', assetIds: [mine] })).id as string;
    const share = { pathParameters: { id: album }, headers: bearer(owner.accessToken) };
    expect(
      (await invoke(addUsersHandler, { ...share, method: 'PUT', path: `/api/album/${album}/users`, body: { sharedUserIds: [member.id] } }))
        .status,
    ).toBe(200);
    const theirs = await addPhoto(member.accessToken, { color: [90, 60, 30] });
    expect((await addToAlbum(member.accessToken, album, [theirs])).status).toBe(200);
    // The member leaves; their photo stays in the album, which no longer names them.
    const left = await invoke(removeUserHandler, {
      ...share,
      method: 'DELETE',
      path: `/api/album/${album}/user/${member.id}`,
      pathParameters: { id: album, userId: member.id },
    });
    expect(left.status).toBe(200);
    // As a table from before: no marker for the owner, no owner on the album's summary item.
    await db.send(new DeleteCommand({ TableName: tableName, Key: keys.albumSyncMark(owner.id) }));
    await db.send(new UpdateCommand({ TableName: tableName, Key: keys.albumSummary(album), UpdateExpression: 'REMOVE ownerId' }));

    const app = new SyncClient(owner.accessToken);
    await app.sync();
    expect(appAlbums(app)).toEqual(await serverAlbums(owner.id));
    // The first sync read the albums and learnt the marker, giving the summary item its owner: the sync after the next is quiet.
    expect((await db.send(new GetCommand({ TableName: tableName, Key: keys.albumSummary(album) }))).Item?.ownerId).toBe(owner.id);
    await converges(app, owner, { quiet: true });

    // The former member deletes their photo for good: the asset function knows only the album's id, and finds its owner.
    expect((await trash(member.accessToken, [theirs], true)).status).toBe(204);
    await converges(app, owner, { quiet: true });
    expect(appAlbums(app)[album]?.assets).toEqual([mine]);
  });

  it('converges after concurrent writes to several albums', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'RacedOwner');
    const photos = await Promise.all([10, 20, 30, 40].map((n) => addPhoto(owner.accessToken, { color: [n, 100, 200 - n] })));
    const albums = await Promise.all(
      ['One', 'Two', 'Three'].map(
        async (albumName) => (await createAlbum(owner.accessToken, { albumName, assetIds: [photos[0]] })).id as string,
      ),
    );
    const app = new SyncClient(owner.accessToken);
    await converges(app, owner, { quiet: true });
    // Each album's writes and the others' at once: every one moves the marker, in whatever order they land.
    const replies = await Promise.all(
      albums.flatMap((id, n) => [
        addToAlbum(owner.accessToken, id, photos.slice(1 + (n % 3), 3 + (n % 3))),
        removeFromAlbum(owner.accessToken, id, [photos[0]]),
        invoke(updateAlbumHandler, {
          method: 'PATCH',
          path: `/api/album/${id}`,
          pathParameters: { id },
          headers: bearer(owner.accessToken),
          body: { albumName: `Raced ${n}` },
        }),
      ]),
    );
    expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 200));
    await converges(app, owner, { quiet: true });
  });

  it('moves the marker of a user the album gained after the writing request read it', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'SlowOwner');
    const member = await freshUser(accounts.admin.accessToken, 'SlowMember');
    const [first, later] = [
      await addPhoto(owner.accessToken, { color: [5, 5, 250] }),
      await addPhoto(owner.accessToken, { color: [250, 5, 5] }),
    ];
    const album = (await createAlbum(owner.accessToken, { albumName: 'Slow', assetIds: [first] })).id as string;
    // A request that read the album (and the photo) before it was shared, and writes after.
    const asRead = await albumRepo.get(owner.id, album);
    const laterAsset = await assetRepo.get(later);
    if (!asRead || !laterAsset) throw new Error('album or photo not found');
    const shared = await shareAlbum(owner.accessToken, album, [member.id]);
    expect(shared.status).toBe(200);
    const memberApp = new SyncClient(member.accessToken);
    await converges(memberApp, member, { quiet: true });
    expect((await albumRepo.addMembers(asRead, [laterAsset])).every((outcome) => outcome.ok)).toBe(true);
    await converges(memberApp, member, { quiet: true });
    expect(appAlbums(memberApp)[album]?.assets).toEqual([first, later].sort());
  });

  it('lets a user with a shared album read none of the albums while no other user of them changes a photo in an album', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'OthersOwner');
    const member = await freshUser(accounts.admin.accessToken, 'OthersMember');
    const third = await freshUser(accounts.admin.accessToken, 'OthersThird');
    const mine = await addPhoto(owner.accessToken, { color: [15, 150, 45] });
    const album = (await createAlbum(owner.accessToken, { albumName: 'Family', assetIds: [mine] })).id as string;
    expect((await shareAlbum(owner.accessToken, album, [member.id])).status).toBe(200);
    const [inAlbum, loose] = [
      await addPhoto(member.accessToken, { color: [150, 15, 45] }),
      await addPhoto(member.accessToken, { color: [45, 15, 150] }),
    ];
    expect((await addToAlbum(member.accessToken, album, [inAlbum])).status).toBe(200);
    const app = new SyncClient(owner.accessToken);
    await converges(app, owner, { quiet: true });
    const marker = async () => (await db.send(new GetCommand({ TableName: tableName, Key: keys.albumSyncMark(owner.id) }))).Item;
    expect((await marker())?.others).toEqual([member.id]);

    // The member changes a photo in no album: nothing for the owner, and no album read.
    expect((await updateAsset(member.accessToken, loose, { description: 'Not in an album' })).status).toBe(200);
    const past = await albumListReads(app, owner);
    expect(past).toMatchObject({ reads: 0 });
    expect(past.lines.filter((type) => type !== 'SyncAckV1')).toEqual(['SyncCompleteV1']);
    await converges(app, owner, { quiet: true });

    // The member changes their photo in the album: the owner's app gets it, and is quiet again after.
    expect((await updateAsset(member.accessToken, inAlbum, { description: 'In the album' })).status).toBe(200);
    const changed = await app.sync();
    expect(changed.filter((line) => line.type === 'AlbumAssetExifUpdateV1').map((line) => line.data.assetId)).toEqual([inAlbum]);
    expect(app.exifs.get(inAlbum)?.description).toBe('In the album');
    await converges(app, owner, { quiet: true });

    // Shared with a third user: the marker no longer knows the other users until a sync learns
    // them again, and the third user's photo in the album, then its change, reach the owner.
    expect((await shareAlbum(owner.accessToken, album, [third.id])).status).toBe(200);
    expect((await marker())?.others).toBeUndefined();
    const theirs = await addPhoto(third.accessToken, { color: [90, 90, 200] });
    expect((await addToAlbum(third.accessToken, album, [theirs])).status).toBe(200);
    await converges(app, owner, { quiet: true });
    expect((await marker())?.others).toEqual([member.id, third.id].sort());
    expect((await updateAsset(third.accessToken, theirs, { description: 'Third' })).status).toBe(200);
    await app.sync();
    expect(app.exifs.get(theirs)?.description).toBe('Third');
    await converges(app, owner, { quiet: true });
    expect(appAlbums(app)).toEqual(await serverAlbums(owner.id));
  });

  it('is quiet again after another user changes a photo in an album of theirs the user does not have', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'PrivateOwner');
    const member = await freshUser(accounts.admin.accessToken, 'PrivateMember');
    const mine = await addPhoto(owner.accessToken, { color: [15, 150, 46] });
    const album = (await createAlbum(owner.accessToken, { albumName: 'Family', assetIds: [mine] })).id as string;
    expect((await shareAlbum(owner.accessToken, album, [member.id])).status).toBe(200);
    const privatePhoto = await addPhoto(member.accessToken, { color: [46, 16, 151] });
    await createAlbum(member.accessToken, { albumName: 'Member private', assetIds: [privatePhoto] });
    const app = new SyncClient(owner.accessToken);
    await converges(app, owner, { quiet: true });
    // The member's photo is in an album, not one of the owner's: a sync reads the albums to know,
    // sends nothing of it and acks past it (each type; the app acks only the last of adjacent acks,
    // so one may take a second sync), and the syncs after are quiet.
    expect((await updateAsset(member.accessToken, privatePhoto, { description: 'Private' })).status).toBe(200);
    const reads: number[] = [];
    for (let n = 0; n < 4; n++) reads.push((await albumListReads(app, owner)).reads);
    expect(reads[0]).toBeGreaterThan(0);
    expect(reads.slice(2)).toEqual([0, 0]);
    expect(app.assets.has(privatePhoto)).toBe(false);
  });
});
