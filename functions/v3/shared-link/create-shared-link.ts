import { mapSharedLinkV3, SharedLinkCreateDtoV3, type SharedLinkResponseDto } from '#shared/dto/v3/shared-link.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createSharedLink } from '#shared/services/shared-link.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'sharedLink.create',
    returns: returns<SharedLinkResponseDto>(),
    body: SharedLinkCreateDtoV3,
    status: 201,
  },
  // v3 answers with the link's own assets (v1.100's route, a path of its own, answers none).
  async ({ auth, body }) =>
    mapSharedLinkV3(await createSharedLink(auth, body, { withAssets: true }), { callerId: auth.user.id, withExif: true }),
);
