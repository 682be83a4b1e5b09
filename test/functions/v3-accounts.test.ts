import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAuthDevicesV1 } from '#functions/auth/get-auth-devices.ts';
import { handler as getServerConfigV1 } from '#functions/server-info/get-server-config.ts';
import { handler as createUserV1 } from '#functions/user/create-user.ts';
import { handler as getMyUserInfoV1 } from '#functions/user/get-my-user-info.ts';
import { handler as updateUserV1 } from '#functions/user/update-user.ts';
import { handler as getAboutInfo } from '#functions/v3/server/get-about-info.ts';
import { handler as getServerStatistics } from '#functions/v3/server/get-server-statistics.ts';
import { handler as getStorage } from '#functions/v3/server/get-storage.ts';
import { handler as getVersionHistory } from '#functions/v3/server/get-version-history.ts';
import { handler as createSession } from '#functions/v3/session/create-session.ts';
import { handler as deleteAllSessions } from '#functions/v3/session/delete-all-sessions.ts';
import { handler as deleteSession } from '#functions/v3/session/delete-session.ts';
import { handler as getSessions } from '#functions/v3/session/get-sessions.ts';
import { handler as getAdminOnboarding } from '#functions/v3/system-metadata/get-admin-onboarding.ts';
import { handler as getReverseGeocodingState } from '#functions/v3/system-metadata/get-reverse-geocoding-state.ts';
import { handler as updateAdminOnboarding } from '#functions/v3/system-metadata/update-admin-onboarding.ts';
import { handler as createProfileImage } from '#functions/v3/user/create-profile-image.ts';
import { handler as deleteProfileImage } from '#functions/v3/user/delete-profile-image.ts';
import { handler as getProfileImage } from '#functions/v3/user/get-profile-image.ts';
import { handler as getUser } from '#functions/v3/user/get-user.ts';
import { handler as searchUsers } from '#functions/v3/user/search-users.ts';
import { handler as createUserAdmin } from '#functions/v3/user-admin/create-user-admin.ts';
import { handler as deleteUserAdmin } from '#functions/v3/user-admin/delete-user-admin.ts';
import { handler as getUserAdmin } from '#functions/v3/user-admin/get-user-admin.ts';
import { handler as getUserPreferencesAdmin } from '#functions/v3/user-admin/get-user-preferences-admin.ts';
import { handler as getUserSessionsAdmin } from '#functions/v3/user-admin/get-user-sessions-admin.ts';
import { handler as getUserStatisticsAdmin } from '#functions/v3/user-admin/get-user-statistics-admin.ts';
import { handler as restoreUserAdmin } from '#functions/v3/user-admin/restore-user-admin.ts';
import { handler as searchUsersAdmin } from '#functions/v3/user-admin/search-users-admin.ts';
import { handler as updateUserAdmin } from '#functions/v3/user-admin/update-user-admin.ts';
import { handler as updateUserPreferencesAdmin } from '#functions/v3/user-admin/update-user-preferences-admin.ts';
import { db, tableName } from '#shared/db/client.ts';
import * as keys from '#shared/db/item-keys.ts';
import { bearer, createApiKey, freshUser, login, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, trash } from '../support/library.ts';
import { makeJpeg } from '../support/photos.ts';
import { tableItems } from '../support/table-items.ts';
import { multipart } from '../support/uploads.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const get = (
  handler: typeof getSessions,
  path: string,
  token: string,
  pathParameters?: Record<string, string>,
  query?: Record<string, string>,
) => invoke(handler, { path, headers: bearer(token), ...(pathParameters ? { pathParameters } : {}), ...(query ? { query } : {}) });

