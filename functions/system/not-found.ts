import { NotFoundException } from '#shared/http/errors.ts';
import { publicHandler } from '#shared/http/public-handler.ts';

/** API Gateway's `$default` route: every request no other route matched, answered as NestJS does. */
export const handler = publicHandler({}, ({ event }) => {
  throw new NotFoundException(`Cannot ${event.requestContext.http.method} ${event.rawPath}`);
});
