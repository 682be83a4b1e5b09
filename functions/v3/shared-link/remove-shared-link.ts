import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { deleteSharedLink } from '#shared/services/shared-link.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'sharedLink.delete', returns: returns<void>(), params: IdParams, status: 204 },
  ({ auth, params }) => deleteSharedLink(auth, params.id),
);
