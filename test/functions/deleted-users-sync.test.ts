import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAllAlbumsHandler } from '#functions/album/get-all-albums.ts';
import { handler as getAllAssetsHandler } from '#functions/asset/get-all-assets.ts';
import { handler as nightlyHandler } from '#functions/nightly/run-nightly-tasks.ts';
import { handler as createPartnerHandler } from '#functions/partner/create-partner.ts';
import { handler as getPartnersHandler } from '#functions/partner/get-partners.ts';
import { handler as updatePartnerHandler } from '#functions/partner/update-partner.ts';
import { handler as deleteUserHandler } from '#functions/user/delete-user.ts';
import { handler as restoreUserHandler } from '#functions/user/restore-user.ts';
import { handler as createStackHandler } from '#functions/v3/stack/create-stack.ts';
import { handler as searchUsersHandler } from '#functions/v3/user/search-users.ts';
import { handler as deleteUserAdminHandler } from '#functions/v3/user-admin/delete-user-admin.ts';
import { handler as restoreUserAdminHandler } from '#functions/v3/user-admin/restore-user-admin.ts';
import { bearer, freshUser, login, signUpAdmin } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, addToAlbum, albumInfo, createAlbum } from '../support/library.ts';
import { SyncClient } from '../support/sync-client.ts';
import { tableItems } from '../support/table-items.ts';

// A family whose member Dana is deleted (docs/immich-compatibility.md, "A deleted user's library"):
// her own albums are shared with Olga and Pat, she is in Olga's album with photos of her own, she
// and Pat share their libraries both ways, and she has a stack and a face. After each step (soft
// delete, restore, soft delete again, the nightly purge) every other user's app, synced as the 3.x
// app syncs (test/support/sync-client.ts), holds what the REST API shows them.

type User = { userId: string; accessToken: string };

let adminToken: string;
beforeAll(async () => {
  await signUpAdmin();
  adminToken = (await login({ email: 'admin@immich.cloud', password: 'password' })).accessToken;
});

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
    const left = (await tableItems()).filter((item) => JSON.stringify(item).includes(dana.userId));
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
