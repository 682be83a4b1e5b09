import { IdParams } from '#shared/dto/common.ts';
import { SharedLinkEditDto } from '#shared/dto/v1/shared-link.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { SharedLinkResponseDto } from '#shared/services/shared-link.service.ts';
import { updateSharedLink } from '#shared/services/shared-link.service.ts';

export const handler = httpHandler(
  { access: 'user', returns: returns<SharedLinkResponseDto>(), params: IdParams, body: SharedLinkEditDto },
  ({ auth, params, body }) => updateSharedLink(auth, params.id, body),
);
