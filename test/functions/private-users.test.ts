import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createAlbumV1 } from '#functions/album/create-album.ts';
import { handler as createPartnerV1 } from '#functions/partner/create-partner.ts';
import { handler as getConfigHandler } from '#functions/system-config/get-config.ts';
import { handler as updateConfigHandler } from '#functions/system-config/update-config.ts';
import { handler as getAllUsers } from '#functions/user/get-all-users.ts';
import { handler as getUserById } from '#functions/user/get-user-by-id.ts';
import { handler as addAssetsToAlbum } from '#functions/v3/album/add-assets-to-album.ts';
import { handler as addUsersHandler } from '#functions/v3/album/add-users-to-album.ts';
import { handler as removeUserHandler } from '#functions/v3/album/remove-user-from-album.ts';
import { handler as createPartner } from '#functions/v3/partner/create-partner.ts';
import { handler as getUserV3 } from '#functions/v3/user/get-user.ts';
import { handler as searchUsers } from '#functions/v3/user/search-users.ts';
import * as configRepo from '#shared/db/config.repository.ts';
import { clearConfigCache } from '#shared/services/config.reader.ts';
import { bearer, ensureAdmin, fixtures, freshUser, login, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, createAlbum } from '../support/library.ts';
import { SyncClient, type SyncLine } from '../support/sync-client.ts';

/**
 * Issue 49, Medium 4: with `server.publicUsers` off, a user's reads of users show only what v3's
 * GET /users shows (themselves), and a user by id only to someone connected to them: a partner (either
 * way) or an album's owner or member beside them; an app's sync sends the users it is connected
 * to. An admin sees everyone (docs/immich-compatibility.md).
 */

let accounts: Awaited<ReturnType<typeof setupAccounts>>;

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

// The sync part: an app's UsersV1 lines are the user and those they are connected to, never every
// user of the server (docs/immich-compatibility.md, "The sync stream"). First in the file: it
// signs up the admin and the two users of setupAccounts.
describe('UsersV1 with server.publicUsers off', () => {
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

type Signed = Awaited<ReturnType<typeof freshUser>>;
let admin: { accessToken: string };
let me: Signed;
let partner: Signed;
let sharer: Signed;
let member: Signed;
let coMember: Signed;
let stranger: Signed;

const setPublicUsers = async (value: boolean) => {
  const stored = await configRepo.getStoredConfig();
  await configRepo.replaceStoredConfig({ ...stored.overrides, 'server.publicUsers': value }, stored.version);
  clearConfigCache();
};

const emails = (users: { email: string }[]) => users.map((user) => user.email).sort();
const byIdV1 = (token: string, id: string) =>
  invoke(getUserById, { path: `/api/user/info/${id}`, pathParameters: { id }, headers: bearer(token) });
const byIdV3 = (token: string, id: string) =>
  invoke(getUserV3, { path: `/api/users/${id}`, pathParameters: { id }, headers: bearer(token) });

describe('users with `server.publicUsers` off (issue 49, Medium 4)', () => {
  beforeAll(async () => {
    await ensureAdmin();
    admin = await login(fixtures.admin);
    [me, partner, sharer, member, coMember, stranger] = (await Promise.all(
      ['Private', 'Partnered', 'Sharer', 'Member', 'CoMember', 'Stranger'].map((name) => freshUser(admin.accessToken, name)),
    )) as [Signed, Signed, Signed, Signed, Signed, Signed];
    const share = (token: string, id: string) =>
      invoke(createPartnerV1, { method: 'POST', path: `/api/partner/${id}`, pathParameters: { id }, headers: bearer(token) });
    expect((await share(partner.accessToken, me.userId)).status).toBe(201);
    const album = (token: string, sharedWithUserIds: string[]) =>
      invoke(createAlbumV1, {
        method: 'POST',
        path: '/api/album',
        headers: bearer(token),
        body: { albumName: 'Together', sharedWithUserIds },
      });
    // Sharer's album shared with me; my album shared with member; a third's album with me and coMember.
    expect((await album(sharer.accessToken, [me.userId])).status).toBe(201);
    expect((await album(me.accessToken, [member.userId])).status).toBe(201);
    expect((await album(stranger.accessToken, [me.userId, coMember.userId])).status).toBe(201);
  });

  it("lists only the caller through v1.100's GET /user, as v3's GET /users; an admin everyone", async () => {
    await setPublicUsers(false);
    const v1 = await invoke(getAllUsers, { path: '/api/user', headers: bearer(me.accessToken) });
    expect(v1.status).toBe(200);
    expect(emails(v1.body)).toEqual([me.email]);
    expect(emails((await invoke(searchUsers, { path: '/api/users', headers: bearer(me.accessToken) })).body)).toEqual([me.email]);
    const all = emails((await invoke(getAllUsers, { path: '/api/user', headers: bearer(admin.accessToken) })).body);
    expect(all).toEqual(expect.arrayContaining([me.email, partner.email, stranger.email]));
  });

  it('answers a user by id only to themselves, an admin, a partner either way and album owners and members beside them', async () => {
    await setPublicUsers(false);
    for (const read of [byIdV1, byIdV3]) {
      expect((await read(me.accessToken, me.userId)).body.email).toBe(me.email);
      for (const other of [partner, sharer, member, coMember, stranger]) {
        const reply = await read(me.accessToken, other.userId);
        expect(reply.status, other.email).toBe(200);
        expect(reply.body.email).toBe(other.email);
        // And the other way round.
        expect((await read(other.accessToken, me.userId)).body.email, other.email).toBe(me.email);
      }
      // Not connected to each other: answered as a user that does not exist (no email, no name).
      for (const [who, whom] of [
        [partner, sharer],
        [member, coMember],
        [sharer, member],
      ] as const) {
        const hidden = await read(who.accessToken, whom.userId);
        const missing = await read(who.accessToken, '00000000-0000-4000-8000-000000000000');
        expect(hidden.status, `${who.email} → ${whom.email}`).toBe(missing.status);
        expect(hidden.body).toEqual(missing.body);
        expect(JSON.stringify(hidden.body)).not.toContain(whom.email);
      }
      expect((await read(admin.accessToken, stranger.userId)).body.email).toBe(stranger.email);
    }
  });

  it('shows everyone again once public (the default)', async () => {
    await setPublicUsers(true);
    expect((await byIdV3(partner.accessToken, sharer.userId)).body.email).toBe(sharer.email);
    expect((await byIdV1(member.accessToken, coMember.userId)).body.email).toBe(coMember.email);
    const v1 = await invoke(getAllUsers, { path: '/api/user', headers: bearer(me.accessToken) });
    expect(emails(v1.body)).toEqual(expect.arrayContaining([me.email, partner.email, stranger.email]));
  });
});