describe('sessions (v3)', () => {
  it('lists the caller’s sessions as v1.100’s devices, ends one, then every other', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Sessions');
    const credentials = { email: 'sessions@immich.cloud', password: 'password-Sessions' };
    const [second, third] = [await login(credentials), await login(credentials)];
    const listed = await get(getSessions, '/api/sessions', user.accessToken);
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(3);
    expect(listed.body.filter((session: { current: boolean }) => session.current)).toHaveLength(1);
    expect(listed.body[0]).toMatchObject({ appVersion: null, isPendingSyncReset: false, expiresAt: expect.any(String) });
    const v1 = await get(getAuthDevicesV1, '/api/auth/devices', user.accessToken);
    expect(v1.body.map((device: { id: string }) => device.id).sort()).toEqual(listed.body.map((s: { id: string }) => s.id).sort());

    const other = listed.body.find((session: { current: boolean }) => !session.current);
    const ended = await invoke(deleteSession, {
      method: 'DELETE',
      path: `/api/sessions/${other.id}`,
      headers: bearer(user.accessToken),
      pathParameters: { id: other.id },
    });
    expect(ended.status).toBe(204);
    expect((await get(getSessions, '/api/sessions', user.accessToken)).body).toHaveLength(2);
    const all = await invoke(deleteAllSessions, { method: 'DELETE', path: '/api/sessions', headers: bearer(user.accessToken) });
    expect(all.status).toBe(204);
    expect((await get(getSessions, '/api/sessions', user.accessToken)).body).toHaveLength(1);
    for (const token of [second.accessToken, third.accessToken]) {
      expect((await get(getMyUserInfoV1, '/api/user/me', token)).status).toBe(401);
    }
  });
});

describe('POST /sessions (v3: the web app casts with a session of its own)', () => {
  it('makes a session of the caller’s for a while, named by its device; its token works once answered, and is stored only hashed', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Caster');
    const made = await invoke(createSession, {
      method: 'POST',
      path: '/api/sessions',
      headers: bearer(user.accessToken),
      body: { duration: 3600, deviceType: 'Google Cast', deviceOS: 'Cast' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ current: false, deviceType: 'Google Cast', deviceOS: 'Cast', token: expect.any(String) });
    const expires = Date.parse(made.body.expiresAt) - Date.now();
    expect(expires).toBeGreaterThan(3500_000);
    expect(expires).toBeLessThanOrEqual(3600_000);
    expect((await get(getMyUserInfoV1, '/api/user/me', made.body.token)).body).toMatchObject({ id: user.userId });
    const listed = (await get(getSessions, '/api/sessions', user.accessToken)).body as { id: string; deviceType: string }[];
    expect(listed.find((session) => session.id === made.body.id)?.deviceType).toBe('Google Cast');
    expect(JSON.stringify(await tableItems())).not.toContain(made.body.token);
    // Only a session may make one (an API key cannot), and a duration is at least a second.
    const key = (await createApiKey(user.accessToken, 'caster')).secret as string;
    expect(
      (await invoke(createSession, { method: 'POST', path: '/api/sessions', headers: { 'x-api-key': key }, body: {} })).body,
    ).toMatchObject({ message: 'This endpoint can only be used with a session token' });
    expect(
      (await invoke(createSession, { method: 'POST', path: '/api/sessions', headers: bearer(user.accessToken), body: { duration: 0 } }))
        .status,
    ).toBe(400);
  });
});

describe('/server and /system-metadata (v3)', () => {
  it('answers about, storage (the caller’s quota) and the version served', async () => {
    expect((await get(getAboutInfo, '/api/server/about', accounts.user1.accessToken)).body).toMatchObject({
      version: 'v3.2.2',
      licensed: false,
    });
    expect((await get(getStorage, '/api/server/storage', accounts.user1.accessToken)).body).toMatchObject({
      diskSizeRaw: expect.any(Number),
      diskUseRaw: expect.any(Number),
      diskUsagePercentage: expect.any(Number),
    });
    const history = await invoke(getVersionHistory, { path: '/api/server/version-history' });
    expect(history.body).toEqual([{ id: expect.any(String), createdAt: expect.any(String), version: '3.2.2' }]);
  });

  it('records the admin’s onboarding, read by v1.100’s server config too; only the admin', async () => {
    const admin = accounts.admin.accessToken;
    const set = (token: string, isOnboarded: unknown) =>
      invoke(updateAdminOnboarding, {
        method: 'POST',
        path: '/api/system-metadata/admin-onboarding',
        headers: bearer(token),
        body: { isOnboarded },
      });
    expect((await set(admin, true)).status).toBe(204);
    expect((await get(getAdminOnboarding, '/api/system-metadata/admin-onboarding', admin)).body).toEqual({ isOnboarded: true });
    expect((await invoke(getServerConfigV1, { path: '/api/server-info/config' })).body.isOnboarded).toBe(true);
    expect((await set(admin, false)).status).toBe(204);
    expect((await get(getAdminOnboarding, '/api/system-metadata/admin-onboarding', admin)).body).toEqual({ isOnboarded: false });
    expect(await set(accounts.user1.accessToken, true)).toMatchObject({ status: 403, body: { message: 'Forbidden resource' } });
    expect((await set(admin, 'yes')).body.message).toBe('Validation failed');
    // When the places index was built (docs/places.md), as Immich says when its geodata was imported.
    expect((await get(getReverseGeocodingState, '/api/system-metadata/reverse-geocoding-state', admin)).body).toEqual({
      lastUpdate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      lastImportFileName: 'cities500.txt',
    });
  });
});

