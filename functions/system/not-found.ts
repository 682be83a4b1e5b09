import { HttpError } from '#shared/http/errors.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';

/** API Gateway's `$default` route: every request no other route matched, answered as NestJS does. */
export const handler = publicHandler({ returns: returns<never>() }, ({ event }) => {
  throw new HttpError(404, `Cannot ${event.requestContext.http.method} ${event.rawPath}`);
});
