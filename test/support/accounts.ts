import { expect } from 'vitest';
import { handler as createApiKeyHandler } from '#functions/api-key/create-api-key.ts';
import { handler as loginHandler } from '#functions/auth/login.ts';
import { handler as signUpAdminHandler } from '#functions/auth/sign-up-admin.ts';
import { handler as createUserHandler } from '#functions/user/create-user.ts';
import { handler as setupPinCodeHandler } from '#functions/v3/auth/setup-pin-code.ts';
import { handler as unlockHandler } from '#functions/v3/auth/unlock-auth-session.ts';
import { handler as createPartnerHandler } from '#functions/v3/partner/create-partner.ts';
import { invoke } from './invoke.ts';

/** Immich's own e2e fixtures (e2e/src/fixtures.ts). */
export const fixtures = {
  admin: { email: 'admin@immich.cloud', password: 'password', name: 'Immich Admin' },
  user1: { email: 'user1@immich.cloud', password: 'password1', name: 'User 1' },
  user2: { email: 'user2@immich.cloud', password: 'password12', name: 'User 2' },
};

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export const signUpAdmin = async (dto = fixtures.admin) => {
  const reply = await invoke(signUpAdminHandler, { method: 'POST', path: '/api/auth/admin-sign-up', body: dto });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body as { id: string; email: string };
};

export const login = async (credentials: { email: string; password: string }) => {
  const reply = await invoke(loginHandler, { method: 'POST', path: '/api/auth/login', body: credentials });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body as { accessToken: string; userId: string };
};

export const createUser = async (adminToken: string, dto: Record<string, unknown>) => {
  const reply = await invoke(createUserHandler, { method: 'POST', path: '/api/user', headers: bearer(adminToken), body: dto });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body as { id: string; email: string };
};

export const createApiKey = async (token: string, name?: string) => {
  const reply = await invoke(createApiKeyHandler, {
    method: 'POST',
    path: '/api/api-key',
    headers: bearer(token),
    body: name ? { name } : {},
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body as { secret: string; apiKey: { id: string; name: string } };
};

/** An admin and two users, each signed in: what most handler tests start from. */
export const setupAccounts = async () => {
  await signUpAdmin();
  const admin = await login(fixtures.admin);
  const user1 = await createUser(admin.accessToken, fixtures.user1);
  const user2 = await createUser(admin.accessToken, fixtures.user2);
  return {
    admin,
    user1: { ...user1, ...(await login(fixtures.user1)) },
    user2: { ...user2, ...(await login(fixtures.user2)) },
  };
};

/** A new signed-in user of their own, for a test that must not see what other tests made. */
export const freshUser = async (adminToken: string, name: string) => {
  const credentials = { email: `${name.toLowerCase()}@immich.cloud`, password: `password-${name}`, name };
  const user = await createUser(adminToken, credentials);
  return { ...user, ...(await login(credentials)) };
};

/**
 * The admin of `fixtures.admin`, signed up unless it already is: for tests that need an admin and
 * must pass both on their own and after a test that signed it up.
 */
export const ensureAdmin = async (): Promise<void> => {
  const reply = await invoke(signUpAdminHandler, { method: 'POST', path: '/api/auth/admin-sign-up', body: fixtures.admin });
  if (reply.status !== 201) expect(reply.body.message).toBe('The server already has an admin');
};

/**
 * Sets the user's PIN code and unlocks this session with it (v3's locked folder): what a session
 * needs to change its own password or email through PUT /user or PUT /users/me
 * (docs/immich-compatibility.md, "Changing a password or an email").
 */
export const unlockSession = async (accessToken: string, pinCode = '482916'): Promise<void> => {
  const setup = await invoke(setupPinCodeHandler, {
    method: 'POST',
    path: '/api/auth/pin-code',
    headers: bearer(accessToken),
    body: { pinCode },
  });
  expect(setup.status, JSON.stringify(setup.body)).toBe(204);
  const unlocked = await invoke(unlockHandler, {
    method: 'POST',
    path: '/api/auth/session/unlock',
    headers: bearer(accessToken),
    body: { pinCode },
  });
  expect(unlocked.status, JSON.stringify(unlocked.body)).toBe(204);
};

/** `sharer` shares their library with the user `sharedWithId` (POST /partners, as the apps do). */
export const sharePartner = async (sharer: { accessToken: string }, sharedWithId: string): Promise<void> => {
  const shared = await invoke(createPartnerHandler, {
    method: 'POST',
    path: '/api/partners',
    headers: bearer(sharer.accessToken),
    body: { sharedWithId },
  });
  expect(shared.status).toBe(201);
};
