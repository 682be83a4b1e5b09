import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { Invalid } from '#shared/core/errors.ts';
import { dto } from '#shared/dto/common.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { invoke } from '../support/invoke.ts';

// A handler built with the same stack every route uses, exercising each stage of it.
const echo = publicHandler(
  {
    returns: returns<{ name: string; count?: number | undefined; id: string; tag: string | string[] | undefined } | { ok: boolean }>(),
    status: 201,
    body: dto({
      name: v.pipe(v.string('$property must be a string'), v.nonEmpty('$property should not be empty')),
      count: v.optional(v.pipe(v.number('$property must be a number'), v.integer('$property must be an integer number'))),
    }),
    params: dto({ id: v.pipe(v.string(), v.uuid('$property must be a UUID')) }),
    query: dto({ tag: v.optional(v.union([v.string(), v.array(v.string())])) }),
  },
  ({ body, params, query }) => {
    if (body.name === 'boom') throw new Error('secret internals: arn:aws:dynamodb:table/x');
    if (body.name === 'refuse') throw new Invalid('Refused');
    if (body.name === 'cookie') return new HttpResponse({ ok: true }, { status: 200, cookies: ['a=1; HttpOnly'] });
    return { ...body, ...params, tag: query.tag };
  },
);

const id = '6f2d0c1e-8a36-4c5b-9f4e-2b7a1c3d4e5f';
const call = (body: unknown, extra: { headers?: Record<string, string>; query?: Record<string, string | string[]> } = {}) =>
  invoke(echo, { method: 'POST', path: `/api/echo/${id}`, pathParameters: { id }, body, ...extra });

describe('the shared middy stack', () => {
  it('parses, validates and answers with the declared status', async () => {
    const reply = await call({ name: 'x', count: 2, extra: 'stripped' }, { query: { tag: ['a', 'b'] } });
    expect(reply).toMatchObject({ status: 201, body: { name: 'x', count: 2, id, tag: ['a', 'b'] } });
    expect(reply.body).not.toHaveProperty('extra');
  });

  it('turns malformed JSON into a 400 in Immich shape, never a 500', async () => {
    const reply = await invoke(echo, {
      method: 'POST',
      path: `/api/echo/${id}`,
      pathParameters: { id },
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'Bad Request', statusCode: 400 });
    expect(typeof reply.body.message).toBe('string');
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
  });

  it('reports every invalid field with class-validator wording', async () => {
    const reply = await call({ name: '', count: 1.5 });
    expect(reply).toMatchObject({
      status: 400,
      body: { message: ['name should not be empty', 'count must be an integer number'], error: 'Bad Request', statusCode: 400 },
    });
  });

  it('treats a missing or non-JSON body as an empty object, as Express does', async () => {
    for (const reply of [await call(undefined), await call('name=x', { headers: { 'content-type': 'text/plain' } })]) {
      expect(reply).toMatchObject({ status: 400, body: { message: ['name must be a string'] } });
    }
  });

  it('validates path parameters', async () => {
    const reply = await invoke(echo, { method: 'POST', path: '/api/echo/nope', pathParameters: { id: 'nope' }, body: { name: 'x' } });
    expect(reply).toMatchObject({ status: 400, body: { message: ['id must be a UUID'] } });
  });

  it('passes typed errors through and hides unexpected ones behind a fixed 500 with the request id', async () => {
    expect(await call({ name: 'refuse' })).toMatchObject({ status: 400, body: { message: 'Refused', error: 'Bad Request' } });
    const reply = await call({ name: 'boom' });
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual({
      message: `Internal server error (request id ${reply.headers['x-request-id']})`,
      error: 'Internal Server Error',
      statusCode: 500,
    });
    expect(JSON.stringify(reply.body)).not.toContain('secret');
  });

  it('lets a handler set cookies and its own status', async () => {
    expect(await call({ name: 'cookie' })).toMatchObject({ status: 200, body: { ok: true }, cookies: ['a=1; HttpOnly'] });
  });
});

describe('request-scoped logs', () => {
  // Waits a little, then fails unexpectedly: the stack logs the error under the request's id.
  const slowFailure = publicHandler({ returns: returns<never>(), query: dto({ wait: v.optional(v.string()) }) }, async ({ query }) => {
    await new Promise((resolve) => setTimeout(resolve, Number(query.wait ?? 0)));
    throw new Error('unexpected');
  });

  it('log each of several concurrent requests under its own request id, never another’s', async () => {
    const lines: string[] = [];
    const errorSpy = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)));
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'info';
    try {
      // The first request finishes last: a module-wide "current request id" would mislabel it.
      const replies = await Promise.all(
        [40, 20, 0].map((wait) => invoke(slowFailure, { path: '/api/slow', query: { wait: String(wait) } })),
      );
      const ids = replies.map((reply) => reply.headers['x-request-id']);
      expect(new Set(ids).size).toBe(3);
      const logged = lines.map((line) => JSON.parse(line) as { requestId: string; message: string });
      expect(logged.map((entry) => entry.message)).toEqual(['Unhandled error', 'Unhandled error', 'Unhandled error']);
      // Logged in the order they failed (shortest wait first), each under its own id.
      expect(logged.map((entry) => entry.requestId)).toEqual([...ids].reverse());
      for (const reply of replies) expect(reply.body.message).toBe(`Internal server error (request id ${reply.headers['x-request-id']})`);
    } finally {
      process.env.LOG_LEVEL = level;
      errorSpy.mockRestore();
    }
  });
});

describe('the access log', () => {
  it('writes one line per request, a metric too (embedded metric format): route, status, latency, id, and no secret', async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'info';
    try {
      const ok = await call({ name: 'secret-name' }, { headers: { authorization: 'Bearer top-secret-token' } });
      const failed = await call({ name: 'boom' });
      const logged = lines.map((line) => JSON.parse(line)).filter((entry) => entry.message === 'request');
      expect(logged).toHaveLength(2);
      expect(logged[0]).toMatchObject({
        requestId: ok.headers['x-request-id'],
        route: `POST /api/echo/${id}`,
        status: 201,
        statusClass: '2xx',
        serverErrors: 0,
        requests: 1,
      });
      expect(logged[1]).toMatchObject({ requestId: failed.headers['x-request-id'], status: 500, statusClass: '5xx', serverErrors: 1 });
      expect(typeof logged[0].latencyMs).toBe('number');
      expect(logged[0]._aws.CloudWatchMetrics[0]).toMatchObject({
        Namespace: 'ImmichServerless',
        Dimensions: [['route', 'statusClass'], []],
      });
      expect(lines.join('\n')).not.toMatch(/top-secret-token|secret-name/);
    } finally {
      process.env.LOG_LEVEL = level;
      spy.mockRestore();
      errors.mockRestore();
    }
  });
});
