import { NotificationRecordSchema } from '../../model/notification.ts';
import { codec } from '../codec.ts';

/** The notification's type is stored as `notificationType`: `type` names the entity on every item. */
export const notificationCodec = codec('notification', NotificationRecordSchema, { notificationType: 'type' });
