import { httpHandler } from '#shared/http/handler.ts';
import { getMyUserInfo } from '#shared/services/user.service.ts';

export const handler = httpHandler({ access: 'user' }, ({ auth }) => getMyUserInfo(auth));
