import { mapSharedLink, type SharedLinkResponseDto } from '#shared/dto/v1/shared-link.response.ts';
import { SharedLinkCreateDto } from '#shared/dto/v1/shared-link.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createSharedLink } from '#shared/services/shared-link.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'sharedLink.create', returns: returns<SharedLinkResponseDto>(), body: SharedLinkCreateDto, status: 201 },
  async ({ auth, body }) => mapSharedLink(await createSharedLink(auth, body), { withExif: true }),
);
