import { NotificationUpdateAllDto } from '#shared/dto/v3/notification.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateNotifications } from '#shared/services/notification.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'notification.update',
    body: NotificationUpdateAllDto,
    returns: returns<void>(),
    status: 204,
  },
  ({ auth, body }) => updateNotifications(auth, body.ids, body.readAt),
);
