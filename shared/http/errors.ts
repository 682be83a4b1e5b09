import { DomainError, type ErrorKind } from '../core/errors.ts';
import { log } from '../core/log.ts';
import { jsonResult, type LambdaResult } from './response.ts';

/**
 * The one mapping from errors to Immich's (NestJS's) JSON error body, `{ message, error,
 * statusCode }`. Domain errors (shared/core/errors.ts) carry a kind; here each kind gets its
 * status. Anything unexpected becomes a fixed 500 that names the request id and is logged with
 * its stack; nothing internal reaches the body.
 */

// Reason phrases kept here instead of reading node:http's STATUS_CODES: importing node:http from
// an ESM bundle costs ~25 ms of cold start (docs/benchmarks.md).
const reasonPhrases: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  500: 'Internal Server Error',
};

export const reasonPhrase = (statusCode: number): string => reasonPhrases[statusCode] ?? 'Error';

/** Immich answers a missing or foreign resource with 400, like any other bad request (docs/immich-compatibility.md). */
const statusOfKind: Readonly<Record<ErrorKind, number>> = {
  invalid: 400,
  inaccessible: 400,
  'not-found': 404,
  unauthenticated: 401,
  forbidden: 403,
  conflict: 409,
  'too-large': 413,
};

export interface ErrorBody {
  message: string | string[];
  error?: string;
  statusCode: number;
}

/** The status and body for an error, or undefined when it is not one we raise on purpose. */
export const errorBody = (error: unknown): ErrorBody | undefined => {
  if (error instanceof DomainError) {
    const statusCode = statusOfKind[error.kind];
    // NestJS omits `error` when an exception is created without a message.
    return error.messages === undefined
      ? { message: reasonPhrase(statusCode), statusCode }
      : { message: error.messages, error: reasonPhrase(statusCode), statusCode };
  }
  return undefined;
};

/** Maps anything thrown to Immich's JSON error body; unknown errors become a fixed 500. */
export const errorResult = (error: unknown, requestId: string): LambdaResult => {
  const body = errorBody(error);
  if (body) return jsonResult(body.statusCode, body);
  log.error('Unhandled error', { error: error instanceof Error ? error.stack : String(error) });
  return jsonResult(500, { message: `Internal server error (request id ${requestId})`, error: reasonPhrase(500), statusCode: 500 });
};
