import { beforeAll, describe, expect, it } from 'vitest';
import { handler as login } from '#functions/auth/login.ts';
import { handler as getMyUserInfo } from '#functions/user/get-my-user-info.ts';
import { handler as updateUserV1 } from '#functions/user/update-user.ts';
import { handler as deleteUserOnboarding } from '#functions/v3/user/delete-user-onboarding.ts';
import { handler as getMyPreferences } from '#functions/v3/user/get-my-preferences.ts';
import { handler as getMyUser } from '#functions/v3/user/get-my-user.ts';
import { handler as setUserOnboarding } from '#functions/v3/user/set-user-onboarding.ts';
import { handler as updateMyPreferences } from '#functions/v3/user/update-my-preferences.ts';
import { handler as updateMyUser } from '#functions/v3/user/update-my-user.ts';
import { avatarColorFor } from '#shared/dto/common/avatar.ts';
import { bearer, ensureAdmin, fixtures, freshUser, login as signIn, unlockSession } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { SyncClient, sendAcks, syncStream } from '../support/sync-client.ts';
import { tableItems } from '../support/table-items.ts';

let user: Awaited<ReturnType<typeof freshUser>>;
beforeAll(async () => {
  await ensureAdmin();
  const admin = await signIn(fixtures.admin);
  user = await freshUser(admin.accessToken, 'Vera');
});

const me = () => invoke(getMyUser, { path: '/api/users/me', headers: bearer(user.accessToken) });
const preferences = () => invoke(getMyPreferences, { path: '/api/users/me/preferences', headers: bearer(user.accessToken) });
const setPreferences = (body: unknown) =>
  invoke(updateMyPreferences, { method: 'PUT', path: '/api/users/me/preferences', headers: bearer(user.accessToken), body });

