import { IdParams } from '#shared/dto/common.ts';
import { mapSharedLinkV3, SharedLinkEditDtoV3, type SharedLinkResponseDto } from '#shared/dto/v3/shared-link.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateSharedLink } from '#shared/services/shared-link.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'sharedLink.update',
    returns: returns<SharedLinkResponseDto>(),
    params: IdParams,
    body: SharedLinkEditDtoV3,
  },
  async ({ auth, params, body }) =>
    mapSharedLinkV3(await updateSharedLink(auth, params.id, body), { callerId: auth.user.id, withExif: true }),
);
