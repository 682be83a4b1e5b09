/**
 * Access to the caller's notifications: a module of its own, as each resource\'s, so that only the functions that
 * need its repository bundle it (docs/benchmarks.md).
 */
import * as notificationRepo from '../db/notification.repository.ts';
import type { NotificationRecord } from '../model/notification.ts';
import type { Auth } from '../model/user.ts';
import { noAccess, type Permission } from './permission.ts';

/**
 * The caller's notifications of these ids (Immich's notification.read, .update and .delete: the
 * user's own alone), all or none: one that is someone else's, or none at all, refuses the request
 * as Immich refuses it (`Not found or no notification.update access`).
 */
export const requireNotifications = async (auth: Auth, permission: Permission, ids: readonly string[]): Promise<NotificationRecord[]> => {
  const found = await notificationRepo.getMany(auth.user.id, ids);
  if (found.length !== new Set(ids).size) throw noAccess(permission);
  return found;
};

/** A notification of the caller's deleted by another request meanwhile: refused as though it had never been theirs. */
export const notificationLost = (permission: Permission) => noAccess(permission);