describe('GET/PUT /users/me (v3)', () => {
  it("answers v3's admin shape of the same user v1.100's /user/me reads", async () => {
    const [v3, v1] = [await me(), await invoke(getMyUserInfo, { path: '/api/user/me', headers: bearer(user.accessToken) })];
    expect(v3.status).toBe(200);
    expect(Object.keys(v3.body).sort()).toEqual(
      [
        'avatarColor',
        'clusterGroupId',
        'createdAt',
        'deletedAt',
        'email',
        'id',
        'isAdmin',
        'license',
        'name',
        'oauthId',
        'profileChangedAt',
        'profileImagePath',
        'quotaSizeInBytes',
        'quotaUsageInBytes',
        'shouldChangePassword',
        'status',
        'storageLabel',
        'updatedAt',
      ].sort(),
    );
    expect(v3.body).toMatchObject({
      id: v1.body.id,
      email: 'vera@immich.cloud',
      name: 'Vera',
      avatarColor: v1.body.avatarColor,
      license: null,
      status: 'active',
    });
    expect(v1.body).not.toHaveProperty('license');
  });

  it('changes name, email and avatar colour, read back through v1.100; null colour goes back to the derived one', async () => {
    // The email and the password move only in a session unlocked with the PIN code (docs/immich-compatibility.md, "Users").
    await unlockSession(user.accessToken);
    const derived = (await me()).body.avatarColor;
    const changed = await invoke(updateMyUser, {
      method: 'PUT',
      path: '/api/users/me',
      headers: bearer(user.accessToken),
      body: { name: 'Vera V', email: 'Vera.V@Immich.Cloud', avatarColor: derived === 'green' ? 'red' : 'green' },
    });
    expect(changed).toMatchObject({ status: 200, body: { name: 'Vera V', email: 'vera.v@immich.cloud' } });
    const v1 = await invoke(getMyUserInfo, { path: '/api/user/me', headers: bearer(user.accessToken) });
    expect(v1.body).toMatchObject({ name: 'Vera V', email: 'vera.v@immich.cloud', avatarColor: changed.body.avatarColor });
    const reset = await invoke(updateMyUser, {
      method: 'PUT',
      path: '/api/users/me',
      headers: bearer(user.accessToken),
      body: { avatarColor: null },
    });
    // Derived from the new email, as Immich derives it.
    expect(reset.body.avatarColor).toBe(avatarColorFor('vera.v@immich.cloud'));
  });

  it('sets a new password, which needs no change after, and signs in with it', async () => {
    const changed = await invoke(updateMyUser, {
      method: 'PUT',
      path: '/api/users/me',
      headers: bearer(user.accessToken),
      body: { password: 'a-new-password-1' },
    });
    expect(changed).toMatchObject({ status: 200, body: { shouldChangePassword: false } });
    const reply = await invoke(login, {
      method: 'POST',
      path: '/api/auth/login',
      body: { email: 'vera.v@immich.cloud', password: 'a-new-password-1' },
    });
    expect(reply.status).toBe(201);
  });

  it("refuses another user's email and a bad body in v3's shape, changing nothing", async () => {
    const before = (await me()).body;
    const taken = await invoke(updateMyUser, {
      method: 'PUT',
      path: '/api/users/me',
      headers: bearer(user.accessToken),
      body: { email: fixtures.admin.email },
    });
    expect(taken.status).toBe(400);
    expect(Object.keys(taken.body)).toEqual(['message']);
    const bad = await invoke(updateMyUser, {
      method: 'PUT',
      path: '/api/users/me',
      headers: bearer(user.accessToken),
      body: { name: 7, avatarColor: 'plaid' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Validation failed');
    expect(bad.body.errors.map((issue: { path: string[] }) => issue.path)).toEqual([['name'], ['avatarColor']]);
    expect((await me()).body).toEqual(before);
  });
});

describe('GET/PUT /users/me/preferences (v3)', () => {
  it("answers Immich's defaults for a user who chose nothing, storing nothing", async () => {
    const reply = await preferences();
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      albums: { defaultAssetOrder: 'desc' },
      cast: { gCastEnabled: false },
      download: { archiveSize: 4 * 1024 ** 3, includeEmbeddedVideos: false },
      emailNotifications: { enabled: true, albumInvite: true, albumUpdate: true },
      folders: { enabled: false, sidebarWeb: false },
      memories: { enabled: true, duration: 5, sidebarWeb: false },
      people: { enabled: true, sidebarWeb: false, minimumFaces: 3 },
      purchase: { showSupportBadge: true, hideBuyButtonUntil: '2022-02-12T00:00:00.000Z' },
      ratings: { enabled: false },
      recentlyAdded: { sidebarWeb: false },
      sharedLinks: { enabled: true, sidebarWeb: false },
      tags: { enabled: false, sidebarWeb: false },
    });
    const stored = (await tableItems('user')).find((item) => item.id === user.userId);
    expect(stored).not.toHaveProperty('preferences');
  });

  it('changes only the named fields, keeps them, and drops unknown ones', async () => {
    const reply = await setPreferences({ tags: { enabled: true }, download: { archiveSize: 1_000_000 }, folders: {}, bogus: { x: 1 } });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      tags: { enabled: true, sidebarWeb: false },
      download: { archiveSize: 1_000_000, includeEmbeddedVideos: false },
    });
    expect(reply.body).not.toHaveProperty('bogus');
    expect((await preferences()).body).toEqual(reply.body);
    const stored = (await tableItems('user')).find((item) => item.id === user.userId);
    expect(stored?.preferences).toEqual({ tags: { enabled: true }, download: { archiveSize: 1_000_000 } });
    // Back to a default: no longer stored.
    await setPreferences({ tags: { enabled: false } });
    expect((await tableItems('user')).find((item) => item.id === user.userId)?.preferences).toEqual({
      download: { archiveSize: 1_000_000 },
    });
  });

  it("keeps memories on the user, so v1.100's memoriesEnabled and v3's memories.enabled are one setting", async () => {
    await setPreferences({ memories: { enabled: false } });
    const v1 = await invoke(getMyUserInfo, { path: '/api/user/me', headers: bearer(user.accessToken) });
    expect(v1.body.memoriesEnabled).toBe(false);
    await invoke(updateUserV1, {
      method: 'PUT',
      path: '/api/user',
      headers: bearer(user.accessToken),
      body: { id: user.userId, memoriesEnabled: true },
    });
    expect((await preferences()).body.memories.enabled).toBe(true);
  });

  it('sets the avatar colour through `avatar.color`', async () => {
    await setPreferences({ avatar: { color: 'amber' } });
    expect((await me()).body.avatarColor).toBe('amber');
  });

  it("refuses a bad value in v3's validation shape, changing nothing", async () => {
    const before = (await preferences()).body;
    const reply = await setPreferences({ memories: { duration: 0 }, albums: { defaultAssetOrder: 'sideways' }, people: 'yes' });
    expect(reply.status).toBe(400);
    expect(reply.body.errors.map((issue: { path: string[] }) => issue.path.join('.')).sort()).toEqual(
      ['albums.defaultAssetOrder', 'memories.duration', 'people'].sort(),
    );
    expect((await preferences()).body).toEqual(before);
  });
});

