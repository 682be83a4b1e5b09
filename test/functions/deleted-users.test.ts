import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAlbumCountHandler } from '#functions/album/get-album-count.ts';
import { handler as getAllAlbumsHandler } from '#functions/album/get-all-albums.ts';
import { handler as getAllAssetsHandler } from '#functions/asset/get-all-assets.ts';
import { handler as getTimeBucketsHandler } from '#functions/asset/get-time-buckets.ts';
import { handler as nightlyHandler } from '#functions/nightly/run-nightly-tasks.ts';
import { handler as createPartnerHandler } from '#functions/partner/create-partner.ts';
import { handler as getPartnersHandler } from '#functions/partner/get-partners.ts';
import { handler as updatePartnerHandler } from '#functions/partner/update-partner.ts';
import { handler as createLinkHandler } from '#functions/shared-link/create-shared-link.ts';
import { handler as deleteUserHandler } from '#functions/user/delete-user.ts';
import { handler as restoreUserHandler } from '#functions/user/restore-user.ts';
import { handler as createStackHandler } from '#functions/v3/stack/create-stack.ts';
import { handler as searchUsersHandler } from '#functions/v3/user/search-users.ts';
import { handler as deleteUserAdminHandler } from '#functions/v3/user-admin/delete-user-admin.ts';
import { handler as restoreUserAdminHandler } from '#functions/v3/user-admin/restore-user-admin.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, addToAlbum, albumInfo, assetInfo, createAlbum, updateAsset } from '../support/library.ts';
import { SyncClient } from '../support/sync-client.ts';
import { tableItems } from '../support/table-items.ts';

/**
 * A deleted user's library (docs/immich-compatibility.md, "A deleted user's library"): what the
 * other users' apps sync and the REST API show of it through a soft delete, a restore and the
 * nightly purge, and Immich's album e2e cases around a deleted owner.
 */

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
let adminToken: string;
beforeAll(async () => {
  accounts = await setupAccounts();
  adminToken = accounts.admin.accessToken;
});

type User = { userId: string; accessToken: string };

// The nights these tests run the nightly tasks at: nine days from now, past `user.deleteDelay`.
const today = new Date();
const night = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 9, 1, 0);
const tick = (hours: number) => nightlyHandler({ time: new Date(night + hours * 3_600_000).toISOString() });

const ids = (rows: { id: string }[]): string[] => rows.map((row) => row.id).sort();

/** What the REST API shows a user, and what their app's tables hold, side by side. */
const views = async (client: SyncClient, user: User) => {
  const token = user.accessToken;
  const partners = async (direction: string): Promise<string[]> =>
    ids((await invoke(getPartnersHandler, { path: '/api/partner', query: { direction }, headers: bearer(token) })).body);
  const sharingWithMe = await partners('shared-with');
  const albums = [
    ...(await invoke(getAllAlbumsHandler, { path: '/api/album', headers: bearer(token) })).body,
    ...(await invoke(getAllAlbumsHandler, { path: '/api/album', query: { shared: 'true' }, headers: bearer(token) })).body,
  ];
  const albumIds = [...new Set(albums.map((album: { id: string }) => album.id))].sort();
  const rest = {
    users: ids((await invoke(searchUsersHandler, { path: '/api/users', headers: bearer(token) })).body),
    sharingWithMe,
    sharedByMe: await partners('shared-by'),
    // A partner's photos (their timeline, as the app's partner view shows it).
    partnerAssets: Object.fromEntries(
      await Promise.all(
        sharingWithMe.map(async (partnerId) => [
          partnerId,
          ids((await invoke(getAllAssetsHandler, { path: '/api/asset', query: { userId: partnerId }, headers: bearer(token) })).body),
        ]),
      ),
    ),
    albums: Object.fromEntries(
      await Promise.all(
        albumIds.map(async (albumId) => {
          const info = (await albumInfo(token, albumId)).body;
          return [
            albumId,
            {
              users: [info.ownerId, ...info.sharedUsers.map((shared: { id: string }) => shared.id)].sort(),
              assets: ids(info.assets),
            },
          ];
        }),
      ),
    ),
  };
  const rows = <T>(map: Map<string, T>) => [...map.values()] as Record<string, any>[];
  const app = {
    users: rows(client.users)
      .filter((row) => row.deletedAt === null)
      .map((row) => String(row.id))
      .sort(),
    sharingWithMe: rows(client.partners)
      .filter((row) => row.sharedWithId === user.userId)
      .map((row) => String(row.sharedById))
      .sort(),
    sharedByMe: rows(client.partners)
      .filter((row) => row.sharedById === user.userId)
      .map((row) => String(row.sharedWithId))
      .sort(),
    // The app shows a partner's photos for the partners it holds (its partner table).
    partnerAssets: Object.fromEntries(
      sharingWithMe.map((partnerId) => [
        partnerId,
        rows(client.assets)
          .filter((row) => row.ownerId === partnerId && row.deletedAt === null)
          .map((row) => String(row.id))
          .sort(),
      ]),
    ),
    albums: Object.fromEntries(
      [...client.albums.keys()].sort().map((albumId) => [
        albumId,
        {
          users: rows(client.albumUsers)
            .filter((row) => row.albumId === albumId)
            .map((row) => String(row.userId))
            .sort(),
          assets: rows(client.albumAssets)
            .filter((row) => row.albumId === albumId && client.assets.get(row.assetId)?.deletedAt === null)
            .map((row) => String(row.assetId))
            .sort(),
        },
      ]),
    ),
  };
  return { rest, app };
};

