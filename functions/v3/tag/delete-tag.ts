import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { deleteTagV3 } from '#shared/services/tag/tag.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'tag.delete', params: IdParams, returns: returns<void>(), status: 204 },
  ({ auth, params }) => deleteTagV3(auth, params.id),
);
