import { httpHandler } from '#shared/http/handler.ts';
import { SharedLinkPasswordDto } from '#shared/schemas/shared-link.ts';
import { getMySharedLink } from '#shared/services/shared-link.service.ts';

// The one route a shared-link key opens (`?key=` or x-immich-share-key); a user token gets 403.
export const handler = httpHandler({ access: 'shared', query: SharedLinkPasswordDto }, ({ auth, query, event }) =>
  getMySharedLink(auth, query, event.cookies ?? []),
);
