import { mapNotification, type NotificationDto, NotificationSearchDto } from '#shared/dto/v3/notification.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { searchNotifications } from '#shared/services/notification.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'notification.read',
    query: NotificationSearchDto,
    returns: returns<NotificationDto[]>(),
  },
  async ({ auth, query }) => (await searchNotifications(auth, query)).map(mapNotification),
);
