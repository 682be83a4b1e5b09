import type { ValidateAccessTokenResponseDto } from '#shared/dto/v1/user.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';

// Reaching the handler means the stack accepted the credentials.
export const handler = httpHandler({ access: 'user', permission: false, returns: returns<ValidateAccessTokenResponseDto>() }, () => ({
  authStatus: true,
}));
