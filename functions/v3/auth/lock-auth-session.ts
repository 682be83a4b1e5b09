import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { lockSession } from '#shared/services/pin-code.service.ts';

export const handler = httpHandler({ generation: 'v3', access: 'user', returns: returns<void>(), status: 204 }, ({ auth }) =>
  lockSession(auth),
);
