import { httpHandler } from '#shared/http/handler.ts';
import { SharedLinkCreateDto } from '#shared/schemas/shared-link.ts';
import { createSharedLink } from '#shared/services/shared-link.service.ts';

export const handler = httpHandler({ access: 'user', body: SharedLinkCreateDto, status: 201 }, ({ auth, body }) => createSharedLink(auth, body));
