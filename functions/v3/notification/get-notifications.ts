import { type NotificationDto, NotificationSearchDto } from '#shared/dto/v3/notification.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';

// Nothing here makes notifications (Immich's come from failed jobs, album invites and its admins):
// every filter finds none, as on an Immich that made none.
export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'notification.read',
    query: NotificationSearchDto,
    returns: returns<NotificationDto[]>(),
  },
  () => [],
);
