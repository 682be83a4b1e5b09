import { requireSessionToken } from '../access/sessions.ts';
import { hashPassword, verifyPassword } from '../core/crypto.ts';
import { Conflict, Invalid, TooMany, Unauthenticated } from '../core/errors.ts';
import * as pinGuardRepo from '../db/pin-guard.repository.ts';
import * as sessionRepo from '../db/session.repository.ts';
import * as userRepo from '../db/user.repository.ts';
import type { Auth, UserRecord } from '../model/user.ts';

/**
 * The locked folder's PIN code and the session it unlocks (Immich v3's AuthService: setup,
 * change, reset, unlock, lock; docs/immich-compatibility.md, "The locked folder"). The PIN is
 * stored as the password is (argon2id); an unlocked session is elevated for 15 minutes from the
 * unlock (shared/auth/authenticate.ts reads it with the session).
 */

const UNLOCKED_MS = 15 * 60_000;

const userOf = async (auth: Auth): Promise<UserRecord> => {
  const user = await userRepo.get(auth.user.id);
  if (!user) throw new Unauthenticated();
  return user;
};

/**
 * Guessing (docs/immich-compatibility.md, "PIN code guesses"): after `MAX_FAILURES` wrong proofs in
 * a row the PIN routes are locked for a minute, and each wrong proof after a lock doubles it, up to
 * an hour; a right proof starts the count again, and a day without attempts forgets it. Each
 * attempt is counted before it is checked, so concurrent guesses cannot pass the count.
 */
const MAX_FAILURES = 5;
const lockMs = (failures: number): number => Math.min(60_000 * 2 ** (failures - MAX_FAILURES), 60 * 60_000);
const FORGET_SECONDS = 24 * 60 * 60;

/** Counts this attempt, or refuses it (429) while the user is locked out, checking nothing. */
const countAttempt = async (userId: string): Promise<void> => {
  // Each lost race means another attempt was counted: after MAX_FAILURES of them the user is locked.
  for (let race = 0; race <= 2 * MAX_FAILURES; race++) {
    const now = Date.now();
    const guard = await pinGuardRepo.get(userId);
    const failures = guard && guard.ttl * 1000 > now ? guard.failures : 0;
    const lockedUntil = guard?.lockedUntil ?? 0;
    if (failures >= MAX_FAILURES && lockedUntil > now) {
      throw new TooMany(`Too many wrong PIN codes or passwords; try again in ${Math.ceil((lockedUntil - now) / 1000)} seconds`);
    }
    const next = failures + 1;
    const counted = await pinGuardRepo.countPinAttempt(userId, guard, {
      failures: next,
      lockedUntil: next >= MAX_FAILURES ? now + lockMs(next) : null,
      ttl: Math.floor(now / 1000) + FORGET_SECONDS,
    });
    if (counted.ok) return;
  }
  throw new Conflict('The request met concurrent attempts; try again');
};

/**
 * Immich's `validatePinCode`: the password, or else the PIN code, proves it is the user; every
 * proof is counted against guessing.
 */
const proveIdentity = async (user: UserRecord, dto: { pinCode?: string | undefined; password?: string | undefined }): Promise<string> => {
  const pin = user.pinCodeHash;
  if (!pin) throw new Invalid('User does not have a PIN code');
  if (!dto.password && !dto.pinCode) throw new Invalid('Either password or pinCode is required');
  await countAttempt(user.id);
  if (dto.password) {
    if (!(await verifyPassword(dto.password, user.passwordHash))) throw new Invalid('Wrong password');
  } else if (!(await verifyPassword(dto.pinCode ?? '', pin))) {
    throw new Invalid('Wrong PIN code');
  }
  await pinGuardRepo.clearPinGuard(user.id);
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
  if (!(await userRepo.replacePinCodeHash(user.id, null, await hashPassword(pinCode))).ok) throw new Invalid('User already has a PIN code');
};

/** PUT /auth/pin-code: a new PIN code, proven with the password or the current PIN. */
export const changePinCode = async (
  auth: Auth,
  dto: { pinCode?: string | undefined; password?: string | undefined; newPinCode: string },
): Promise<void> => {
  const user = await userOf(auth);
  const current = await proveIdentity(user, dto);
  if (!(await userRepo.replacePinCodeHash(user.id, current, await hashPassword(dto.newPinCode))).ok) changed();
};

/** DELETE /auth/pin-code: no PIN code any more, proven as a change is; every session of the user is locked. */
export const resetPinCode = async (auth: Auth, dto: { pinCode?: string | undefined; password?: string | undefined }): Promise<void> => {
  const user = await userOf(auth);
  const current = await proveIdentity(user, dto);
  if (!(await userRepo.replacePinCodeHash(user.id, current, null)).ok) changed();
  await sessionRepo.lockUserSessions(user.id);
};

/** POST /auth/session/unlock: this session is elevated for 15 minutes, with the PIN code (a session only). */
export const unlockSession = async (auth: Auth, pinCode: string | undefined): Promise<void> => {
  const sessionHash = requireSessionToken(auth);
  await proveIdentity(await userOf(auth), { pinCode });
  await sessionRepo.setPinExpiry(sessionHash, new Date(Date.now() + UNLOCKED_MS).toISOString());
};

/** POST /auth/session/lock: this session is no longer elevated (a session only). */
export const lockSession = async (auth: Auth): Promise<void> => {
  await sessionRepo.setPinExpiry(requireSessionToken(auth), null);
};
