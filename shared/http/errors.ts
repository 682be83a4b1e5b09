/**
 * The error types services and middleware throw. One middleware (`error-handler.ts`) turns them
 * into Immich's (NestJS's) JSON body: `{ message, error, statusCode }`.
 */

// Reason phrases kept here instead of reading node:http's STATUS_CODES: importing node:http from
// an ESM bundle costs ~25 ms of cold start (see docs/benchmarks.md).
export const reasonPhrases: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  500: 'Internal Server Error',
};

export const reasonPhrase = (statusCode: number): string => reasonPhrases[statusCode] ?? 'Error';

export interface ErrorBody {
  message: string | string[];
  error?: string;
  statusCode: number;
}

export class HttpError extends Error {
  readonly statusCode: number;
  readonly messages: string | string[];
  /** NestJS omits `error` when an exception is created without a message. */
  readonly bare: boolean;

  constructor(statusCode: number, message?: string | string[]) {
    const text = message ?? reasonPhrase(statusCode);
    super(Array.isArray(text) ? text.join('; ') : text);
    this.name = new.target.name;
    this.statusCode = statusCode;
    this.messages = text;
    this.bare = message === undefined;
  }

  toBody(): ErrorBody {
    return this.bare
      ? { message: this.messages, statusCode: this.statusCode }
      : { message: this.messages, error: reasonPhrase(this.statusCode), statusCode: this.statusCode };
  }
}

export class BadRequestException extends HttpError {
  constructor(message?: string | string[]) {
    super(400, message);
  }
}

export class UnauthorizedException extends HttpError {
  constructor(message?: string) {
    super(401, message);
  }
}

export class ForbiddenException extends HttpError {
  constructor(message = 'Forbidden resource') {
    super(403, message);
  }
}

export class NotFoundException extends HttpError {
  constructor(message?: string) {
    super(404, message);
  }
}

export class ConflictException extends HttpError {
  constructor(message?: string) {
    super(409, message);
  }
}

export class PayloadTooLargeException extends HttpError {
  constructor(message?: string) {
    super(413, message);
  }
}

const megabytes = (bytes: number): string => `${Number((bytes / 1024 / 1024).toFixed(2))} MB`;

/** 413 for a request body over `maxBytes`, naming the limit (the upload handler and the local server). */
export const tooLarge = (maxBytes: number): PayloadTooLargeException =>
  new PayloadTooLargeException(`Request body is larger than the upload limit of ${megabytes(maxBytes)}`);
