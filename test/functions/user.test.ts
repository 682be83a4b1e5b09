import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createApiKeyHandler } from '#functions/api-key/create-api-key.ts';
import { handler as getServerStatisticsHandler } from '#functions/server-info/get-server-statistics.ts';
import { handler as createProfileImageHandler } from '#functions/user/create-profile-image.ts';
import { handler as createUserHandler } from '#functions/user/create-user.ts';
import { handler as deleteProfileImageHandler } from '#functions/user/delete-profile-image.ts';
import { handler as deleteUserHandler } from '#functions/user/delete-user.ts';
import { handler as getAllUsersHandler } from '#functions/user/get-all-users.ts';
import { handler as getMyUserInfo } from '#functions/user/get-my-user-info.ts';
import { handler as getProfileImageHandler } from '#functions/user/get-profile-image.ts';
import { handler as getUserByIdHandler } from '#functions/user/get-user-by-id.ts';
import { handler as restoreUserHandler } from '#functions/user/restore-user.ts';
import { handler as updateUserHandler } from '#functions/user/update-user.ts';
import * as assetRepo from '#shared/db/asset.repository.ts';
import { noQuota } from '#shared/domain/quota.ts';
import { UserResponseDto } from '#shared/dto/v1/user.response.ts';
import { bearer, ensureAdmin, fixtures, freshUser, login, unlockSession } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { makeJpeg } from '../support/photos.ts';
import { assetRecord } from '../support/records.ts';
import { multipart, storedFiles } from '../support/uploads.ts';

let admin: { accessToken: string; userId: string };
beforeAll(async () => {
  await ensureAdmin();
  admin = await login(fixtures.admin);
});

const create = (body: unknown, headers: Record<string, string> = bearer(admin.accessToken)) =>
  invoke(createUserHandler, { method: 'POST', path: '/api/user', headers, body });
const me = (token: string) => invoke(getMyUserInfo, { path: '/api/user/me', headers: bearer(token) });
const update = (token: string, body: unknown) =>
  invoke(updateUserHandler, { method: 'PUT', path: '/api/user', headers: bearer(token), body });
const byId = (token: string, id: string) =>
  invoke(getUserByIdHandler, { path: `/api/user/info/${id}`, headers: bearer(token), pathParameters: { id } });
const all = (token: string, query: Record<string, string> = {}) =>
  invoke(getAllUsersHandler, { path: '/api/user', headers: bearer(token), query });
const remove = (token: string, id: string, body: unknown = {}) =>
  invoke(deleteUserHandler, { method: 'DELETE', path: `/api/user/${id}`, headers: bearer(token), pathParameters: { id }, body });
const restore = (token: string, id: string) =>
  invoke(restoreUserHandler, { method: 'POST', path: `/api/user/${id}/restore`, headers: bearer(token), pathParameters: { id } });
const apiKey = async (token: string) =>
  (await invoke(createApiKeyHandler, { method: 'POST', path: '/api/api-key', headers: bearer(token), body: { name: 'k' } })).body
    .secret as string;

