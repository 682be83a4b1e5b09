import { mapSharedLink, type SharedLinkResponseDto } from '#shared/dto/v1/shared-link.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAllSharedLinks } from '#shared/services/shared-link.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'sharedLink.read', returns: returns<SharedLinkResponseDto[]>() },
  async ({ auth }) => (await getAllSharedLinks(auth)).map((shown) => mapSharedLink(shown, { callerId: auth.user.id, withExif: true })),
);
