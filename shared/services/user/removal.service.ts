/**
 * Deleting and restoring a user, for both generations (v1.100's DELETE /user/:id and POST
 * /user/:id/restore, v3's /admin/users/:id routes): the user's soft delete or restore, then what it
 * means for what they shared (shared/services/user/library.ts) and for their open upload sessions.
 */
import type { UserRecord } from '../../model/user.ts';
import { endSessionsOf } from '../upload/session-end.ts';
import { setLibraryHidden } from './library.ts';
import { deleteUser, restoreUser } from './user.service.ts';

/**
 * The user is deleted; what they shared is hidden from partners and album members, and their
 * upload sessions end. Their apps are told when they are removed for good (`on_user_delete`, by the
 * nightly function's purge: shared/services/user/purge.service.ts), as Immich's deletion job tells them.
 */
export const removeUser = async (id: string, force: boolean): Promise<UserRecord> => {
  const user = await deleteUser(id, force);
  // The part URLs they hold take no more bytes.
  await Promise.all([setLibraryHidden(user.id, true), endSessionsOf(user)]);
  return user;
};

/** The user is back; their partners and album members see what they shared again. */
export const bringBackUser = async (id: string): Promise<UserRecord> => {
  const user = await restoreUser(id);
  await setLibraryHidden(user.id, false);
  return user;
};
