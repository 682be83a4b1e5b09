/**
 * Deleting and restoring a user, for both generations (v1.100's DELETE /user/:id and POST
 * /user/:id/restore, v3's /admin/users/:id routes): the user's soft delete or restore, then what it
 * means for what they shared (shared/services/user-library.ts) and for their open upload sessions.
 */
import type { UserRecord } from '../model/user.ts';
import { raise } from '../realtime/outbox.ts';
import { endSessionsOf } from './upload-session-end.ts';
import { deleteUser, restoreUser } from './user.service.ts';
import { setLibraryHidden } from './user-library.ts';

/**
 * The user is deleted; what they shared is hidden from partners and album members, and their
 * upload sessions end. Deleted with `force`, every app is told (`on_user_delete`): Immich tells
 * them when its deletion job removes the user, which `force` starts at once; this server has no
 * such job, and the user stays `removing` (docs/immich-compatibility.md, "Realtime").
 */
export const removeUser = async (id: string, force: boolean): Promise<UserRecord> => {
  const user = await deleteUser(id, force);
  // The part URLs they hold take no more bytes.
  await Promise.all([setLibraryHidden(user.id, true), endSessionsOf(user)]);
  if (force) raise({ kind: 'user-deleted', userId: user.id });
  return user;
};

/** The user is back; their partners and album members see what they shared again. */
export const bringBackUser = async (id: string): Promise<UserRecord> => {
  const user = await restoreUser(id);
  await setLibraryHidden(user.id, false);
  return user;
};
