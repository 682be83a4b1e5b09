import { SharedLinkCreateDto } from '#shared/dto/v1/shared-link.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { SharedLinkResponseDto } from '#shared/services/shared-link.service.ts';
import { createSharedLink } from '#shared/services/shared-link.service.ts';

export const handler = httpHandler(
  { access: 'user', returns: returns<SharedLinkResponseDto>(), body: SharedLinkCreateDto, status: 201 },
  ({ auth, body }) => createSharedLink(auth, body),
);
