import { httpHandler } from '#shared/http/handler.ts';
import { getAllSharedLinks } from '#shared/services/shared-link.service.ts';

export const handler = httpHandler({ access: 'user' }, ({ auth }) => getAllSharedLinks(auth));
