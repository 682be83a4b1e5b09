import { httpHandler } from '#shared/http/handler.ts';
import { CreateUserDto } from '#shared/schemas/user.ts';
import { createUser } from '#shared/services/user.service.ts';

export const handler = httpHandler({ access: 'admin', body: CreateUserDto, status: 201 }, ({ body }) => createUser(body));
