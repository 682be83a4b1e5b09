import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { ValidateAccessTokenResponseDto } from '#shared/schemas/user.ts';

// Reaching the handler means the stack accepted the credentials.
export const handler = httpHandler({ access: 'user', returns: returns<ValidateAccessTokenResponseDto>() }, () => ({ authStatus: true }));
