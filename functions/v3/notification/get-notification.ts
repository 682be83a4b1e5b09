import { IdParams } from '#shared/dto/common.ts';
import { mapNotification, type NotificationDto } from '#shared/dto/v3/notification.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getNotification } from '#shared/services/notification.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'notification.read', params: IdParams, returns: returns<NotificationDto>() },
  async ({ auth, params }) => mapNotification(await getNotification(auth, params.id)),
);
