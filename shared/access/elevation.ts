/** A session unlocked with the PIN code (Immich's elevated permission: the locked folder, credential changes). */
import { Unauthenticated } from '../core/errors.ts';
import type { Auth } from '../model/user.ts';

/** Whether the caller's session is unlocked with their PIN code now (Immich's `hasElevatedPermission`). */
export const isElevated = (auth: Auth): boolean => auth.elevatedUntil !== undefined;

/** Immich's `requireElevatedPermission`: the locked folder is read only in a session unlocked with the PIN code. */
export const requireElevation = (auth: Auth): void => {
  if (!isElevated(auth)) throw new Unauthenticated('Elevated permission is required');
};
