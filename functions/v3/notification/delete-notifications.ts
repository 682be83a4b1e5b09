import { NotificationDeleteAllDto } from '#shared/dto/v3/notification.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { deleteNotifications } from '#shared/services/notification.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'notification.delete',
    body: NotificationDeleteAllDto,
    returns: returns<void>(),
    status: 204,
  },
  ({ auth, body }) => deleteNotifications(auth, body.ids),
);