describe('GET /server/statistics (v3)', () => {
  const statistics = () => invoke(getServerStatistics, { path: '/api/server/statistics', headers: bearer(accounts.admin.accessToken) });

  it('adds the photos’ and videos’ bytes to v1.100’s statistics, kept with every upload and deletion', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Counted');
    const gone = await addPhoto(user.accessToken, { color: [3, 90, 3] });
    await addPhoto(user.accessToken, { color: [4, 90, 4] });
    type Row = {
      userId: string;
      userName: string;
      photos: number;
      videos: number;
      usage: number;
      usagePhotos: number;
      usageVideos: number;
    };
    const row = async (): Promise<Row | undefined> =>
      ((await statistics()).body.usageByUser as Row[]).find((entry) => entry.userId === user.userId);
    const before = await row();
    expect(before).toMatchObject({ userName: 'Counted', photos: 2, videos: 0, usageVideos: 0 });
    expect(before?.usagePhotos).toBe(before?.usage);
    await trash(user.accessToken, [gone], true);
    const after = await row();
    expect(after?.photos).toBe(1);
    expect(after?.usagePhotos).toBe(after?.usage);
    expect(after?.usage).toBeLessThan(before?.usage ?? 0);
    const all = (await statistics()).body;
    expect(all.usage).toBe(all.usageByUser.reduce((sum: number, entry: Row) => sum + entry.usage, 0));
    expect(all.usagePhotos + all.usageVideos).toBeLessThanOrEqual(all.usage);
  });

  it('counts a user stored before usage by type once, from their assets, and keeps it', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Older');
    await addPhoto(user.accessToken, { color: [5, 90, 5] });
    // The user item as a write before usage by type left it.
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.user(user.userId),
        UpdateExpression: 'REMOVE usagePhotos, usageVideos, usageByType',
      }),
    );
    const entry = ((await statistics()).body.usageByUser as { userId: string; usage: number; usagePhotos: number }[]).find(
      (each) => each.userId === user.userId,
    );
    expect(entry?.usagePhotos).toBe(entry?.usage);
    const stored = (await tableItems('user')).find((item) => item.id === user.userId);
    expect(stored).toMatchObject({ usageByType: true, usagePhotos: entry?.usage, usageVideos: 0 });
  });

  it('is the admin’s', async () => {
    expect(
      (await invoke(getServerStatistics, { path: '/api/server/statistics', headers: bearer(accounts.user1.accessToken) })).status,
    ).toBe(403);
  });
});

