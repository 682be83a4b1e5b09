import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { dismissDuplicates } from '#shared/services/duplicate.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'duplicate.delete', params: IdParams, returns: returns<void>(), status: 204 },
  ({ auth, params }) => dismissDuplicates(auth, [params.id]),
);
