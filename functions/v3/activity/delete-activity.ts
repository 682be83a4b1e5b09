import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { deleteActivity } from '#shared/services/activity.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'activity.delete', params: IdParams, returns: returns<void>(), status: 204 },
  ({ auth, params }) => deleteActivity(auth, params.id),
);
