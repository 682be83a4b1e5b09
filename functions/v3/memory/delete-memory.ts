import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { deleteMemory } from '#shared/services/memory.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'memory.delete', params: IdParams, returns: returns<void>(), status: 204 },
  ({ auth, params }) => deleteMemory(auth, params.id),
);