describe('POST /user (createUser)', () => {
  it('requires authentication', async () => {
    expect(await create(fixtures.user1, {})).toMatchObject({ status: 401, body: { message: 'Authentication required' } });
  });

  // Each bad body's 400: test/unit/user-dto.test.ts (the schema alone). Here, that the route checks it.
  it('checks its body: a bad one answers 400 in Immich’s shape', async () => {
    expect(await create({ ...fixtures.user1, quotaSizeInBytes: 'lots' })).toMatchObject({
      status: 400,
      body: {
        message: [
          'quotaSizeInBytes must be a positive number',
          'quotaSizeInBytes must be a number conforming to the specified constraints',
        ],
        error: 'Bad Request',
        statusCode: 400,
      },
    });
  });

  it('ignores isAdmin and applies Immich defaults', async () => {
    const reply = await create({ ...fixtures.user1, isAdmin: true });
    expect(reply.status).toBe(201);
    expect(v.parse(UserResponseDto, reply.body)).toMatchObject({
      email: 'user1@immich.cloud',
      name: 'User 1',
      isAdmin: false,
      shouldChangePassword: true,
      memoriesEnabled: true,
      storageLabel: null,
      avatarColor: 'red',
      quotaSizeInBytes: null,
      quotaUsageInBytes: 0,
      status: 'active',
    });
  });

  it('creates a user without memories enabled, with a quota and without a forced password change', async () => {
    const reply = await create({
      email: 'user3@immich.cloud',
      password: 'p',
      name: 'User 3',
      memoriesEnabled: 'false',
      quotaSizeInBytes: 1024,
      shouldChangePassword: false,
    });
    expect(reply).toMatchObject({ status: 201, body: { memoriesEnabled: false, quotaSizeInBytes: 1024, shouldChangePassword: false } });
  });

  it('rejects an email that exists, whatever its case', async () => {
    expect((await create({ email: 'twice@immich.cloud', password: 'password', name: 'Twice' })).status).toBe(201);
    expect(await create({ email: 'TWICE@immich.cloud', password: 'password', name: 'Twice' })).toMatchObject({
      status: 400,
      body: { message: 'User exists', error: 'Bad Request', statusCode: 400 },
    });
  });

  it('sanitises the storage label and keeps it unique (a 400, where Immich v1.100 gave a 500)', async () => {
    const reply = await create({ email: 'label@immich.cloud', password: 'p', name: 'L', storageLabel: 'my.label/../x' });
    expect(reply).toMatchObject({ status: 201, body: { storageLabel: 'mylabelx' } });
    expect(await create({ email: 'label2@immich.cloud', password: 'p', name: 'L', storageLabel: 'mylabelx' })).toMatchObject({
      status: 400,
      body: { message: 'Storage label already in use by another account' },
    });
    expect(await create({ email: 'label3@immich.cloud', password: 'p', name: 'L', storageLabel: 'admin' })).toMatchObject({
      status: 400,
      body: { message: 'Storage label already in use by another account' },
    });
  });

  it('turns an explicit null storage label into "" as Immich does', async () => {
    expect(await create({ email: 'nolabel@immich.cloud', password: 'p', name: 'N', storageLabel: null })).toMatchObject({
      status: 201,
      body: { storageLabel: '' },
    });
  });

  it('accepts an email without a top-level domain', async () => {
    expect(await create({ email: 'someone@local', password: 'p', name: 'Local' })).toMatchObject({
      status: 201,
      body: { email: 'someone@local' },
    });
  });

  it('is admin only: a user gets 403 before the body is even validated', async () => {
    const { accessToken } = await freshUser(admin.accessToken, 'Plain');
    expect(await create({ email: 'not-an-email' }, bearer(accessToken))).toMatchObject({
      status: 403,
      body: { message: 'Forbidden resource', error: 'Forbidden', statusCode: 403 },
    });
    expect(await create({ email: 'not-an-email' }, {})).toMatchObject({ status: 401 });
  });
});

describe('GET /user/me (getMyUserInfo)', () => {
  it('requires authentication', async () => {
    expect(await invoke(getMyUserInfo, { path: '/api/user/me' })).toMatchObject({
      status: 401,
      body: { message: 'Authentication required' },
    });
  });

  it('gets my info, exactly the UserResponseDto keys', async () => {
    const { accessToken, userId } = await freshUser(admin.accessToken, 'Myself');
    const reply = await invoke(getMyUserInfo, { path: '/api/user/me', headers: bearer(accessToken) });
    expect(reply.status).toBe(200);
    expect(v.parse(UserResponseDto, reply.body)).toMatchObject({ id: userId, email: 'myself@immich.cloud' });
  });
});

