import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { deleteStack } from '#shared/services/stack.service.ts';

export const handler = httpHandler(
  { publish, generation: 'v3', access: 'user', permission: 'stack.delete', params: IdParams, returns: returns<void>(), status: 204 },
  ({ auth, params }) => deleteStack(auth, params.id),
);
