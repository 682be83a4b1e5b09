import { IdParams } from '#shared/dto/common.ts';
import type { NotificationDto } from '#shared/dto/v3/notification.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getNotification } from '#shared/services/notification.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'notification.read', params: IdParams, returns: returns<NotificationDto>() },
  ({ auth, params }) => getNotification(auth, params.id),
);
