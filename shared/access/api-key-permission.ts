import { Forbidden, Invalid } from '../core/errors.ts';
import type { Auth } from '../model/user.ts';

export type { ApiKeyPermission } from '../model/api-key-permission.ts';

/** Immich's `isGranted`: `all` grants everything; otherwise every requested permission must be held. */
export const isGranted = (requested: readonly string[], held: readonly string[]): boolean =>
  held.includes('all') || requested.every((permission) => held.includes(permission));

/** A key may only hand on what it holds itself, to a new key or a changed one (Immich); a session holds everything. */
export const requireGrantable = (auth: Auth, permissions: readonly string[]): void => {
  if (auth.apiKey && !isGranted(permissions, auth.apiKey.permissions)) throw new Invalid('Cannot grant permissions you do not have');
};

/** The key the caller presented (`GET /api-keys/me`): a session has none (Immich's 403). */
export const requireApiKey = (auth: Auth): { id: string } => {
  if (!auth.apiKey) throw new Forbidden('Not authenticated with an API Key');
  return auth.apiKey;
};
