import { mapSharedLinkV3, type SharedLinkResponseDto, SharedLinkSearchDto } from '#shared/dto/v3/shared-link.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAllSharedLinks } from '#shared/services/shared-link.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'sharedLink.read',
    returns: returns<SharedLinkResponseDto[]>(),
    query: SharedLinkSearchDto,
  },
  async ({ auth, query }) =>
    (await getAllSharedLinks(auth, query)).map((shown) => mapSharedLinkV3(shown, { callerId: auth.user.id, withExif: true })),
);
