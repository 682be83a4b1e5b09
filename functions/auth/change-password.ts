import { httpHandler } from '#shared/http/handler.ts';
import { ChangePasswordDto } from '#shared/schemas/user.ts';
import { changePassword } from '#shared/services/auth.service.ts';

export const handler = httpHandler({ access: 'user', body: ChangePasswordDto }, ({ auth, body }) => changePassword(auth, body));
