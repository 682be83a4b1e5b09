import * as v from 'valibot';
import { id, instant, nullable } from './fields.ts';

/** Immich v3's `NotificationLevel`. */
export const notificationLevels = ['success', 'error', 'warning', 'info'] as const;
export type NotificationLevel = (typeof notificationLevels)[number];

/**
 * Immich v3.2's `NotificationType` (`ClusterGroupRequest` is 3.2's, of the cluster groups not served
 * here): which of them this server makes is docs/immich-compatibility.md's "Notifications".
 */
export const notificationTypes = [
  'JobFailed',
  'BackupFailed',
  'SystemMessage',
  'AlbumInvite',
  'AlbumUpdate',
  'ClusterGroupRequest',
  'Custom',
] as const;
export type NotificationType = (typeof notificationTypes)[number];

/**
 * One of a user's notifications (Immich v3's notification row), under its user
 * (docs/data-model.md): `data` is kept as its JSON text, so it comes back exactly as given.
 * `ttl` (epoch seconds) is when it goes, as Immich's nightly clean-up removes old ones.
 */
export const NotificationRecordSchema = v.object({
  id: id(),
  userId: id(),
  level: v.picklist(notificationLevels),
  type: v.picklist(notificationTypes),
  title: v.string(),
  description: nullable(v.string()),
  dataJson: nullable(v.string()),
  createdAt: instant(),
  readAt: nullable(instant()),
  ttl: v.number(),
});
export type NotificationRecord = v.InferOutput<typeof NotificationRecordSchema>;

const day = 24 * 3600;

/**
 * When a notification goes (Immich's NotificationsCleanup, as its comments mean it): an unread one
 * 30 days after it was made; a read one 15 days after it was made, but never sooner than 2 days
 * after it was read ("keep recently read messages around for a few days").
 */
export const notificationTtl = (createdAt: string, readAt: string | null): number => {
  const made = Math.floor(Date.parse(createdAt) / 1000);
  if (readAt === null) return made + 30 * day;
  return Math.max(made + 15 * day, Math.floor(Date.parse(readAt) / 1000) + 2 * day);
};
