import { beforeAll, describe, expect, it } from 'vitest';
import { handler as loginHandler } from '#functions/auth/login.ts';
import { handler as getMyUserInfo } from '#functions/user/get-my-user-info.ts';
import { handler as updateUserV1 } from '#functions/user/update-user.ts';
import { handler as createKeyV3 } from '#functions/v3/api-key/create-api-key.ts';
import { handler as updateMyUser } from '#functions/v3/user/update-my-user.ts';
import { handler as updateUserAdmin } from '#functions/v3/user-admin/update-user-admin.ts';
import { bearer, createUser, ensureAdmin, fixtures, login, unlockSession } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';

/**
 * Issue 49, High 3: a password (or an email) never changes through an API key, and through a
 * session only with the current password (POST /auth/change-password) or once the session is
 * unlocked with the PIN code; a password change ends the user's other sessions
 * (docs/immich-compatibility.md, "Changing a password or an email").
 */

let admin: { accessToken: string; userId: string };
beforeAll(async () => {
  await ensureAdmin();
  admin = await login(fixtures.admin);
});

const signIn = (email: string, password: string) =>
  invoke(loginHandler, { method: 'POST', path: '/api/auth/login', body: { email, password } });
const me = (headers: Record<string, string>) => invoke(getMyUserInfo, { path: '/api/user/me', headers });
const keyWith = async (token: string, permissions: string[]): Promise<string> => {
  const reply = await invoke(createKeyV3, { method: 'POST', path: '/api/api-keys', headers: bearer(token), body: { permissions } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.secret;
};
const putMe = (headers: Record<string, string>, body: unknown) =>
  invoke(updateMyUser, { method: 'PUT', path: '/api/users/me', headers, body });
const putUser = (headers: Record<string, string>, body: unknown) =>
  invoke(updateUserV1, { method: 'PUT', path: '/api/user', headers, body });
const putAdmin = (headers: Record<string, string>, id: string, body: unknown) =>
  invoke(updateUserAdmin, { method: 'PUT', path: `/api/admin/users/${id}`, pathParameters: { id }, headers, body });

/** A user who already replaced the password the admin gave (`shouldChangePassword` false), signed in. */
const settledUser = async (name: string) => {
  const email = `${name.toLowerCase()}@immich.cloud`;
  const password = `password-${name}`;
  const { id } = await createUser(admin.accessToken, { email, password, name, shouldChangePassword: false });
  return { id, email, password, session: await login({ email, password }) };
};

describe('changing a password or an email (issue 49, High 3)', () => {
  it('refuses a new password through an API key with user.update on both generations: nothing changes, the new one signs nobody in', async () => {
    const user = await settledUser('Keyholder');
    const narrow = { 'x-api-key': await keyWith(user.session.accessToken, ['user.update']) };
    const everything = { 'x-api-key': await keyWith(user.session.accessToken, ['all']) };

    for (const headers of [narrow, everything]) {
      const v3 = await putMe(headers, { password: 'taken-over-1' });
      expect(v3, JSON.stringify(v3.body)).toMatchObject({ status: 403, body: { message: expect.stringMatching(/API key/) } });
      expect(Object.keys(v3.body)).toEqual(['message']);
      const v1 = await putUser(headers, { id: user.id, password: 'taken-over-2' });
      expect(v1).toMatchObject({ status: 403, body: { error: 'Forbidden', statusCode: 403 } });
    }
    expect((await signIn(user.email, 'taken-over-1')).status).toBe(401);
    expect((await signIn(user.email, 'taken-over-2')).status).toBe(401);
    expect((await signIn(user.email, user.password)).status).toBe(201);
    // The session it came from still works: nothing was half done.
    expect((await me(bearer(user.session.accessToken))).status).toBe(200);
  });

  it('refuses a new email through an API key, and lets the key change the rest (the same email sent back is no change)', async () => {
    const user = await settledUser('Mailholder');
    const key = { 'x-api-key': await keyWith(user.session.accessToken, ['user.update']) };
    expect(await putMe(key, { email: 'thief@immich.cloud' })).toMatchObject({ status: 403 });
    expect(await putUser(key, { id: user.id, email: 'thief@immich.cloud' })).toMatchObject({ status: 403 });
    expect((await me(bearer(user.session.accessToken))).body.email).toBe(user.email);
    // What the web app's profile page sends: the unchanged email with a new name.
    expect(await putMe(key, { email: user.email, name: 'Renamed by its key' })).toMatchObject({
      status: 200,
      body: { email: user.email, name: 'Renamed by its key' },
    });
  });

  it("refuses a new password through a session that is not unlocked, then takes it once unlocked with the PIN code, ending the user's other sessions", async () => {
    const user = await settledUser('Unlocker');
    const caller = bearer(user.session.accessToken);
    const other = bearer((await login({ email: user.email, password: user.password })).accessToken);
    const key = { 'x-api-key': await keyWith(user.session.accessToken, ['user.read']) };

    const locked = await putMe(caller, { password: 'without-proof-1' });
    expect(locked).toMatchObject({ status: 403, body: { message: expect.stringMatching(/change-password|PIN code/) } });
    expect(await putUser(caller, { id: user.id, password: 'without-proof-2' })).toMatchObject({ status: 403 });
    expect((await signIn(user.email, 'without-proof-1')).status).toBe(401);
    expect((await signIn(user.email, 'without-proof-2')).status).toBe(401);
    // The email is the sign-in name: it moves only unlocked too. The same email sent back (the
    // profile page sends it with every save) is no change.
    expect(await putMe(caller, { email: 'unlocker.moved@immich.cloud' })).toMatchObject({
      status: 403,
      body: { message: 'Changing the email needs a session unlocked with the PIN code' },
    });
    expect(await putUser(caller, { id: user.id, email: 'unlocker.moved@immich.cloud' })).toMatchObject({ status: 403 });
    expect(await putMe(caller, { email: user.email, name: 'Unlocker renamed' })).toMatchObject({ status: 200 });

    await unlockSession(user.session.accessToken);
    expect(await putMe(caller, { email: 'unlocker.moved@immich.cloud' })).toMatchObject({ status: 200 });
    expect(await putMe(caller, { password: 'with-the-pin-1' })).toMatchObject({ status: 200, body: { shouldChangePassword: false } });
    expect((await signIn('unlocker.moved@immich.cloud', 'with-the-pin-1')).status).toBe(201);
    expect((await signIn('unlocker.moved@immich.cloud', user.password)).status).toBe(401);
    // The caller's session stays, the other one ends, API keys stay (as POST /auth/change-password).
    expect((await me(caller)).status).toBe(200);
    expect(await me(other)).toMatchObject({ status: 401 });
    expect((await me(key)).status).toBe(200);
  });

  it("takes the first sign-in's password change through the session (what Immich's web and mobile apps send), ending the other sessions", async () => {
    const email = 'firstsignin@immich.cloud';
    const { id } = await createUser(admin.accessToken, { email, password: 'given-by-admin', name: 'First', shouldChangePassword: true });
    const first = bearer((await login({ email, password: 'given-by-admin' })).accessToken);
    const second = bearer((await login({ email, password: 'given-by-admin' })).accessToken);
    // v1.100's web app sends it through PUT /user.
    expect(await putUser(first, { id, password: 'my-own-password', shouldChangePassword: false })).toMatchObject({
      status: 200,
      body: { shouldChangePassword: false },
    });
    expect((await me(first)).status).toBe(200);
    expect(await me(second)).toMatchObject({ status: 401 });
    expect((await signIn(email, 'my-own-password')).status).toBe(201);
    // Changed once, it is no longer the first sign-in's: a second one needs the proof.
    expect(await putMe(first, { password: 'again-without-proof' })).toMatchObject({ status: 403 });
  });

  it("lets an admin's session set another user's password and email (ending that user's sessions); never an admin's key, not even its own", async () => {
    const user = await settledUser('Managed');
    const adminKey = { 'x-api-key': await keyWith(admin.accessToken, ['adminUser.update', 'user.update']) };
    expect(await putAdmin(adminKey, user.id, { password: 'set-by-a-key' })).toMatchObject({ status: 403 });
    expect(await putAdmin(adminKey, user.id, { email: 'moved-by-a-key@immich.cloud' })).toMatchObject({ status: 403 });
    expect(await putUser(adminKey, { id: user.id, password: 'set-by-a-key' })).toMatchObject({ status: 403 });
    expect(await putAdmin(adminKey, admin.userId, { password: 'admin-by-a-key' })).toMatchObject({ status: 403 });
    expect((await signIn(user.email, 'set-by-a-key')).status).toBe(401);
    expect((await signIn(fixtures.admin.email, 'admin-by-a-key')).status).toBe(401);
    // A key still changes what is not a credential.
    expect(await putAdmin(adminKey, user.id, { name: 'Managed by a key' })).toMatchObject({
      status: 200,
      body: { name: 'Managed by a key' },
    });

    const reply = await putAdmin(bearer(admin.accessToken), user.id, { password: 'set-by-the-admin', email: 'managed.moved@immich.cloud' });
    expect(reply).toMatchObject({ status: 200, body: { email: 'managed.moved@immich.cloud' } });
    expect(await me(bearer(user.session.accessToken))).toMatchObject({ status: 401 });
    expect((await signIn('managed.moved@immich.cloud', 'set-by-the-admin')).status).toBe(201);
    expect((await me(bearer(admin.accessToken))).status).toBe(200);
  });
});
