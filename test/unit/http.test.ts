import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { toApiGatewayEvent } from '#infra/local/http-event.ts';
import { Forbidden, Inaccessible, Invalid, Unauthenticated } from '#shared/core/errors.ts';
import { formatIssues, maxListedIssues, parseOrThrow } from '#shared/dto/validate.ts';
import { errorBody, errorResult } from '#shared/http/errors.ts';
import { parseQuery } from '#shared/http/query.ts';

describe('parseQuery', () => {
  it('keeps single values as strings and repeated keys as arrays, in order', () => {
    expect(parseQuery('a=1&b=x%2Cy&a=2&a=3')).toEqual({ a: ['1', '2', '3'], b: 'x,y' });
  });

  it('reads key[]= as an array even when it appears once', () => {
    expect(parseQuery('personIds[]=p1')).toEqual({ personIds: ['p1'] });
  });

  it('ignores prototype-polluting keys and empty strings', () => {
    expect(parseQuery('__proto__=1&constructor=2')).toEqual({});
    expect(parseQuery('')).toEqual({});
    expect(Object.getPrototypeOf(parseQuery('__proto__[polluted]=1'))).toBe(Object.prototype);
  });
});

describe('API Gateway v2 events', () => {
  it('lower-cases headers, moves cookies out of them and keeps the raw query string', () => {
    const event = toApiGatewayEvent(
      { method: 'get', url: '/api/x?b=1&b=2&c=%20', headers: { 'X-Api-Key': 'k', Cookie: 'a=1; b=2' } },
      { routeKey: 'GET /api/x' },
    );
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'GET /api/x',
      rawPath: '/api/x',
      rawQueryString: 'b=1&b=2&c=%20',
      cookies: ['a=1', 'b=2'],
      headers: { 'x-api-key': 'k' },
      queryStringParameters: { b: '1,2', c: ' ' },
      requestContext: { http: { method: 'GET', path: '/api/x' }, stage: '$default' },
      isBase64Encoded: false,
    });
    expect(event.headers.cookie).toBeUndefined();
    expect(event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('passes JSON as text and base64-encodes binary bodies', () => {
    const json = toApiGatewayEvent(
      { method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, body: '{"a":1}' },
      { routeKey: '$default' },
    );
    expect(json).toMatchObject({ body: '{"a":1}', isBase64Encoded: false });
    const bytes = Buffer.from([0xff, 0xd8, 0x00, 0x01]);
    const binary = toApiGatewayEvent(
      { method: 'POST', url: '/', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: bytes },
      { routeKey: '$default' },
    );
    expect(binary.isBase64Encoded).toBe(true);
    expect(Buffer.from(binary.body ?? '', 'base64')).toEqual(bytes);
  });
});

describe('error bodies', () => {
  it('are NestJS-shaped, without `error` when no message was given', () => {
    expect(errorBody(new Invalid('User exists'))).toEqual({ message: 'User exists', error: 'Bad Request', statusCode: 400 });
    expect(errorBody(new Unauthenticated())).toEqual({ message: 'Unauthorized', statusCode: 401 });
  });

  it('give a missing or foreign resource 400, as Immich does', () => {
    expect(errorBody(new Inaccessible('Not found or no album.read access'))).toEqual({
      message: 'Not found or no album.read access',
      error: 'Bad Request',
      statusCode: 400,
    });
  });

  it('are not made for errors nobody raised on purpose (those become a fixed 500)', () => {
    expect(errorBody(new Error('internals'))).toBeUndefined();
  });

  it('give a transaction that kept meeting concurrent ones 409, and one whose condition failed no body of its own', () => {
    const cancelled = (...codes: string[]) =>
      Object.assign(new Error('Transaction cancelled'), {
        name: 'TransactionCanceledException',
        CancellationReasons: codes.map((Code) => ({ Code })),
      });
    expect(errorBody(cancelled('None', 'TransactionConflict'))).toEqual({
      message: 'The request met concurrent changes of the same data; try again',
      error: 'Conflict',
      statusCode: 409,
    });
    expect(errorBody(cancelled('ThrottlingError'))?.statusCode).toBe(409);
    // A failed condition is the caller's to explain; reaching here unexplained, it stays a 500.
    expect(errorBody(cancelled('ConditionalCheckFailed', 'TransactionConflict'))).toBeUndefined();
    expect(errorBody(cancelled('None'))).toBeUndefined();
  });

  it("are v3's `{message}` alone on v3's routes, listing a failed schema's issues", () => {
    const body = (error: unknown, generation?: 'v3') => JSON.parse(errorResult(error, 'r1', generation).body ?? '');
    expect(body(new Unauthenticated('Invalid user token'), 'v3')).toEqual({ message: 'Invalid user token' });
    expect(body(new Unauthenticated(), 'v3')).toEqual({ message: 'Unauthorized' });
    expect(body(new Forbidden('Missing required permission: asset.upload'), 'v3')).toEqual({
      message: 'Missing required permission: asset.upload',
    });
    const invalid = new Invalid(['name must be a string'], [{ path: ['name'], message: 'name must be a string' }]);
    expect(body(invalid, 'v3')).toEqual({ message: 'Validation failed', errors: [{ path: ['name'], message: 'name must be a string' }] });
    expect(body(invalid)).toEqual({ message: ['name must be a string'], error: 'Bad Request', statusCode: 400 });
    const failed = errorResult(new Error('internals'), 'r1', 'v3');
    expect([failed.statusCode, JSON.parse(failed.body ?? '')]).toEqual([500, { message: 'Internal server error (request id r1)' }]);
  });
});

describe('validation messages', () => {
  const schema = v.object({
    ffmpeg: v.object({ crf: v.pipe(v.number('$property must be a number'), v.maxValue(51, '$property must not be greater than 51')) }),
    library: v.object({ scan: v.object({ cron: v.custom(() => false, 'Invalid cron expression') }) }),
    email: v.pipe(v.string('$property must be a string'), v.email('$property must be an email')),
  });

  it('name the property and prefix its parent path, as class-validator does', () => {
    const result = v.safeParse(schema, { ffmpeg: { crf: 52 }, library: { scan: { cron: 'x' } }, email: 'nope' });
    expect(result.success).toBe(false);
    expect(formatIssues(result.issues ?? [])).toEqual([
      'ffmpeg.crf must not be greater than 51',
      'library.scan.Invalid cron expression',
      'email must be an email',
    ]);
  });

  it('lists a failed list’s first problems only, so 20,000 bad items answer a bounded 400 (docs/immich-compatibility.md)', () => {
    const ids = v.array(v.pipe(v.string(), v.uuid('each value in $property must be a UUID')));
    const thrown = (() => {
      try {
        parseOrThrow(v.object({ ids }), { ids: Array.from({ length: 20_000 }, (_, i) => `bad-${i}`) });
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(Invalid);
    const invalid = thrown as Invalid;
    expect(invalid.issues).toHaveLength(maxListedIssues);
    expect(invalid.issues?.[0]?.path).toEqual(['ids', 0]);
    expect(errorBody(invalid)?.message).toHaveLength(maxListedIssues);
  });
});
