import { Conflict, DomainError, type ErrorKind, Invalid, type ValidationIssue } from '../core/errors.ts';
import { log } from '../core/log.ts';
import { jsonResult, type LambdaResult } from './response.ts';

/**
 * The one mapping from errors to Immich's JSON error bodies: v1.100's (NestJS's) `{ message, error,
 * statusCode }`, and v3's `{ message }` alone (`{ message: 'Validation failed', errors }` for a
 * request that fails its schema) on the routes of v3's generation (docs/immich-compatibility.md,
 * "Errors"). Domain errors (shared/core/errors.ts) carry a kind; here each kind gets its
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
  429: 'Too Many Requests',
  502: 'Bad Gateway',
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
  'too-many': 429,
  upstream: 502,
};

export interface ErrorBody {
  message: string | string[];
  error?: string;
  statusCode: number;
}

/**
 * A DynamoDB transaction cancelled only because other transactions held its items (or throttling),
 * still so after the retries shared/db/transact.ts makes: the request met concurrent writes and
 * may be sent again, a 409 (never a 500). Recognised by name, so no function bundles the SDK for it.
 */
const contended = (error: unknown): boolean => {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return false;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  const codes = reasons.map((reason) => reason.Code ?? 'None');
  return (
    codes.some((code) => code === 'TransactionConflict' || code === 'ThrottlingError') &&
    codes.every((code) => code !== 'ConditionalCheckFailed')
  );
};

/** The status and body for an error, or undefined when it is not one we raise on purpose. */
export const errorBody = (error: unknown): ErrorBody | undefined => {
  if (contended(error)) return errorBody(new Conflict('The request met concurrent changes of the same data; try again'));
  if (error instanceof DomainError) {
    const statusCode = statusOfKind[error.kind];
    // NestJS omits `error` when an exception is created without a message.
    return error.messages === undefined
      ? { message: reasonPhrase(statusCode), statusCode }
      : { message: error.messages, error: reasonPhrase(statusCode), statusCode };
  }
  return undefined;
};

/** Which API generation's shape an error is answered in: v1.100's when absent (infra/routes.ts, `generation`). */
export type Generation = 'v3' | undefined;

/** v3's body: the message alone; a failed schema lists its issues. */
export interface ErrorBodyV3 {
  message: string;
  errors?: ValidationIssue[];
}

const toV3 = (error: unknown, body: ErrorBody): ErrorBodyV3 => {
  if (error instanceof Invalid && error.issues !== undefined) return { message: 'Validation failed', errors: error.issues };
  return { message: Array.isArray(body.message) ? body.message.join(', ') : body.message };
};

/** Maps anything thrown to Immich's JSON error body in the route's generation; unknown errors become a fixed 500. */
export const errorResult = (error: unknown, requestId: string, generation?: Generation): LambdaResult => {
  const body = errorBody(error);
  if (body) return jsonResult(body.statusCode, generation === 'v3' ? toV3(error, body) : body);
  log.error('Unhandled error', { error: error instanceof Error ? error.stack : String(error) });
  const message = `Internal server error (request id ${requestId})`;
  return jsonResult(500, generation === 'v3' ? { message } : { message, error: reasonPhrase(500), statusCode: 500 });
};