describe('the user’s preferences in the sync stream (v3)', () => {
  it('reach the app as Immich stores them: what differs from the defaults, memories off included; only when they change', async () => {
    const admin = await signIn(fixtures.admin);
    const member = await freshUser(admin.accessToken, 'Prefs');
    const client = new SyncClient(member.accessToken);
    await client.sync();
    // Nothing chosen: no row, as Immich.
    expect(client.metadata.has(`${member.userId}|preferences`)).toBe(false);

    // Memories off on the web, ratings and tags on, fewer faces a person: what the app reads.
    const put = (body: unknown) =>
      invoke(updateMyPreferences, { method: 'PUT', path: '/api/users/me/preferences', headers: bearer(member.accessToken), body });
    expect(
      (await put({ memories: { enabled: false }, ratings: { enabled: true }, tags: { enabled: true }, people: { minimumFaces: 1 } }))
        .status,
    ).toBe(200);
    await client.sync();
    expect(client.metadata.get(`${member.userId}|preferences`)).toEqual({
      memories: { enabled: false },
      ratings: { enabled: true },
      tags: { enabled: true },
      people: { minimumFaces: 1 },
    });

    // v1.100's own switch is the same setting.
    await invoke(updateUserV1, {
      method: 'PUT',
      path: '/api/user',
      headers: bearer(member.accessToken),
      body: { id: member.userId, memoriesEnabled: true },
    });
    const lines = await client.sync({ types: ['AuthUsersV1', 'UsersV1', 'UserMetadataV1'] });
    expect(lines.filter((line) => line.type === 'UserMetadataV1')).toHaveLength(1);
    expect(client.metadata.get(`${member.userId}|preferences`)).toEqual({
      ratings: { enabled: true },
      tags: { enabled: true },
      people: { minimumFaces: 1 },
    });

    // A change of the user that is not their metadata (their name, their usage) does not send it again.
    await invoke(updateMyUser, { method: 'PUT', path: '/api/users/me', headers: bearer(member.accessToken), body: { name: 'Prefs 2' } });
    const again = await client.sync({ types: ['AuthUsersV1', 'UsersV1', 'UserMetadataV1'] });
    expect(again.map((line) => line.type)).toEqual(['AuthUserV1', 'UserV1', 'SyncCompleteV1']);
    expect(client.users.get(member.userId)?.name).toBe('Prefs 2');
  });
});

describe('the user’s onboarding in the sync stream (v3)', () => {
  it('sends it once done, and its removal when undone (UserMetadataDeleteV1), as Immich’s user metadata', async () => {
    const admin = await signIn(fixtures.admin);
    const token = (await freshUser(admin.accessToken, 'Onboarder')).accessToken;
    const onboarding = (body: unknown) =>
      invoke(setUserOnboarding, { method: 'PUT', path: '/api/users/me/onboarding', headers: bearer(token), body });
    expect((await onboarding({ isOnboarded: true })).body).toEqual({ isOnboarded: true });
    const first = await syncStream(token, { types: ['UserMetadataV1'] });
    expect(first.lines.find((line) => line.data?.key === 'onboarding')?.data.value).toEqual({ isOnboarded: true });
    await sendAcks(
      token,
      first.lines.map((line) => line.ack),
    );

    expect(
      (await invoke(deleteUserOnboarding, { method: 'DELETE', path: '/api/users/me/onboarding', headers: bearer(token) })).status,
    ).toBe(204);
    const next = await syncStream(token, { types: ['UserMetadataV1'] });
    expect(next.lines.filter((line) => line.type === 'UserMetadataDeleteV1').map((line) => line.data.key)).toEqual(['onboarding']);
    expect(next.lines.some((line) => line.type === 'UserMetadataV1' && line.data.key === 'onboarding')).toBe(false);
    await sendAcks(
      token,
      next.lines.map((line) => line.ack),
    );
    // Undone again (already undone): nothing more to tell.
    expect((await onboarding({ isOnboarded: false })).body).toEqual({ isOnboarded: false });
    expect((await syncStream(token, { types: ['UserMetadataV1'] })).lines.filter((line) => line.type === 'UserMetadataDeleteV1')).toEqual(
      [],
    );
  });
});
