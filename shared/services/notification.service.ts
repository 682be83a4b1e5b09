import { Permission, requireNotifications } from '../access/access.ts';
import type { Auth } from '../model/user.ts';

/**
 * Immich v3's notifications (docs/immich-compatibility.md, "Two generations"): nothing here makes
 * one (Immich's come from failed jobs, album invites and its admins), so GET /notifications lists
 * none and every id the others name is refused as Immich refuses one that is not the caller's.
 */
export const getNotification = (_auth: Auth, id: string): never => requireNotifications(Permission.NotificationRead, [id]);
export const updateNotification = (_auth: Auth, id: string): never => requireNotifications(Permission.NotificationUpdate, [id]);
export const deleteNotification = (_auth: Auth, id: string): never => requireNotifications(Permission.NotificationDelete, [id]);
export const updateNotifications = (_auth: Auth, ids: readonly string[]): never => requireNotifications(Permission.NotificationUpdate, ids);
export const deleteNotifications = (_auth: Auth, ids: readonly string[]): never => requireNotifications(Permission.NotificationDelete, ids);
