import type { UserResponse } from '#shared/dto/v1/user.response.ts';
import { mapUser } from '#shared/dto/v1/user.response.ts';
import { CreateUserDto } from '#shared/dto/v1/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createUser } from '#shared/services/user/user.service.ts';

export const handler = httpHandler(
  { access: 'admin', permission: 'adminUser.create', returns: returns<UserResponse>(), body: CreateUserDto, status: 201 },
  async ({ body }) => mapUser(await createUser(body)),
);
