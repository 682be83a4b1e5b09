import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { deleteNotification } from '#shared/services/notification.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'notification.delete', params: IdParams, returns: returns<void>(), status: 204 },
  ({ auth, params }) => deleteNotification(auth, params.id),
);
