import type { UserResponse } from '#shared/dto/v1/user.response.ts';
import { mapUser } from '#shared/dto/v1/user.response.ts';
import { SignUpDto } from '#shared/dto/v1/user.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { signUpAdmin } from '#shared/services/user/user.service.ts';

export const handler = publicHandler({ returns: returns<UserResponse>(), body: SignUpDto, status: 201 }, async ({ body }) =>
  mapUser(await signUpAdmin(body)),
);
