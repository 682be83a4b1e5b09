import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getConfigHandler } from '#functions/system-config/get-config.ts';
import { handler as updateConfigHandler } from '#functions/system-config/update-config.ts';
import { handler as addAssetsToAlbum } from '#functions/v3/album/add-assets-to-album.ts';
import { handler as addUsersHandler } from '#functions/v3/album/add-users-to-album.ts';
import { handler as removeUserHandler } from '#functions/v3/album/remove-user-from-album.ts';
import { handler as createPartner } from '#functions/v3/partner/create-partner.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, createAlbum } from '../support/library.ts';
import { SyncClient, type SyncLine } from '../support/sync-client.ts';

// Medium 4 of issue 49, the sync part: with `server.publicUsers` off, an app's UsersV1 lines are
// the user and those they are connected to, never every user of the server
// (docs/immich-compatibility.md, "The sync stream").

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
  const admin = bearer(accounts.admin.accessToken);
  const config = (await invoke(getConfigHandler, { path: '/api/system-config', headers: admin })).body;
  const reply = await invoke(updateConfigHandler, {
    method: 'PUT',
    path: '/api/system-config',
    headers: admin,
    body: { ...config, server: { ...config.server, publicUsers: false } },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
});

const userLines = (lines: SyncLine[]) => lines.filter((line) => line.type === 'UserV1').map((line) => line.data.id as string);
const addUsers = async (token: string, albumId: string, userIds: string[]) =>
  expect(
    (
      await invoke(addUsersHandler, {
        method: 'PUT',
        path: `/api/albums/${albumId}/users`,
        headers: bearer(token),
        pathParameters: { id: albumId },
        body: { albumUsers: userIds.map((userId) => ({ userId, role: 'editor' })) },
      })
    ).status,
  ).toBe(200);

describe('UsersV1 with server.publicUsers off', () => {
  it('lists the user, their partners, their albums’ users and the owners of what is in them; a new connection sends its user', async () => {
    const [ana, pia, max, xen, sam] = [
      await freshUser(accounts.admin.accessToken, 'PrivAna'),
      await freshUser(accounts.admin.accessToken, 'PrivPia'),
      await freshUser(accounts.admin.accessToken, 'PrivMax'),
      await freshUser(accounts.admin.accessToken, 'PrivXen'),
      await freshUser(accounts.admin.accessToken, 'PrivSam'),
    ];
    // Pia shares her library with Ana; Ana's album is shared with Max and Xen; Xen adds a photo and leaves.
    const piaPhoto = await addPhoto(pia.accessToken, { color: [1, 2, 3] });
    expect(
      (
        await invoke(createPartner, {
          method: 'POST',
          path: '/api/partners',
          headers: bearer(pia.accessToken),
          body: { sharedWithId: ana.id },
        })
      ).status,
    ).toBe(201);
    const album = (await createAlbum(ana.accessToken, { albumName: 'Family', sharedWithUserIds: [max.id, xen.id] })).id as string;
    const xenPhoto = await addPhoto(xen.accessToken, { color: [3, 2, 1] });
    const added = await invoke(addAssetsToAlbum, {
      method: 'PUT',
      path: `/api/albums/${album}/assets`,
      headers: bearer(xen.accessToken),
      pathParameters: { id: album },
      body: { ids: [xenPhoto] },
    });
    expect(added.body).toEqual([{ id: xenPhoto, success: true }]);
    const removed = await invoke(removeUserHandler, {
      method: 'DELETE',
      path: `/api/albums/${album}/user/me`,
      headers: bearer(xen.accessToken),
      pathParameters: { id: album, userId: 'me' },
    });
    expect(removed.status).toBe(204);

    const anaSync = new SyncClient(ana.accessToken);
    const lines = await anaSync.sync();
    expect(new Set(userLines(lines))).toEqual(new Set([ana.id, pia.id, max.id, xen.id]));
    expect(anaSync.assets.has(piaPhoto)).toBe(true);
    expect(anaSync.assets.has(xenPhoto)).toBe(true);

    // Sam, a stranger until now, joins the album: Ana's app gets his user (he did not change).
    await addUsers(ana.accessToken, album, [sam.id]);
    expect(userLines(await anaSync.sync())).toEqual([sam.id]);
    // Sam's app: the album's users and Xen, whose photo is in it; not Ana's partner.
    const samSync = new SyncClient(sam.accessToken);
    expect(new Set(userLines(await samSync.sync()))).toEqual(new Set([sam.id, ana.id, max.id, xen.id]));
    expect(samSync.assets.has(xenPhoto)).toBe(true);

    // A change of a stranger's is not sent; one of a connected user's is.
    await addPhoto(accounts.user1.accessToken, { color: [9, 9, 9] });
    await addPhoto(max.accessToken, { color: [8, 8, 8] });
    expect(userLines(await anaSync.sync())).toEqual([max.id]);
  });

  it('lists every user to the admin, as GET /users does', async () => {
    const admin = new SyncClient(accounts.admin.accessToken);
    const ids = userLines(await admin.sync());
    expect(ids).toEqual(expect.arrayContaining([accounts.admin.userId, accounts.user1.id, accounts.user2.id]));
  });
});