describe('/users (v3)', () => {
  it('lists and reads users in v3’s public shape', async () => {
    const listed = await get(searchUsers, '/api/users', accounts.user1.accessToken);
    expect(listed.status).toBe(200);
    const me = listed.body.find((user: { id: string }) => user.id === accounts.user1.userId);
    expect(Object.keys(me).sort()).toEqual(['avatarColor', 'email', 'id', 'name', 'profileChangedAt', 'profileImagePath']);
    const one = await get(getUser, `/api/users/${accounts.user2.userId}`, accounts.user1.accessToken, { id: accounts.user2.userId });
    expect(one.body).toMatchObject({ id: accounts.user2.userId, email: 'user2@immich.cloud' });
  });

  it('sets, serves and removes the caller’s profile image', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Portrait');
    const { body, contentType } = await multipart({}, { file: { data: makeJpeg({ color: [1, 200, 1] }), fileName: 'me.jpg' } });
    const created = await invoke(createProfileImage, {
      method: 'POST',
      path: '/api/users/profile-image',
      headers: { ...bearer(user.accessToken), 'content-type': contentType },
      body,
    });
    expect(created).toMatchObject({
      status: 201,
      body: { userId: user.userId, profileImagePath: expect.stringMatching(/^profile\//), profileChangedAt: expect.any(String) },
    });
    const served = await get(getProfileImage, `/api/users/${user.userId}/profile-image`, accounts.user1.accessToken, { id: user.userId });
    expect(served.status).toBe(200);
    const removed = await invoke(deleteProfileImage, {
      method: 'DELETE',
      path: '/api/users/profile-image',
      headers: bearer(user.accessToken),
    });
    expect(removed.status).toBe(204);
    expect((await get(getProfileImage, `/api/users/${user.userId}/profile-image`, user.accessToken, { id: user.userId })).status).toBe(404);
  });
});

describe('/admin/users (v3)', () => {
  const admin = () => accounts.admin.accessToken;
  const create = (body: unknown, token = admin()) =>
    invoke(createUserAdmin, { method: 'POST', path: '/api/admin/users', headers: bearer(token), body });

  it('creates a user in v3’s admin shape, who signs in; refuses a second admin and a non-admin caller', async () => {
    const reply = await create({
      email: 'Newcomer@Immich.Cloud',
      name: 'Newcomer',
      password: 'password-new',
      avatarColor: 'purple',
      quotaSizeInBytes: 1_000_000,
      storageLabel: 'new.comer',
      notify: true,
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      email: 'newcomer@immich.cloud',
      avatarColor: 'purple',
      quotaSizeInBytes: 1_000_000,
      storageLabel: 'newcomer',
      shouldChangePassword: true,
      isAdmin: false,
      license: null,
    });
    expect((await login({ email: 'newcomer@immich.cloud', password: 'password-new' })).accessToken).toBeTruthy();
    expect((await create({ email: 'boss@immich.cloud', name: 'Boss', password: 'password', isAdmin: true })).body).toEqual({
      message: 'The server already has an admin',
    });
    expect((await create({ email: 'x@immich.cloud', name: 'X', password: 'x' }, accounts.user1.accessToken)).status).toBe(403);
    const bad = await create({ email: 'not an email', name: '', password: 5 });
    expect(bad.body.errors.map((issue: { path: string[] }) => issue.path[0]).sort()).toEqual(['email', 'name', 'password']);
  });

  it('refuses a quota above 2^53 − 1 with a 400 on both generations, never a 500; the user unchanged (issue 49, Low 2)', async () => {
    const user = await freshUser(admin(), 'Quota');
    const path = `/api/admin/users/${user.userId}`;
    const update = (body: unknown) =>
      invoke(updateUserAdmin, { method: 'PUT', path, headers: bearer(admin()), pathParameters: { id: user.userId }, body });
    const updateV1 = (body: unknown) => invoke(updateUserV1, { method: 'PUT', path: '/api/user', headers: bearer(admin()), body });
    const createV1 = (body: unknown) => invoke(createUserV1, { method: 'POST', path: '/api/user', headers: bearer(admin()), body });
    const tooBig = (field = 'quotaSizeInBytes') => ({
      message: 'Validation failed',
      errors: [{ path: [field], message: `${field} must be at most ${Number.MAX_SAFE_INTEGER}` }],
    });
    const v1TooBig = { statusCode: 400, message: [`quotaSizeInBytes must not be greater than ${Number.MAX_SAFE_INTEGER}`] };
    expect((await update({ quotaSizeInBytes: 5_000 })).body).toMatchObject({ quotaSizeInBytes: 5_000 });
    for (const quotaSizeInBytes of [2 ** 53, 2 ** 60, 1e20, 1e300]) {
      expect(await update({ quotaSizeInBytes }), `${quotaSizeInBytes}`).toMatchObject({ status: 400, body: tooBig() });
      const created = await create({ email: `toobig-${quotaSizeInBytes}@immich.cloud`, name: 'Q', password: 'password', quotaSizeInBytes });
      expect(created, `${quotaSizeInBytes}`).toMatchObject({ status: 400, body: tooBig() });
      expect(await updateV1({ id: user.userId, quotaSizeInBytes }), `${quotaSizeInBytes}`).toMatchObject({ status: 400, body: v1TooBig });
      const createdV1 = await createV1({
        email: `toobig1-${quotaSizeInBytes}@immich.cloud`,
        name: 'Q',
        password: 'password',
        quotaSizeInBytes,
      });
      expect(createdV1, `${quotaSizeInBytes}`).toMatchObject({ status: 400, body: v1TooBig });
    }
    // A body as text: 2^53 + 1 is read as 2^53, past the limit.
    const asText = await invoke(updateUserAdmin, {
      method: 'PUT',
      path,
      headers: { ...bearer(admin()), 'content-type': 'application/json' },
      pathParameters: { id: user.userId },
      body: '{"quotaSizeInBytes": 9007199254740993}',
    });
    expect(asText).toMatchObject({ status: 400, body: tooBig() });
    // Nothing was written: the quota is the last one accepted, and no user was made.
    expect((await get(getUserAdmin, path, admin(), { id: user.userId })).body).toMatchObject({ quotaSizeInBytes: 5_000 });
    expect(
      (await get(searchUsersAdmin, '/api/admin/users', admin())).body.some((each: { email: string }) => each.email.startsWith('toobig')),
    ).toBe(false);
    // The largest integer DynamoDB and JavaScript both hold exactly is taken.
    expect((await update({ quotaSizeInBytes: Number.MAX_SAFE_INTEGER })).body).toMatchObject({ quotaSizeInBytes: Number.MAX_SAFE_INTEGER });
  });

  it('lists, reads, changes, deletes and restores a user; preferences, statistics and sessions of another user', async () => {
    const user = await freshUser(admin(), 'Managed');
    await addPhoto(user.accessToken);
    const path = `/api/admin/users/${user.userId}`;
    const params = { id: user.userId };
    const listed = await get(searchUsersAdmin, '/api/admin/users', admin());
    expect(listed.body.some((each: { id: string }) => each.id === user.userId)).toBe(true);
    expect((await get(searchUsersAdmin, '/api/admin/users', admin(), undefined, { id: user.userId })).body).toHaveLength(1);

    const changed = await invoke(updateUserAdmin, {
      method: 'PUT',
      path,
      headers: bearer(admin()),
      pathParameters: params,
      body: { name: 'Managed Two', quotaSizeInBytes: 5_000_000, shouldChangePassword: false },
    });
    expect(changed.body).toMatchObject({ name: 'Managed Two', quotaSizeInBytes: 5_000_000, shouldChangePassword: false });
    expect((await get(getMyUserInfoV1, '/api/user/me', user.accessToken)).body.name).toBe('Managed Two');

    const stats = await get(getUserStatisticsAdmin, `${path}/statistics`, admin(), params);
    expect(stats.body).toEqual({ images: 1, videos: 0, total: 1 });
    expect((await get(getUserSessionsAdmin, `${path}/sessions`, admin(), params)).body).toHaveLength(1);
    const preferences = await invoke(updateUserPreferencesAdmin, {
      method: 'PUT',
      path: `${path}/preferences`,
      headers: bearer(admin()),
      pathParameters: params,
      body: { memories: { enabled: false } },
    });
    expect(preferences.body.memories.enabled).toBe(false);
    expect((await get(getUserPreferencesAdmin, `${path}/preferences`, admin(), params)).body.memories.enabled).toBe(false);

    const deleted = await invoke(deleteUserAdmin, { method: 'DELETE', path, headers: bearer(admin()), pathParameters: params, body: {} });
    expect(deleted.body).toMatchObject({ status: 'deleted', deletedAt: expect.any(String) });
    expect((await get(getMyUserInfoV1, '/api/user/me', user.accessToken)).status).toBe(401);
    expect((await get(searchUsersAdmin, '/api/admin/users', admin())).body.some((each: { id: string }) => each.id === user.userId)).toBe(
      false,
    );
    const withDeleted = await get(searchUsersAdmin, '/api/admin/users', admin(), undefined, { withDeleted: 'true' });
    expect(withDeleted.body.some((each: { id: string }) => each.id === user.userId)).toBe(true);
    expect((await get(getUserAdmin, path, admin(), params)).body.status).toBe('deleted');

    const restored = await invoke(restoreUserAdmin, {
      method: 'POST',
      path: `${path}/restore`,
      headers: bearer(admin()),
      pathParameters: params,
    });
    expect(restored).toMatchObject({ status: 200, body: { status: 'active', deletedAt: null } });
    expect((await get(getMyUserInfoV1, '/api/user/me', user.accessToken)).status).toBe(200);
  });
});
