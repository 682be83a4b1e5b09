import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import type { UserResponse } from '#shared/schemas/user.ts';
import { SignUpDto } from '#shared/schemas/user.ts';
import { signUpAdmin } from '#shared/services/user.service.ts';

export const handler = publicHandler({ returns: returns<UserResponse>(), body: SignUpDto, status: 201 }, ({ body }) => signUpAdmin(body));
