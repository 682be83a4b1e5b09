/** Immich v3.2's notifications (`@immich/sdk` 3.2.2: NotificationSearchDto, NotificationDto, NotificationCreateDto). */
import * as v from 'valibot';
import { limits } from '../../model/limits.ts';
import { type NotificationRecord, notificationLevels, notificationTypes } from '../../model/notification.ts';
import { isoDateTime, object, picklist, stringToBool, upTo, uuid } from './common.ts';

/** GET /notifications' filters (checked as Immich checks them). */
export const NotificationSearchDto = object({
  id: v.optional(uuid),
  level: v.optional(picklist(notificationLevels)),
  type: v.optional(picklist(notificationTypes)),
  unread: v.optional(stringToBool),
});

export interface NotificationDto {
  id: string;
  createdAt: string;
  level: NotificationRecord['level'];
  type: NotificationRecord['type'];
  title: string;
  description?: string;
  data?: Record<string, unknown>;
  readAt?: string;
}

/** Immich's mapNotification: a missing description, data or read time is left out of the answer. */
export const mapNotification = (notification: NotificationRecord): NotificationDto => ({
  id: notification.id,
  createdAt: notification.createdAt,
  level: notification.level,
  type: notification.type,
  title: notification.title,
  ...(notification.description !== null ? { description: notification.description } : {}),
  ...(notification.dataJson !== null ? { data: JSON.parse(notification.dataJson) as Record<string, unknown> } : {}),
  ...(notification.readAt !== null ? { readAt: notification.readAt } : {}),
});

const ids = upTo(
  limits.bulkGroups,
  v.pipe(v.array(uuid, '$property must be an array'), v.minLength(1, '$property must contain at least 1 item')),
);

/** PUT /notifications/:id: `readAt` null marks it unread again; absent changes nothing. */
export const NotificationUpdateDto = object({ readAt: v.nullish(isoDateTime) });
/** PUT /notifications: at least one id. */
export const NotificationUpdateAllDto = object({ ids, readAt: v.nullish(isoDateTime) });
/** DELETE /notifications: at least one id. */
export const NotificationDeleteAllDto = object({ ids });

/**
 * POST /admin/notifications (Immich's NotificationCreateDto): `data` an object of any JSON;
 * `readAt` is accepted and, as by Immich, not kept (a new notification is unread).
 */
export const NotificationCreateDto = object({
  userId: uuid,
  title: v.string('$property must be a string'),
  description: v.nullish(v.string('$property must be a string')),
  level: v.optional(picklist(notificationLevels)),
  type: v.optional(picklist(notificationTypes)),
  data: v.optional(
    v.custom<Record<string, unknown>>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), '$property must be an object'),
  ),
  readAt: v.nullish(isoDateTime),
});