describe('GET /user and GET /user/info/:id', () => {
  it('lists users newest first (deleted ones too, but with isAll=true, as Immich converts it) and reads one', async () => {
    const user = await freshUser(admin.accessToken, `Listed${Date.now()}`);
    const gone = await freshUser(admin.accessToken, `Gone${Date.now()}`);
    expect((await remove(admin.accessToken, gone.userId)).status).toBe(200);
    const everyone = (await all(user.accessToken)).body.map((u: { id: string }) => u.id);
    expect(everyone.indexOf(gone.userId)).toBeGreaterThanOrEqual(0);
    expect(everyone.indexOf(gone.userId)).toBeLessThan(everyone.indexOf(user.userId));
    expect(everyone).toContain(admin.userId);
    // Immich's e2e case: isAll=false is everyone too (its admin page sends it, to offer a restore).
    expect((await all(admin.accessToken, { isAll: 'false' })).body.map((u: { id: string }) => u.id)).toEqual(everyone);
    const active = (await all(user.accessToken, { isAll: 'true' })).body.map((u: { id: string }) => u.id);
    expect(active).toContain(user.userId);
    expect(active).not.toContain(gone.userId);
    expect((await byId(user.accessToken, admin.userId)).body).toMatchObject({ id: admin.userId, isAdmin: true });
    expect((await byId(user.accessToken, gone.userId)).body).toMatchObject({ statusCode: 404, message: 'User not found' });
    expect((await byId(user.accessToken, 'nope')).body.message).toEqual(['id must be a UUID']);
  });
});

describe('PUT /user', () => {
  // Each bad body's 400: test/unit/user-dto.test.ts (the schema alone). Here, that the route checks it.
  it('checks its body: a bad one answers 400, an id it needs', async () => {
    expect((await update(admin.accessToken, { id: admin.userId, avatarColor: 'teal' })).body).toMatchObject({
      statusCode: 400,
      message: ['avatarColor must be one of the following values: primary, pink, red, yellow, blue, green, purple, orange, gray, amber'],
    });
    expect((await update(admin.accessToken, {})).body.message).toEqual(['id must be a UUID', 'id should not be empty']);
  });

  it('changes name, memories and colour; ignores fields it does not own; a no-op keeps updatedAt', async () => {
    const user = await freshUser(admin.accessToken, `Named${Date.now()}`);
    const before = (await me(user.accessToken)).body;
    const same = await update(user.accessToken, { id: user.userId, createdAt: '2023-01-01T00:00:00.000Z', profileImagePath: 'x.jpg' });
    expect(same.body).toEqual(before);
    const reply = await update(user.accessToken, { id: user.userId, name: 'Name', memoriesEnabled: false, avatarColor: 'green' });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ...before, name: 'Name', memoriesEnabled: false, avatarColor: 'green', updatedAt: expect.any(String) });
    expect(reply.body.updatedAt).not.toBe(before.updatedAt);
  });

  it('a user changes only themselves, never their role, storage label or quota', async () => {
    const user = await freshUser(admin.accessToken, `Self${Date.now()}`);
    const other = await freshUser(admin.accessToken, `Other${Date.now()}`);
    expect((await update(user.accessToken, { id: other.userId, name: 'x' })).body).toMatchObject({
      statusCode: 403,
      message: 'You are not allowed to update this user',
    });
    const reply = await update(user.accessToken, { id: user.userId, isAdmin: true, storageLabel: 'mine' });
    expect(reply.body).toMatchObject({ isAdmin: false, storageLabel: null });
    // Immich v1.100 lets a user lift their own quota this way (docs/immich-compatibility.md): not here.
    expect((await update(admin.accessToken, { id: user.userId, quotaSizeInBytes: 5000 })).body).toMatchObject({ quotaSizeInBytes: 5000 });
    for (const quotaSizeInBytes of [null, 10 ** 12]) {
      const lifted = await update(user.accessToken, { id: user.userId, quotaSizeInBytes, name: 'Still Me' });
      expect(lifted).toMatchObject({ status: 200, body: { quotaSizeInBytes: 5000, name: 'Still Me' } });
    }
  });

  it('the admin: no second admin, no giving up the role; storage labels unique; quotas', async () => {
    const user = await freshUser(admin.accessToken, `Managed${Date.now()}`);
    expect((await update(admin.accessToken, { id: user.userId, isAdmin: true })).body).toMatchObject({
      statusCode: 400,
      message: 'The server already has an admin',
    });
    expect((await update(admin.accessToken, { id: admin.userId, isAdmin: false })).status).toBe(400);
    expect((await update(admin.accessToken, { id: user.userId, storageLabel: 'admin' })).body).toMatchObject({
      statusCode: 400,
      message: 'Storage label already in use by another account',
    });
    const label = `label${Date.now()}`;
    expect((await update(admin.accessToken, { id: user.userId, storageLabel: label, quotaSizeInBytes: 5000 })).body).toMatchObject({
      storageLabel: label,
      quotaSizeInBytes: 5000,
    });
    expect((await update(admin.accessToken, { id: user.userId, storageLabel: '', quotaSizeInBytes: null })).body).toMatchObject({
      storageLabel: null,
      quotaSizeInBytes: null,
    });
    // The label is free again.
    const next = await freshUser(admin.accessToken, `Next${Date.now()}`);
    expect((await update(admin.accessToken, { id: next.userId, storageLabel: label })).body.storageLabel).toBe(label);
  });

  it('a new email: unique, the login and every credential follow it; a new password works', async () => {
    const user = await freshUser(admin.accessToken, `Mail${Date.now()}`);
    const key = await apiKey(user.accessToken);
    // A session moves its own email once unlocked with the PIN code (v3's; docs/immich-compatibility.md, "Users").
    await unlockSession(user.accessToken);
    expect((await update(user.accessToken, { id: user.userId, email: fixtures.admin.email })).body).toMatchObject({
      statusCode: 400,
      message: 'Email already in use by another account',
    });
    const email = `moved${Date.now()}@immich.cloud`;
    expect((await update(user.accessToken, { id: user.userId, email: email.toUpperCase(), password: 'new-password' })).body.email).toBe(
      email,
    );
    // The session and the API key now carry the new email (what Immich's auth reads from the user).
    expect((await me(user.accessToken)).body.email).toBe(email);
    expect((await invoke(getMyUserInfo, { path: '/api/user/me', headers: { 'x-api-key': key } })).body.email).toBe(email);
    expect((await login({ email, password: 'new-password' })).userId).toBe(user.userId);
  });
});

