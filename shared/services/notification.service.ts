/**
 * Immich v3's notifications (docs/immich-compatibility.md, "Notifications"): a user's own, listed
 * newest first, marked read or unread, deleted. Made here where Immich makes them: an album shared
 * with a user (`AlbumInvite`), media added to an album shared with them (`AlbumUpdate`), and an
 * admin's `POST /admin/notifications` (any type, `Custom` unless said). Immich's `JobFailed` comes
 * from a failed database backup and `BackupFailed`, `SystemMessage` from nothing on its server:
 * no job here makes database backups, so none of those three is ever made.
 */
import { randomUUID } from 'node:crypto';
import { notificationLost, requireNotifications } from '../access/notification-access.ts';
import { Permission } from '../access/permission.ts';
import { inBatches } from '../core/concurrency.ts';
import { derivedUuid } from '../core/crypto.ts';
import { Invalid } from '../core/errors.ts';
import { log } from '../core/log.ts';
import * as notificationRepo from '../db/notification.repository.ts';
import * as userRepo from '../db/user.repository.ts';
import type { AlbumRecord } from '../model/album.ts';
import { type NotificationLevel, type NotificationRecord, type NotificationType, notificationTtl } from '../model/notification.ts';
import type { Auth } from '../model/user.ts';
import { raise } from '../realtime/outbox.ts';

export interface NotificationFilters {
  id?: string | undefined;
  level?: NotificationLevel | undefined;
  type?: NotificationType | undefined;
  /** True: only the unread ones. False or absent: all of them (Immich filters on true alone). */
  unread?: boolean | undefined;
}

/** GET /notifications: the caller's, newest first, narrowed as Immich's search narrows them. */
export const searchNotifications = async (auth: Auth, filters: NotificationFilters): Promise<NotificationRecord[]> =>
  (await notificationRepo.list(auth.user.id))
    .filter(
      (notification) =>
        (!filters.id || notification.id === filters.id) &&
        (!filters.level || notification.level === filters.level) &&
        (!filters.type || notification.type === filters.type) &&
        (!filters.unread || notification.readAt === null),
    )
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));

/** GET /notifications/:id: the caller's own (any other id is refused as Immich refuses it: shared/access/notification-access.ts). */
export const getNotification = async (auth: Auth, id: string): Promise<NotificationRecord> => {
  const [notification] = await requireNotifications(auth, Permission.NotificationRead, [id]);
  if (!notification) throw notificationLost(Permission.NotificationRead);
  return notification;
};

/** The notification marked read at `readAt`, or unread (null); `undefined` changes nothing (Immich's update of an absent field). */
const markRead = async (notification: NotificationRecord, readAt: string | null | undefined): Promise<NotificationRecord | undefined> => {
  if (readAt === undefined) return notification;
  if (!(await notificationRepo.setRead(notification, readAt)).ok) return undefined;
  return { ...notification, readAt, ttl: notificationTtl(notification.createdAt, readAt) };
};

/** PUT /notifications/:id: read (`readAt`) or unread again (`readAt: null`); answered as it now is. */
export const updateNotification = async (auth: Auth, id: string, readAt: string | null | undefined): Promise<NotificationRecord> => {
  const [notification] = await requireNotifications(auth, Permission.NotificationUpdate, [id]);
  const updated = notification && (await markRead(notification, readAt));
  // Deleted by another request meanwhile: as though it had never been the caller's.
  if (!updated) throw notificationLost(Permission.NotificationUpdate);
  return updated;
};

/** PUT /notifications: every id the caller's (else nothing changes), each marked; one deleted meanwhile stays deleted. */
export const updateNotifications = async (auth: Auth, ids: readonly string[], readAt: string | null | undefined): Promise<void> => {
  const notifications = await requireNotifications(auth, Permission.NotificationUpdate, ids);
  await inBatches(notifications, 8, async (notification) => {
    await markRead(notification, readAt);
  });
};

/** DELETE /notifications/:id: the caller's own, gone for good (Immich marks it deleted, which no read shows again). */
export const deleteNotification = async (auth: Auth, id: string): Promise<void> => {
  await requireNotifications(auth, Permission.NotificationDelete, [id]);
  await notificationRepo.deleteMany(auth.user.id, [id]);
};

/** DELETE /notifications: every id the caller's (else none is deleted). */
export const deleteNotifications = async (auth: Auth, ids: readonly string[]): Promise<void> => {
  await requireNotifications(auth, Permission.NotificationDelete, ids);
  await notificationRepo.deleteMany(auth.user.id, ids);
};

/**
 * What one notification may hold: an item is at most 400 KB, so title, description and data
 * together are kept well under it (Immich's columns have no limit; a request body has 1 MB).
 */
const maxNotificationBytes = 256 * 1024;

