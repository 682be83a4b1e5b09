import { randomUUID } from 'node:crypto';
import { requireAuthDevice, requireSessionToken } from '../access/sessions.ts';
import { decoyHash, hashPassword, hashSecret, newSecret, verifyPassword } from '../core/crypto.ts';
import { Invalid, Unauthenticated } from '../core/errors.ts';
import * as sessionRepo from '../db/session.repository.ts';
import * as userRepo from '../db/user.repository.ts';
import { deviceNamer, named } from '../domain/device.ts';

import type { DeviceSession, SessionAgent, SessionRecord, SignIn } from '../model/session.ts';
import { appVersionOf, sessionLifetimeSeconds } from '../model/session.ts';
import type { Auth, LoginCredential, PasswordChange, UserRecord } from '../model/user.ts';
import { raise } from '../realtime/outbox.ts';
import { readConfig } from './config.reader.ts';
import { unlessRefused } from './user-refusals.ts';

/**
 * A new session of the user's, as every sign-in makes one (password login, OAuth's callback: Immich's
 * createLoginResponse): a random token answered once, only its hash stored.
 */
export const startSession = async (user: UserRecord, agent: SessionAgent): Promise<SignIn> => {
  const accessToken = newSecret();
  const now = new Date();
  unlessRefused(
    await sessionRepo.create({
      id: randomUUID(),
      tokenHash: hashSecret(accessToken),
      userId: user.id,
      email: user.email,
      isAdmin: user.isAdmin,
      userActive: true,
      // Named from the request when shown, as Immich names it at sign-in (shared/domain/device.ts).
      deviceType: '',
      deviceOS: '',
      agent,
      appVersion: appVersionOf(agent.userAgent),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      ttl: Math.floor(now.getTime() / 1000) + sessionLifetimeSeconds,
      pinExpiresAt: null,
      isPendingSyncReset: false,
    }),
  );
  return { accessToken, user };
};

/**
 * POST /auth/login. A wrong password and an unknown email give the same answer after the same
 * work (an unknown email is checked against a decoy hash), so neither timing nor message tells
 * which emails exist.
 */
export const login = async (input: LoginCredential, agent: SessionAgent): Promise<SignIn> => {
  if (!(await readConfig()).passwordLogin.enabled) throw new Unauthenticated('Password login has been disabled');
  const user = await userRepo.getByEmail(input.email);
  const valid = await verifyPassword(input.password, user?.passwordHash ?? (await decoyHash()));
  if (!user || !valid || user.deletedAt || user.status !== 'active') throw new Unauthenticated('Incorrect email or password');

  return startSession(user, agent);
};

/**
 * POST /sessions (v3): a new session of the caller's (the web app casts with one), for `duration`
 * seconds or a session's usual lifetime, named by its device. Only a session may make one (Immich's
 * rule). Its token is answered once; only its hash is stored.
 */
export const createChildSession = async (
  auth: Auth,
  dto: { duration?: number | undefined; deviceType?: string | undefined; deviceOS?: string | undefined },
): Promise<{ session: SessionRecord; token: string }> => {
  requireSessionToken(auth);
  const user = await userRepo.get(auth.user.id);
  if (!user) throw new Unauthenticated();
  const token = newSecret();
  const now = new Date();
  const session: SessionRecord = {
    id: randomUUID(),
    tokenHash: hashSecret(token),
    userId: user.id,
    email: user.email,
    isAdmin: user.isAdmin,
    userActive: user.deletedAt === null && user.status === 'active',
    deviceType: dto.deviceType ?? '',
    deviceOS: dto.deviceOS ?? '',
    appVersion: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    ttl: Math.floor(now.getTime() / 1000) + (dto.duration ?? sessionLifetimeSeconds),
    pinExpiresAt: null,
    isPendingSyncReset: false,
  };
  unlessRefused(await sessionRepo.create(session));
  return { session, token };
};

/**
 * POST /auth/logout: ends the caller's session (an API key has none to end). Its own connections
 * are told (`on_session_delete`, with its id), as Immich tells them; the web app then goes to its
 * login page.
 */
export const logout = async (auth: Auth): Promise<void> => {
  if (!auth.sessionHash) return;
  await sessionRepo.remove(auth.user.id, auth.sessionHash);
  if (auth.sessionId) raise({ kind: 'session-ended', userId: auth.user.id, sessionHash: auth.sessionHash, sessionId: auth.sessionId });
};

/**
 * POST /auth/change-password. Better than Immich v1.100: every other session of the user ends
 * (the caller's own stays valid) unless v3's `invalidateSessions: false` keeps them; API keys stay valid.
 */
export const changePassword = async (auth: Auth, input: PasswordChange): Promise<UserRecord> => {
  const user = await userRepo.get(auth.user.id);
  if (!user) throw new Unauthenticated();
  if (!(await verifyPassword(input.password, user.passwordHash))) throw new Invalid('Wrong password');
  const replaced = await userRepo.replacePasswordHash(user.id, user.passwordHash, await hashPassword(input.newPassword));
  // Another change won the race against the same old password: this one's password is no longer current.
  if (!replaced.ok) throw new Invalid('Wrong password');
  const updated = replaced.value;
  if (input.invalidateSessions !== false) await sessionRepo.deleteUserSessions(user.id, auth.sessionHash);
  return updated;
};

/**
 * A user's sessions, most recently used first, the one `currentHash` names marked, each device
 * named as Immich names it (from the request that signed in or last refreshed it).
 */
const sessionsOf = async (userId: string, currentHash?: string): Promise<DeviceSession[]> => {
  const [sessions, name] = await Promise.all([sessionRepo.listUserSessionRecords(userId), deviceNamer()]);
  return sessions
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.createdAt.localeCompare(a.createdAt))
    .map((session) => ({ session: named(session, name), current: session.tokenHash === currentHash }));
};

/** GET /auth/devices: the caller's sessions, most recently used first, the current one marked. */
export const getAuthDevices = (auth: Auth): Promise<DeviceSession[]> => sessionsOf(auth.user.id, auth.sessionHash);

/** GET /admin/users/:id/sessions (v3, admin): a user's sessions, as their own list shows them (none is the admin's current one). */
export const getUserSessions = (userId: string): Promise<DeviceSession[]> => sessionsOf(userId);

/** DELETE /auth/devices/:id: ends one of the caller's sessions. */
export const logoutAuthDevice = async (auth: Auth, id: string): Promise<void> => {
  const session = await requireAuthDevice(auth, id);
  await sessionRepo.remove(auth.user.id, session.tokenHash);
};

/** DELETE /auth/devices: ends every session of the caller but the current one. */
export const logoutAuthDevices = async (auth: Auth): Promise<void> => {
  await sessionRepo.deleteUserSessions(auth.user.id, auth.sessionHash);
};
