import { IdParams } from '#shared/dto/common.ts';
import { mapSharedLink, type SharedLinkResponseDto } from '#shared/dto/v1/shared-link.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getSharedLinkById } from '#shared/services/shared-link.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'sharedLink.read', returns: returns<SharedLinkResponseDto>(), params: IdParams },
  async ({ auth, params }) => mapSharedLink(await getSharedLinkById(auth, params.id), { callerId: auth.user.id, withExif: true }),
);
