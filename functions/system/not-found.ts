import type { ErrorBody } from '#shared/http/errors.ts';
import { reasonPhrase } from '#shared/http/errors.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { HttpResponse } from '#shared/http/response.ts';

/** API Gateway's `$default` route: every request no other route matched, answered as NestJS does. */
export const handler = publicHandler({ returns: returns<ErrorBody>() }, ({ event }) => {
  const body = { message: `Cannot ${event.requestContext.http.method} ${event.rawPath}`, error: reasonPhrase(404), statusCode: 404 };
  return new HttpResponse(body, { status: 404 });
});
