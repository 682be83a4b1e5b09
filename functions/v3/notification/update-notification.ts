import { IdParams } from '#shared/dto/common.ts';
import { mapNotification, type NotificationDto, NotificationUpdateDto } from '#shared/dto/v3/notification.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateNotification } from '#shared/services/notification.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'notification.update',
    params: IdParams,
    body: NotificationUpdateDto,
    returns: returns<NotificationDto>(),
  },
  async ({ auth, params, body }) => mapNotification(await updateNotification(auth, params.id, body.readAt)),
);
