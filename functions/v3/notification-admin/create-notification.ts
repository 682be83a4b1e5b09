import { mapNotification, NotificationCreateDto, type NotificationDto } from '#shared/dto/v3/notification.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createNotification } from '#shared/services/notification.service.ts';

// Immich's asks for the admin alone, no API-key permission.
export const handler = httpHandler(
  { generation: 'v3', access: 'admin', body: NotificationCreateDto, returns: returns<NotificationDto>(), status: 201 },
  async ({ body }) => mapNotification(await createNotification(body)),
);
