import { requireSessionToken } from '../access/sessions.ts';
import { hashPassword, verifyPassword } from '../core/crypto.ts';
import { Invalid, Unauthenticated } from '../core/errors.ts';
import { lockUserSessions, setSessionPinExpiry } from '../db/session.repository.ts';
import { getUser, replacePinCodeHash } from '../db/user.repository.ts';
import type { Auth, UserRecord } from '../model/user.ts';

/**
 * The locked folder's PIN code and the session it unlocks (Immich v3's AuthService: setup,
 * change, reset, unlock, lock; docs/immich-compatibility.md, "The locked folder"). The PIN is
 * stored as the password is (argon2id); an unlocked session is elevated for 15 minutes from the
 * unlock (shared/auth/authenticate.ts reads it with the session).
 */

const UNLOCKED_MS = 15 * 60_000;

const userOf = async (auth: Auth): Promise<UserRecord> => {
  const user = await getUser(auth.user.id);
  if (!user) throw new Unauthenticated();
  return user;
};

/** Immich's `validatePinCode`: the password, or else the PIN code, proves it is the user. */
const proveIdentity = async (user: UserRecord, dto: { pinCode?: string | undefined; password?: string | undefined }): Promise<string> => {
  const pin = user.pinCodeHash;
  if (!pin) throw new Invalid('User does not have a PIN code');
  if (dto.password) {
    if (!(await verifyPassword(dto.password, user.passwordHash))) throw new Invalid('Wrong password');
  } else if (dto.pinCode) {
    if (!(await verifyPassword(dto.pinCode, pin))) throw new Invalid('Wrong PIN code');
  } else {
    throw new Invalid('Either password or pinCode is required');
  }
  return pin;
};

/** A concurrent change of the PIN code won: this one's proof is of a PIN that is no longer current. */
const changed = (): never => {
  throw new Invalid('Wrong PIN code');
};

/** POST /auth/pin-code: the user's first PIN code. */
export const setupPinCode = async (auth: Auth, pinCode: string): Promise<void> => {
  const user = await userOf(auth);
  if (user.pinCodeHash) throw new Invalid('User already has a PIN code');
  if (!(await replacePinCodeHash(user.id, null, await hashPassword(pinCode)))) throw new Invalid('User already has a PIN code');
};

/** PUT /auth/pin-code: a new PIN code, proven with the password or the current PIN. */
export const changePinCode = async (
  auth: Auth,
  dto: { pinCode?: string | undefined; password?: string | undefined; newPinCode: string },
): Promise<void> => {
  const user = await userOf(auth);
  const current = await proveIdentity(user, dto);
  if (!(await replacePinCodeHash(user.id, current, await hashPassword(dto.newPinCode)))) changed();
};

/** DELETE /auth/pin-code: no PIN code any more, proven as a change is; every session of the user is locked. */
export const resetPinCode = async (auth: Auth, dto: { pinCode?: string | undefined; password?: string | undefined }): Promise<void> => {
  const user = await userOf(auth);
  const current = await proveIdentity(user, dto);
  if (!(await replacePinCodeHash(user.id, current, null))) changed();
  await lockUserSessions(user.id);
};

/** POST /auth/session/unlock: this session is elevated for 15 minutes, with the PIN code (a session only). */
export const unlockSession = async (auth: Auth, pinCode: string | undefined): Promise<void> => {
  const sessionHash = requireSessionToken(auth);
  await proveIdentity(await userOf(auth), { pinCode });
  await setSessionPinExpiry(sessionHash, new Date(Date.now() + UNLOCKED_MS).toISOString());
};

/** POST /auth/session/lock: this session is no longer elevated (a session only). */
export const lockSession = async (auth: Auth): Promise<void> => {
  await setSessionPinExpiry(requireSessionToken(auth), null);
};
