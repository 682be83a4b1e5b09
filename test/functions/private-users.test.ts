import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createAlbum } from '#functions/album/create-album.ts';
import { handler as createPartner } from '#functions/partner/create-partner.ts';
import { handler as getAllUsers } from '#functions/user/get-all-users.ts';
import { handler as getUserById } from '#functions/user/get-user-by-id.ts';
import { handler as getUserV3 } from '#functions/v3/user/get-user.ts';
import { handler as searchUsers } from '#functions/v3/user/search-users.ts';
import { getStoredConfig, replaceStoredConfig } from '#shared/db/config.repository.ts';
import { clearConfigCache } from '#shared/services/config.reader.ts';
import { bearer, ensureAdmin, fixtures, freshUser, login } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';

/**
 * Issue 49, Medium 4: with `server.publicUsers` off, a user's reads of users show only what v3's
 * GET /users shows (themselves), and a user by id only to someone connected to them: a partner (either
 * way) or an album's owner or member beside them. An admin sees everyone (docs/immich-compatibility.md).
 */

type Signed = Awaited<ReturnType<typeof freshUser>>;
let admin: { accessToken: string };
let me: Signed;
let partner: Signed;
let sharer: Signed;
let member: Signed;
let coMember: Signed;
let stranger: Signed;

const setPublicUsers = async (value: boolean) => {
  const stored = await getStoredConfig();
  await replaceStoredConfig({ ...stored.overrides, 'server.publicUsers': value }, stored.version);
  clearConfigCache();
};

beforeAll(async () => {
  await ensureAdmin();
  admin = await login(fixtures.admin);
  [me, partner, sharer, member, coMember, stranger] = (await Promise.all(
    ['Private', 'Partnered', 'Sharer', 'Member', 'CoMember', 'Stranger'].map((name) => freshUser(admin.accessToken, name)),
  )) as [Signed, Signed, Signed, Signed, Signed, Signed];
  const share = (token: string, id: string) =>
    invoke(createPartner, { method: 'POST', path: `/api/partner/${id}`, pathParameters: { id }, headers: bearer(token) });
  expect((await share(partner.accessToken, me.userId)).status).toBe(201);
  const album = (token: string, sharedWithUserIds: string[]) =>
    invoke(createAlbum, { method: 'POST', path: '/api/album', headers: bearer(token), body: { albumName: 'Together', sharedWithUserIds } });
  // Sharer's album shared with me; my album shared with member; a third's album with me and coMember.
  expect((await album(sharer.accessToken, [me.userId])).status).toBe(201);
  expect((await album(me.accessToken, [member.userId])).status).toBe(201);
  expect((await album(stranger.accessToken, [me.userId, coMember.userId])).status).toBe(201);
});

const emails = (users: { email: string }[]) => users.map((user) => user.email).sort();
const byIdV1 = (token: string, id: string) =>
  invoke(getUserById, { path: `/api/user/info/${id}`, pathParameters: { id }, headers: bearer(token) });
const byIdV3 = (token: string, id: string) =>
  invoke(getUserV3, { path: `/api/users/${id}`, pathParameters: { id }, headers: bearer(token) });

describe('users with `server.publicUsers` off (issue 49, Medium 4)', () => {
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
