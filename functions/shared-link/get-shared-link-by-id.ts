import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { SharedLinkResponseDto } from '#shared/services/shared-link.service.ts';
import { getSharedLinkById } from '#shared/services/shared-link.service.ts';

export const handler = httpHandler({ access: 'user', returns: returns<SharedLinkResponseDto>(), params: IdParams }, ({ auth, params }) =>
  getSharedLinkById(auth, params.id),
);
