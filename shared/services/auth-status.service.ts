import { Unauthenticated } from '../core/errors.ts';
import * as sessionRepo from '../db/session.repository.ts';
import * as userRepo from '../db/user.repository.ts';
import type { Auth } from '../model/user.ts';

/**
 * GET /auth/status (Immich v3's AuthService.getAuthStatus): whether the user has a password and a
 * PIN code, whether the session is unlocked with it (elevated) and until when, and when the
 * session ends (an API key has none).
 */
export const getAuthStatus = async (
  auth: Auth,
): Promise<{ pinCode: boolean; password: boolean; isElevated: boolean; expiresAt?: string; pinExpiresAt?: string }> => {
  const user = await userRepo.get(auth.user.id);
  if (!user) throw new Unauthenticated();
  const session = auth.sessionHash ? await sessionRepo.get(auth.sessionHash) : undefined;
  return {
    pinCode: user.pinCodeHash !== null,
    password: user.passwordHash !== '',
    isElevated: auth.elevatedUntil !== undefined,
    ...(session ? { expiresAt: new Date(session.ttl * 1000).toISOString() } : {}),
    ...(session?.pinExpiresAt ? { pinExpiresAt: session.pinExpiresAt } : {}),
  };
};
