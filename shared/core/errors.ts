/**
 * Domain errors: what went wrong in the terms of the library, not of HTTP. Services,
 * repositories and the access module throw these; the HTTP edge (shared/http/errors.ts)
 * maps each kind once to Immich's status code and JSON body. Nothing below the edge knows a
 * status code.
 */
export type ErrorKind =
  /** The request is malformed or breaks a rule (Immich: 400). */
  | 'invalid'
  /**
   * A resource that does not exist or that the caller may not see: one answer for both, so an id
   * never tells which (Immich's BadRequestException: 400, the access module's answer).
   */
  | 'inaccessible'
  /** Something the caller may see lacks what was asked, e.g. a thumbnail not made yet (Immich's NotFoundException: 404). */
  | 'not-found'
  /** No valid credentials (401). */
  | 'unauthenticated'
  /** Valid credentials without the right to do this (403). */
  | 'forbidden'
  /** A concurrent write won; reading again and retrying may succeed (409). */
  | 'conflict'
  /** The request carries more than a limit allows (413). */
  | 'too-large'
  /** Too many attempts of a guessable proof (a PIN code): refused unchecked for a while (429). */
  | 'too-many'
  /** A service outside this one that the answer needs did not answer (a map style's URL: 502). */
  | 'upstream';

export class DomainError extends Error {
  readonly kind: ErrorKind;
  /** One message, or class-validator's list of messages. */
  readonly messages: string | string[] | undefined;

  constructor(kind: ErrorKind, messages?: string | string[]) {
    super(messages === undefined ? kind : Array.isArray(messages) ? messages.join('; ') : messages);
    this.name = new.target.name;
    this.kind = kind;
    this.messages = messages;
  }
}

/** One failed rule of a request's shape: where in the body, path or query, and what is wrong (v3's `errors`). */
export interface ValidationIssue {
  path: (string | number)[];
  message: string;
}

export class Invalid extends DomainError {
  /** Set when a request failed its schema: each rule it broke (Immich v3 answers them as `errors`). */
  readonly issues: ValidationIssue[] | undefined;

  constructor(messages: string | string[], issues?: ValidationIssue[]) {
    super('invalid', messages);
    this.issues = issues;
  }
}

export class Inaccessible extends DomainError {
  constructor(message: string) {
    super('inaccessible', message);
  }
}

export class NotFound extends DomainError {
  /** Without a message Immich sends the bare `{ message: 'Not Found', statusCode: 404 }`. */
  constructor(message?: string) {
    super('not-found', message);
  }
}

export class Unauthenticated extends DomainError {
  /** Without a message Immich sends the bare `{ message: 'Unauthorized', statusCode: 401 }`. */
  constructor(message?: string) {
    super('unauthenticated', message);
  }
}

export class Forbidden extends DomainError {
  constructor(message = 'Forbidden resource') {
    super('forbidden', message);
  }
}

export class Conflict extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}

export class TooLarge extends DomainError {
  constructor(message: string) {
    super('too-large', message);
  }
}

export class TooMany extends DomainError {
  constructor(message: string) {
    super('too-many', message);
  }
}

const megabytes = (bytes: number): string => `${Number((bytes / 1024 / 1024).toFixed(2))} MB`;

/** A request body over `maxBytes`, naming the limit (the upload route and the local server). */
export const bodyTooLarge = (maxBytes: number, limit = 'upload limit'): TooLarge =>
  new TooLarge(`Request body is larger than the ${limit} of ${megabytes(maxBytes)}`);
