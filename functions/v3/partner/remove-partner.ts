import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { removePartner } from '#shared/services/partner.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'partner.delete', returns: returns<void>(), params: IdParams, status: 204 },
  ({ auth, params }) => removePartner(auth, params.id),
);
