import { publicHandler } from '#shared/http/public-handler.ts';
import { SignUpDto } from '#shared/schemas/user.ts';
import { signUpAdmin } from '#shared/services/user.service.ts';

export const handler = publicHandler({ body: SignUpDto, status: 201 }, ({ body }) => signUpAdmin(body));
