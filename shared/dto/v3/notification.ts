/** Immich v3.2's notifications (`@immich/sdk` 3.2.2: NotificationSearchDto, NotificationDto). */
import * as v from 'valibot';
import { isoDateTime, object, picklist, stringToBool, uuid } from './common.ts';

/** GET /notifications' filters (checked as Immich checks them). */
export const NotificationSearchDto = object({
  id: v.optional(uuid),
  level: v.optional(picklist(['success', 'error', 'warning', 'info'] as const)),
  type: v.optional(picklist(['JobFailed', 'BackupFailed', 'SystemMessage', 'AlbumInvite', 'AlbumUpdate', 'Custom'] as const)),
  unread: v.optional(stringToBool),
});

export interface NotificationDto {
  id: string;
  createdAt: string;
  level: 'success' | 'error' | 'warning' | 'info';
  type: string;
  title: string;
  description?: string;
  data?: Record<string, unknown>;
  readAt?: string;
}

const ids = v.pipe(v.array(uuid, '$property must be an array'), v.minLength(1, '$property must contain at least 1 item'));

/** PUT /notifications/:id. */
export const NotificationUpdateDto = object({ readAt: v.nullish(isoDateTime) });
/** PUT /notifications: at least one id. */
export const NotificationUpdateAllDto = object({ ids, readAt: v.nullish(isoDateTime) });
/** DELETE /notifications: at least one id. */
export const NotificationDeleteAllDto = object({ ids });
