import { IdParams } from '#shared/dto/common.ts';
import { mapSharedLink, type SharedLinkResponseDto } from '#shared/dto/v1/shared-link.response.ts';
import { SharedLinkEditDto } from '#shared/dto/v1/shared-link.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateSharedLink } from '#shared/services/shared-link.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'sharedLink.update', returns: returns<SharedLinkResponseDto>(), params: IdParams, body: SharedLinkEditDto },
  async ({ auth, params, body }) =>
    mapSharedLink(await updateSharedLink(auth, params.id, body), { callerId: auth.user.id, withExif: true }),
);