const newNotification = (
  fields: Pick<NotificationRecord, 'id' | 'userId' | 'level' | 'type' | 'title'> &
    Partial<Pick<NotificationRecord, 'description' | 'dataJson'>>,
): NotificationRecord => {
  const createdAt = new Date().toISOString();
  return {
    description: null,
    dataJson: null,
    ...fields,
    createdAt,
    readAt: null,
    ttl: notificationTtl(createdAt, null),
  };
};

export interface NewNotification {
  userId: string;
  title: string;
  description?: string | null | undefined;
  level?: NotificationLevel | undefined;
  type?: NotificationType | undefined;
  data?: Record<string, unknown> | undefined;
}

/**
 * POST /admin/notifications: a notification for any existing user (`Custom` and `info` unless
 * said). As Immich's, the user is not told at once (no `on_notification`): their app finds it
 * on its next look (the web app's at sign-in, the bell's refresh).
 */
export const createNotification = async (dto: NewNotification): Promise<NotificationRecord> => {
  const dataJson = dto.data === undefined ? null : JSON.stringify(dto.data);
  const size = Buffer.byteLength(dto.title) + Buffer.byteLength(dto.description ?? '') + Buffer.byteLength(dataJson ?? '');
  if (size > maxNotificationBytes)
    throw new Invalid(`A notification's title, description and data must be at most ${maxNotificationBytes} bytes`);
  const user = await userRepo.get(dto.userId);
  if (!user || user.status === 'removing') throw new Invalid('User not found');
  const notification = newNotification({
    id: randomUUID(),
    userId: dto.userId,
    level: dto.level ?? 'info',
    type: dto.type ?? 'Custom',
    title: dto.title,
    description: dto.description ?? null,
    dataJson,
  });
  await notificationRepo.putMany([notification]);
  return notification;
};

/**
 * Notifications follow the change that makes them, as Immich's come from a job the change
 * queues: the change stands whatever becomes of them, so a failure to write one is logged, and
 * the request it follows still succeeds.
 */
const besideTheChange = async (what: string, work: () => Promise<void>): Promise<void> => {
  try {
    await work();
  } catch (error) {
    log.warn(`${what} notifications were not made`, { error: String(error) });
  }
};

/** The users of these ids who are not deleted (Immich skips a deleted recipient). */
const activeUsers = async (userIds: readonly string[]) =>
  userIds.length === 0 ? [] : (await userRepo.getMany(userIds)).filter((user) => user.deletedAt === null);

/**
 * An album shared with users (made with them, or their share added): each is told, with Immich's
 * `AlbumInvite` (`<sender> shared an album (<name>) with you`, `data: {albumId}`, which the web app
 * opens the album from) and `on_notification` to their v3 apps. The sender is not told.
 */
export const notifyAlbumInvite = (album: Pick<AlbumRecord, 'id' | 'albumName'>, userIds: readonly string[], senderName: string) =>
  besideTheChange('Album invite', async () => {
    const notifications = (await activeUsers(userIds)).map((user) =>
      newNotification({
        id: randomUUID(),
        userId: user.id,
        level: 'success',
        type: 'AlbumInvite',
        title: 'Shared Album Invitation',
        description: `${senderName} shared an album (${album.albumName}) with you`,
        dataJson: JSON.stringify({ albumId: album.id }),
      }),
    );
    await notificationRepo.putMany(notifications);
    for (const notification of notifications) raise({ kind: 'notification', notification });
  });

/**
 * How long one `AlbumUpdate` covers an album's additions for one user. Immich waits until five
 * minutes pass without an addition, then makes one (a web upload adds its files one request
 * each); nothing here runs later, so the first addition makes it and the rest of its five-minute
 * slot add to it: a burst of additions is told once.
 */
export const albumUpdateSlotMs = 5 * 60_000;

/**
 * Media added to an album: each of its other users (its owner too, when someone else added) is
 * told, with Immich's `AlbumUpdate` (`New media has been added to the album (<name>)`), at most
 * once per album and slot: its id is derived from the user, the album and the slot, and written
 * only if new, so concurrent additions make it once.
 */
export const notifyAlbumUpdate = (album: Pick<AlbumRecord, 'id' | 'albumName' | 'ownerId' | 'sharedUserIds'>, actorId: string) =>
  besideTheChange('Album update', async () => {
    const recipients = [album.ownerId, ...album.sharedUserIds].filter((userId) => userId !== actorId);
    const slot = Math.floor(Date.now() / albumUpdateSlotMs);
    await inBatches(await activeUsers(recipients), 8, async (user) => {
      const notification = newNotification({
        id: derivedUuid(`album_update|${user.id}|${album.id}|${slot}`),
        userId: user.id,
        level: 'info',
        type: 'AlbumUpdate',
        title: 'Shared Album Update',
        description: `New media has been added to the album (${album.albumName})`,
        dataJson: JSON.stringify({ albumId: album.id }),
      });
      if ((await notificationRepo.putOnce(notification)).ok) raise({ kind: 'notification', notification });
    });
  });