describe('DELETE /user/:id and POST /user/:id/restore', () => {
  it('soft-deletes: no sign-in, no session, no API key; a restore brings them back', async () => {
    const name = `Deleted${Date.now()}`;
    const user = await freshUser(admin.accessToken, name);
    const key = await apiKey(user.accessToken);
    const credentials = { email: (await me(user.accessToken)).body.email, password: `password-${name}` };
    const reply = await remove(admin.accessToken, user.userId);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: user.userId, status: 'deleted', deletedAt: expect.any(String) });
    expect((await me(user.accessToken)).status).toBe(401);
    expect((await invoke(getMyUserInfo, { path: '/api/user/me', headers: { 'x-api-key': key } })).status).toBe(401);
    await expect(login(credentials)).rejects.toThrow();
    expect((await remove(admin.accessToken, user.userId)).body).toMatchObject({ statusCode: 400, message: 'User not found' });

    const back = await restore(admin.accessToken, user.userId);
    expect(back.status).toBe(201);
    expect(back.body).toMatchObject({ status: 'active', deletedAt: null });
    expect((await me(user.accessToken)).status).toBe(200);
    expect((await invoke(getMyUserInfo, { path: '/api/user/me', headers: { 'x-api-key': key } })).status).toBe(200);
    expect((await login(credentials)).userId).toBe(user.userId);
  });

  it('force marks the user removing; the admin cannot be deleted; only the admin deletes', async () => {
    const user = await freshUser(admin.accessToken, `Forced${Date.now()}`);
    expect((await remove(user.accessToken, user.userId)).status).toBe(403);
    expect((await remove(admin.accessToken, admin.userId)).body).toMatchObject({ statusCode: 403, message: 'Cannot delete admin user' });
    expect((await remove(admin.accessToken, user.userId, { force: true })).body).toMatchObject({ status: 'removing' });
    expect((await restore(admin.accessToken, '00000000-0000-4000-a000-000000000000')).body).toMatchObject({
      statusCode: 400,
      message: 'User not found',
    });
  });
});

