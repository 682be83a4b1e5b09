import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { deleteTagV1 } from '#shared/services/tag/tag.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'tag.delete', params: IdParams, returns: returns<void>() },
  ({ auth, params }) => deleteTagV1(auth, params.id),
);