/** Syncs the user's app as the 3.x app does, then checks it against the REST API; the lines it got. */
const syncAndCompare = async (client: SyncClient, user: User): Promise<string[]> => {
  const lines = await client.sync();
  const { rest, app } = await views(client, user);
  expect(app).toEqual(rest);
  return lines.map((line) => line.type);
};

/** Every row of the app's tables that names the user. */
const rowsNaming = (client: SyncClient, userId: string): string[] =>
  (['users', 'partners', 'assets', 'albumUsers', 'stacks', 'people', 'memories', 'userMetadata'] as const).flatMap((table) =>
    [...client.store.table(table).values()]
      .filter((row) => Object.values(row).includes(userId))
      .map((row) => `${table}: ${JSON.stringify(row)}`),
  );

// A family whose member Dana is deleted (docs/immich-compatibility.md, "A deleted user's library"):
// her own albums are shared with Olga and Pat, she is in Olga's album with photos of her own, she
// and Pat share their libraries both ways, and she has a stack and a face. After each step (soft
// delete, restore, soft delete again, the nightly purge) every other user's app, synced as the 3.x
// app syncs (test/support/sync-client.ts), holds what the REST API shows them. First in the file: its
// nightly ticks purge every user deleted by then, and count them.
describe('a deleted user in a family, as the other users’ apps sync it', () => {
  it('soft-deleted, restored, soft-deleted again and purged: every app agrees with the REST API at each step', async () => {
    const dana = await freshUser(adminToken, 'Dana');
    const olga = await freshUser(adminToken, 'Olga');
    const pat = await freshUser(adminToken, 'Pat');
    const photo = (user: User, n: number) =>
      addPhoto(user.accessToken, {
        color: [n * 20, 90, 40],
        dateTimeOriginal: `2023:05:0${n} 10:00:00`,
        offsetTimeOriginal: '+00:00',
      });

    // Dana's library: photos, a stack of two, a face.
    const [d1, d2, d3, d4] = [await photo(dana, 1), await photo(dana, 2), await photo(dana, 3), await photo(dana, 4)];
    const face = await addPhoto(dana.accessToken, { color: [5, 5, 200], mwgFaces: [{ name: 'Grandma', x: 0.2, y: 0.2, w: 0.3, h: 0.3 }] });
    const stack = await invoke(createStackHandler, {
      method: 'POST',
      path: '/api/stacks',
      headers: bearer(dana.accessToken),
      body: { assetIds: [d3, d4] },
    });
    expect(stack.status, JSON.stringify(stack.body)).toBe(201);
    const [o1, p1] = [await photo(olga, 5), await photo(pat, 6)];

    // Dana's albums, shared with Olga and Pat (Pat adds a photo of his own to one).
    const trip = await createAlbum(dana.accessToken, {
      albumName: 'Trip',
      assetIds: [d1, d2],
      sharedWithUserIds: [olga.userId, pat.userId],
    });
    const garden = await createAlbum(dana.accessToken, { albumName: 'Garden', assetIds: [face], sharedWithUserIds: [olga.userId] });
    expect((await addToAlbum(pat.accessToken, trip.id, [p1])).body).toEqual([{ id: p1, success: true }]);
    // Olga's album, shared with Dana and Pat, holding photos of Dana's too.
    const party = await createAlbum(olga.accessToken, { albumName: 'Party', assetIds: [o1], sharedWithUserIds: [dana.userId, pat.userId] });
    expect((await addToAlbum(dana.accessToken, party.id, [d2, d3])).body).toEqual([
      { id: d2, success: true },
      { id: d3, success: true },
    ]);
    // Dana and Pat share their libraries both ways; each shows the other's in their timeline.
    for (const [from, to] of [
      [dana, pat],
      [pat, dana],
    ] as const) {
      const shared = await invoke(createPartnerHandler, {
        method: 'POST',
        path: `/api/partner/${to.userId}`,
        pathParameters: { id: to.userId },
        headers: bearer(from.accessToken),
      });
      expect(shared.status).toBe(201);
      await invoke(updatePartnerHandler, {
        method: 'PUT',
        path: `/api/partner/${from.userId}`,
        pathParameters: { id: from.userId },
        headers: bearer(to.accessToken),
        body: { inTimeline: true },
      });
    }

    const others = [olga, pat].map((user) => ({ user, client: new SyncClient(user.accessToken) }));
    const everyone = async () => {
      const seen: Record<string, string[]> = {};
      for (const { user, client } of others) seen[user.userId] = await syncAndCompare(client, user);
      return seen;
    };
    const before = await everyone();
    // Pat's app has Dana's library and stack as a partner's, and both see Dana's albums.
    expect(before[pat.userId]).toEqual(expect.arrayContaining(['PartnerAssetV2', 'PartnerStackV1', 'AlbumV2']));
    const patApp = others[1]?.client as SyncClient;
    expect(patApp.stacks.size).toBe(1);
    expect([...patApp.albums.keys()].sort()).toEqual([trip.id, party.id].sort());
    expect(others[0]?.client.albums.has(garden.id)).toBe(true);

    // 1. Soft delete (v3's admin route): her albums and her partner shares leave the apps.
    const deleted = await invoke(deleteUserAdminHandler, {
      method: 'DELETE',
      path: `/api/admin/users/${dana.userId}`,
      pathParameters: { id: dana.userId },
      headers: bearer(adminToken),
      body: {},
    });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const afterDelete = await everyone();
    expect(afterDelete[olga.userId]).toEqual(expect.arrayContaining(['UserV1', 'AlbumDeleteV1']));
    expect(afterDelete[pat.userId]).toEqual(expect.arrayContaining(['UserV1', 'PartnerDeleteV1', 'AlbumDeleteV1']));
    for (const { client } of others) {
      expect(client.albums.has(trip.id) || client.albums.has(garden.id)).toBe(false);
      expect(client.users.get(dana.userId)?.deletedAt).toEqual(expect.any(String));
      // Olga's album keeps Dana and her photos there, as the REST API shows them (checked above).
      expect(client.albumAssets.has(`${party.id}|${d2}`)).toBe(true);
    }
    expect(patApp.partners.size).toBe(0);

    // 2. Restore (v1.100's route): everything comes back, the albums and the partner's library as backfills.
    const restored = await invoke(restoreUserHandler, {
      method: 'POST',
      path: `/api/user/${dana.userId}/restore`,
      pathParameters: { id: dana.userId },
      headers: bearer(adminToken),
    });
    expect(restored.status).toBe(201);
    const afterRestore = await everyone();
    expect(afterRestore[olga.userId]).toEqual(
      expect.arrayContaining(['AlbumV2', 'AlbumUserBackfillV1', 'AlbumToAssetBackfillV1', 'AlbumAssetBackfillV2']),
    );
    expect(afterRestore[pat.userId]).toEqual(
      expect.arrayContaining(['PartnerV1', 'PartnerAssetBackfillV2', 'PartnerStackBackfillV1', 'AlbumToAssetBackfillV1']),
    );
    expect(patApp.albumAssets.has(`${trip.id}|${p1}`)).toBe(true);
    expect(patApp.partners.size).toBe(2);
    expect(others.map(({ client }) => client.users.get(dana.userId)?.deletedAt)).toEqual([null, null]);

    // 3. Soft-deleted again (v1.100's route): gone from the apps again.
    const again = await invoke(deleteUserHandler, {
      method: 'DELETE',
      path: `/api/user/${dana.userId}`,
      pathParameters: { id: dana.userId },
      headers: bearer(adminToken),
    });
    expect(again.status).toBe(200);
    await everyone();
    expect(patApp.partners.size).toBe(0);

    // 4. The nightly purge, past `user.deleteDelay` (7 days): every user's app gets UserDeleteV1,
    // and its own cascade drops the rest; Olga's album loses Dana and her photos.
    const purge = await tick(0);
    expect(purge.purge).toMatchObject({ users: 1, done: true });
    expect(purge.purge?.assets).toBeGreaterThanOrEqual(5);
    const afterPurge = await everyone();
    for (const { user, client } of others) {
      expect(afterPurge[user.userId]).toEqual(expect.arrayContaining(['UserDeleteV1']));
      expect(rowsNaming(client, dana.userId)).toEqual([]);
      expect(client.albumUsers.has(`${party.id}|${dana.userId}`)).toBe(false);
    }
    expect((await albumInfo(olga.accessToken, party.id)).body.assets.map((asset: { id: string }) => asset.id)).toEqual([o1]);
    // Pat's own photo, which was in Dana's album, is still his.
    expect(patApp.assets.get(p1)).toMatchObject({ ownerId: pat.userId });

    // Nothing of hers is left in the table but what expires by itself (the apps' deletion records).
    // (A string set, such as an album's entries' owners, read as its members.)
    const text = (item: Record<string, unknown>) => JSON.stringify(item, (_key, value) => (value instanceof Set ? [...value] : value));
    const left = (await tableItems()).filter((item) => text(item).includes(dana.userId));
    expect(left.map((item) => String(item.type)).filter((type) => !['deletion', 'audit', 'term'].includes(type))).toEqual([]);
    // Dana's email can be used again.
    expect((await freshUser(adminToken, 'Dana')).userId).not.toBe(dana.userId);
  });

  it('a user deleted with force cannot be restored, and is removed at the next tick', async () => {
    const gone = await freshUser(adminToken, 'Forced');
    await addPhoto(gone.accessToken, { color: [1, 2, 3] });
    const forced = await invoke(deleteUserAdminHandler, {
      method: 'DELETE',
      path: `/api/admin/users/${gone.userId}`,
      pathParameters: { id: gone.userId },
      headers: bearer(adminToken),
      body: { force: true },
    });
    expect(forced.body).toMatchObject({ status: 'removing' });
    const restore = await invoke(restoreUserAdminHandler, {
      method: 'POST',
      path: `/api/admin/users/${gone.userId}/restore`,
      pathParameters: { id: gone.userId },
      headers: bearer(adminToken),
    });
    expect(restore).toMatchObject({ status: 400, body: { message: 'User is being removed' } });
    // Any tick removes it, however recent the delete (after the first test, one between nights).
    expect(await tick(1)).toMatchObject({ purge: { users: 1, assets: 1, done: true } });
    expect((await tableItems('user')).some((item) => item.id === gone.userId)).toBe(false);
    // Nothing left to do: the next tick does nothing (and is not counted as a run).
    expect(await tick(2)).toEqual({ slot: new Date(night - 3_600_000).toISOString(), ran: false });
  });
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
const replyIds = (reply: { body: { id: string }[] }) => reply.body.map((each) => each.id).sort();

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
      partners: replyIds(
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
      sharedAlbums: replyIds(await albums(partner.accessToken, { shared: 'true' })),
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