describe('GET /server-info/statistics', () => {
  it("admin only: each active user's photos, videos (visible, untrashed) and usage, oldest user first", async () => {
    const user = await freshUser(admin.accessToken, `Counted${Date.now()}`);
    const later = await freshUser(admin.accessToken, `Later${Date.now()}`);
    const gone = await freshUser(admin.accessToken, `Uncounted${Date.now()}`);
    const record = (type: 'IMAGE' | 'VIDEO', extra: Partial<Parameters<typeof assetRecord>[1]> = {}) =>
      assetRepo.recordUpload({
        asset: assetRecord(user.userId, { type, exif: { fileSizeInByte: 1000 }, ...extra }),
        faces: [],
        newPeople: [],
        existingPeople: new Set(),
        quota: noQuota,
      });
    await record('IMAGE');
    await record('IMAGE', { visibility: 'archive' });
    await record('VIDEO');
    await record('VIDEO', { visibility: 'hidden' });
    await record('IMAGE', { deletedAt: new Date().toISOString() });
    expect((await remove(admin.accessToken, gone.userId)).status).toBe(200);

    const stats = (token: string) => invoke(getServerStatisticsHandler, { path: '/api/server-info/statistics', headers: bearer(token) });
    expect((await stats(user.accessToken)).status).toBe(403);
    const reply = await stats(admin.accessToken);
    expect(reply.status).toBe(200);
    const ids = reply.body.usageByUser.map((each: { userId: string }) => each.userId);
    expect(ids.indexOf(user.userId)).toBeLessThan(ids.indexOf(later.userId));
    expect(ids).not.toContain(gone.userId);
    expect(reply.body.usageByUser[ids.indexOf(user.userId)]).toEqual({
      userId: user.userId,
      userName: expect.stringMatching(/^Counted/),
      photos: 2,
      videos: 1,
      usage: 5000,
      quotaSizeInBytes: null,
    });
    type Usage = { photos: number; videos: number; usage: number };
    const sum = (key: keyof Usage) => reply.body.usageByUser.reduce((total: number, each: Usage) => total + each[key], 0);
    expect(reply.body).toMatchObject({ photos: sum('photos'), videos: sum('videos'), usage: sum('usage') });
  });
});

describe('profile images', () => {
  const send = async (token: string, fileName: string, data: Buffer) => {
    const raw = await multipart({}, { file: { data, fileName, contentType: 'image/jpeg' } });
    return invoke(createProfileImageHandler, {
      method: 'POST',
      path: '/api/user/profile-image',
      headers: { ...bearer(token), 'content-type': raw.contentType },
      body: raw.body,
    });
  };
  const get = (token: string, id: string) =>
    invoke(getProfileImageHandler, { path: `/api/user/profile-image/${id}`, headers: bearer(token), pathParameters: { id } });
  const drop = (token: string) =>
    invoke(deleteProfileImageHandler, { method: 'DELETE', path: '/api/user/profile-image', headers: bearer(token) });

  it('sets, replaces (the old file removed), serves to anyone signed in, and deletes a profile image', async () => {
    const user = await freshUser(admin.accessToken, `Avatar${Date.now()}`);
    const other = await freshUser(admin.accessToken, `Viewer${Date.now()}`);
    expect((await get(user.accessToken, user.userId)).body).toMatchObject({
      statusCode: 404,
      message: 'User does not have a profile image',
    });
    expect((await drop(user.accessToken)).body).toMatchObject({ statusCode: 400, message: "Can't delete a missing profile Image" });
    expect((await send(user.accessToken, 'notes.txt', Buffer.from('x'))).body).toMatchObject({
      statusCode: 400,
      message: 'Unsupported file type notes.txt',
    });

    const first = await send(user.accessToken, 'me.jpg', makeJpeg({ color: [200, 10, 10] }));
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      userId: user.userId,
      profileImagePath: expect.stringMatching(new RegExp(`^profile/${user.userId}/.+\\.jpg$`)),
    });
    expect((await me(user.accessToken)).body.profileImagePath).toBe(first.body.profileImagePath);
    const second = await send(user.accessToken, 'me.jpeg', makeJpeg({ color: [10, 200, 10] }));
    expect(second.status).toBe(201);
    expect(await storedFiles()).not.toContain(first.body.profileImagePath);
    expect(await storedFiles()).toContain(second.body.profileImagePath);
    const served = await get(other.accessToken, user.userId);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');

    expect((await drop(user.accessToken)).status).toBe(204);
    expect(await storedFiles()).not.toContain(second.body.profileImagePath);
    expect((await me(user.accessToken)).body.profileImagePath).toBe('');
    expect((await get(other.accessToken, user.userId)).status).toBe(404);
  });
});
