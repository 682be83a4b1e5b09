import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as createApiKeyHandler } from '#functions/api-key/create-api-key.ts';
import { handler as updateAssetHandler } from '#functions/asset/update-asset.ts';
import { handler as updateAssetsHandler } from '#functions/asset/update-assets.ts';
import { handler as createAlbumV3 } from '#functions/v3/album/create-album.ts';
import { handler as createMemoryV3 } from '#functions/v3/memory/create-memory.ts';
import { handler as createPersonV3 } from '#functions/v3/person/create-person.ts';
import { handler as createSharedLinkV3 } from '#functions/v3/shared-link/create-shared-link.ts';
import { handler as createStackV3 } from '#functions/v3/stack/create-stack.ts';
import { handler as upsertTagsV3 } from '#functions/v3/tag/upsert-tags.ts';
import { localRoutes, type Route, routes, webRoutes } from '#infra/routes.ts';
import { hashSecret, newSecret } from '#shared/core/crypto.ts';
import { db } from '#shared/db/client.ts';
import * as sessionRepo from '#shared/db/session.repository.ts';
import * as systemRepo from '#shared/db/system.repository.ts';
import * as userRepo from '#shared/db/user.repository.ts';
import { sessionLifetimeSeconds } from '#shared/model/session.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke, type Reply } from '../support/invoke.ts';
import { addPhoto } from '../support/library.ts';
import { type Field, fieldsOf, isListKind, required, type Schema, widest, widestValue } from '../support/route-inputs.ts';

/**
 * A seeded fuzz of every route of the route table (infra/routes.ts, with the local server's and
 * the web app's routes), in `npm test`, so that a new route cannot skip it. Each route is called
 * with values generated from its own body, query and path schemas (the handler carries them,
 * shared/http/pipeline.ts) and with junk, by an admin, a user and a user's API key, and once with
 * its costliest input: each list one past its stated limit (docs/api.md, "Limits"; 20,001 ids
 * where none is stated) and the widest dates and sizes.
 *
 * What every answer must be: below 500, JSON in the generation's error shape, the route's IAM grant
 * respected (its `data`), at most `roundTripCap` DynamoDB calls (a request that checks a long list
 * id by id goes far past it: the cap stops it at once), and at most `answerCap` bytes (the
 * library here is a few photos: an answer as large as that grew with the request, not the data).
 *
 * To replay: FUZZ_ROUTES=<regex of `METHOD /path`> runs those routes alone (same seeds),
 * FUZZ_DEBUG=1 prints each costly call, FUZZ_TIMES=<file> writes the time each route took.
 */

// What IAM's read grant (dynamodb:GetItem, BatchGetItem, Query, ...) lets a `data: 'read'` function send.
const readCommands = new Set(['GetItemCommand', 'BatchGetItemCommand', 'QueryCommand']);

/** DynamoDB calls one request may make here. A bounded access check of 20,000 ids is 200 BatchGets; one read per id is 20,000. */
const roundTripCap = 600;
/** Bytes of one answer. The largest honest answer here (the server's defaults, a v3 config) is tens of KB. */
const answerCap = 1024 * 1024;
/** Items in the long lists: one past the 20,000 of the largest bulk limit (docs/api.md). */
const longList = 20_001;
/** Items in a query string's long list, and in a body's long list of other things than ids. */
const queryList = 200;
const otherList = 1_001;

// A small seeded generator (mulberry32), so a failure can be replayed exactly.
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
type Next = () => number;
const pick = <T>(next: Next, items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;

const strings = [
  '',
  ' ',
  'a',
  'true',
  'false',
  '0',
  '-1',
  '1e309',
  'null',
  '{{foo}}',
  '__proto__',
  'admin@immich.cloud',
  'x'.repeat(300),
  '../../etc',
  '💥',
  '00000000-0000-4000-a000-000000000000',
  // Long strings, odd dates, wildcards and tag paths that once gave 500s or stalls.
  'y'.repeat(5_000),
  'z'.repeat(70_000),
  '2020-366',
  '2020-W53-7',
  '%%%%%%%%%%%%zz',
  '\u0000',
  '///',
  `${'deep/'.repeat(400)}tag`,
];
const numbers = [0, -1, 1.5, 1e308, -0, 51, 52, 250, 1000, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, 1e20, -1e20];
const dates = [
  '2024-01-02',
  '2024-01-02T03:04:05.000Z',
  '0001-01-01',
  '9999-12-31',
  '0000-01-01T00:00:00.000Z',
  '+275760-09-13T00:00:00.000Z',
  '2024-02-30',
  '1970-01-01T00:00:00Z',
];

/** Any JSON-ish value: junk for any field, and a whole body now and then. */
const junk = (next: Next, depth = 0): unknown => {
  switch (Math.floor(next() * (depth > 2 ? 6 : 8))) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2:
      return pick(next, numbers);
    case 3:
    case 4:
      return pick(next, strings);
    case 5:
      return undefined;
    case 6:
      return Array.from({ length: Math.floor(next() * 3) }, () => junk(next, depth + 1));
    default: {
      const names = ['email', 'password', 'name', 'ids', 'assetIds', 'albumIds', 'enabled', '__proto__', 'constructor', 'size', 'force'];
      return Object.fromEntries(Array.from({ length: Math.floor(next() * 5) }, () => [pick(next, names), junk(next, depth + 1)]));
    }
  }
};

interface Shape {
  body: Field[] | undefined;
  query: Field[];
  params: string[];
}

// ---- Values ----

/** Ids that exist (the user's photos, album, tag, ...), ids that do not, and a user who is not a caller here. */
let idPool: string[] = [];
/** An id of the caller's own for a route's path: its album for an album route, and so on, so that the costly calls pass the access check. */
let ownId: (route: Route) => string = () => randomUUID();
/** A user who is no caller here: what the admin routes' costly calls name. */
let otherUser = '';
/** Ids the random calls never name: the costly calls' (whose requests must reach past the access checks). */
let keptIds: string[] = [];

/** A value for a field: mostly of its kind (so the request gets past validation), now and then junk. */
const valueFor = (next: Next, field: Field): unknown => {
  if (next() < 0.25) return junk(next);
  switch (field.kind) {
    case 'uuid':
      return next() < 0.8 ? pick(next, idPool) : randomUUID();
    case 'uuids':
      return Array.from({ length: Math.floor(next() * 4) }, () => pick(next, idPool));
    case 'list':
      return Array.from({ length: Math.floor(next() * 4) }, () => (next() < 0.5 ? pick(next, strings.slice(0, 16)) : pick(next, idPool)));
    case 'objects':
      return Array.from({ length: Math.floor(next() * 3) }, () => objectFor(next, field.fields ?? []));
    case 'object':
      return objectFor(next, field.fields ?? []);
    case 'bool':
      return pick(next, [true, false, 'true', 'false']);
    case 'number':
      return pick(next, numbers);
    case 'date':
      return pick(next, dates);
    case 'enum':
      return pick(next, field.options ?? ['']);
    default:
      return pick(next, strings);
  }
};

const objectFor = (next: Next, fields: readonly Field[]): Record<string, unknown> =>
  Object.fromEntries(fields.filter(() => next() < 0.6).map((field) => [field.name, valueFor(next, field)]));

/** A query string's values: strings, a list as its key repeated. */
const asQuery = (values: Record<string, unknown>): Record<string, string | string[]> =>
  Object.fromEntries(
    Object.entries(values)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [
        name,
        Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))) : String(value),
      ]),
  );

/** The costliest valid value of a field: every list at its longest, dates at their widest, sizes at their largest. */
const costly = (field: Field, where: 'body' | 'query'): unknown => {
  // One past the list's stated limit. A query string is bounded by the HTTP API's 10 KB request
  // line: a long list there is 200 ids. Without a stated limit, ids at 20,001 (past every bulk
  // limit but an album's own assets'), other lists (the CLI's checksums, sync types) at 1,001:
  // what they cost per item shows at that length.
  const past = field.maxItems === undefined ? undefined : field.maxItems + 1;
  const length = where === 'query' ? Math.min(queryList, past ?? queryList) : (past ?? (field.kind === 'uuids' ? longList : otherList));
  switch (field.kind) {
    case 'uuids':
      return Array.from({ length }, () => randomUUID());
    case 'list':
      return Array.from({ length }, (_, i) => `item-${i}`);
    case 'objects': {
      const item = widest(field.fields ?? [], keptIds);
      return Array.from({ length }, (_, i) => ({ ...item, id: randomUUID(), checksum: `${i}`.padStart(40, '0') }));
    }
    default:
      return widestValue(field, keptIds);
  }
};

// ---- Callers ----

interface Caller {
  name: 'admin' | 'user' | 'user key' | 'admin key';
  headers: Record<string, string>;
  refresh(): Promise<void>;
}

/** A new session of a user, written as sign-in writes it: no password hash to compute, and whatever the fuzz did to the password or the config. */
const sessionOf = async (userId: string): Promise<string> => {
  const user = await userRepo.get(userId);
  if (!user) throw new Error(`no user ${userId}`);
  const token = newSecret();
  const now = new Date();
  await sessionRepo.create({
    id: randomUUID(),
    tokenHash: hashSecret(token),
    userId,
    email: user.email,
    isAdmin: user.isAdmin,
    userActive: true,
    deviceType: '',
    deviceOS: '',
    appVersion: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    ttl: Math.floor(now.getTime() / 1000) + sessionLifetimeSeconds,
    pinExpiresAt: null,
    isPendingSyncReset: false,
  });
  return token;
};

const keyOf = async (userId: string): Promise<string> => {
  const reply = await invoke(createApiKeyHandler, {
    method: 'POST',
    path: '/api/api-key',
    headers: bearer(await sessionOf(userId)),
    body: {},
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.secret as string;
};

/** A caller whose session or key a route may end (logout, deleteAllSessions, deleteApiKey): it gets a new one, once however many routes ask. */
const caller = (name: Caller['name'], userId: string, kind: 'session' | 'key'): Caller => {
  let pending: Promise<void> | undefined;
  const self: Caller = {
    name,
    headers: {},
    refresh: () => {
      pending ??= (async () => {
        self.headers = kind === 'session' ? bearer(await sessionOf(userId)) : { 'x-api-key': await keyOf(userId) };
      })().finally(() => {
        pending = undefined;
      });
      return pending;
    },
  };
  return self;
};

// ---- Round trips of each request, however many run at once ----

const requestCalls = new AsyncLocalStorage<string[]>();
const middlewareName = 'fuzz-round-trips';

beforeAll(() => {
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const calls = requestCalls.getStore();
      if (calls) {
        calls.push(String(context.commandName));
        // Stopped here rather than let it run on: the request fails (a 500) and says why.
        if (calls.length > roundTripCap) throw new Error(`More than ${roundTripCap} DynamoDB calls in one request`);
      }
      return next(args);
    },
    { step: 'initialize', name: middlewareName },
  );
});
afterAll(() => {
  db.middlewareStack.remove(middlewareName);
});

/** Runs `fn` over `items`, `width` at a time. */
const inPool = async <T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> => {
  let index = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (index < items.length) await fn(items[index++] as T);
    }),
  );
};

// Routes that end or change the callers' sessions, keys, password or the server's config: after the others, one at a time.
const disrupts = (route: Route) =>
  /^\/api\/(auth|sessions|users\/me|user$|api-keys?|admin\/config|system-config|server\/license|admin\/users)/.test(route.path) ||
  route.path === '$default';

describe('random and costly input to every route (the route table), as an admin, a user and an API key', () => {
  const root = join(import.meta.dirname, '..', '..');
  const callers: Caller[] = [];

  beforeAll(async () => {
    const accounts = await setupAccounts();
    const admin = (await systemRepo.adminId()) ?? '';
    callers.push(
      caller('admin', admin, 'session'),
      caller('user', accounts.user1.id, 'session'),
      caller('user key', accounts.user1.id, 'key'),
      caller('admin key', admin, 'key'),
    );
    await Promise.all(callers.map((c) => c.refresh()));
    // The user's own things, so that generated ids reach past the access checks: one set the random
    // calls name (and may delete), one kept for the costly calls, which must get past them.
    const token = accounts.user1.accessToken;
    const headers = bearer(token);
    const made = async (handler: Parameters<typeof invoke>[0], path: string, body: unknown) => {
      const reply = await invoke(handler, { method: path === '/api/tags' ? 'PUT' : 'POST', path, headers, body });
      expect(reply.status, `${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300);
      return reply.body;
    };
    const things = async (name: string) => {
      const photos = [await addPhoto(token), await addPhoto(token, { width: 32 }), await addPhoto(token, { width: 48 })];
      const album = await made(createAlbumV3, '/api/albums', { albumName: name, assetIds: photos.slice(0, 2) });
      const [tag] = await made(upsertTagsV3, '/api/tags', { tags: [`${name}/one`] });
      const memory = await made(createMemoryV3, '/api/memories', {
        type: 'on_this_day',
        data: { year: 2020 },
        memoryAt: '2024-01-02T00:00:00.000Z',
        assetIds: [photos[0]],
      });
      const person = await made(createPersonV3, '/api/people', { name });
      const link = await made(createSharedLinkV3, '/api/shared-links', { type: 'ALBUM', albumId: album.id });
      const stack = await made(createStackV3, '/api/stacks', { assetIds: photos.slice(1, 3) });
      return {
        photos,
        ids: [...photos, album.id, tag.id, memory.id, person.id, link.id, stack.id] as string[],
        album,
        tag,
        memory,
        person,
        link,
        stack,
      };
    };
    const pool = await things('fuzz');
    const kept = await things('kept');
    const keptUser = await freshUser(accounts.admin.accessToken, 'Kept');
    const own: [RegExp, string][] = [
      [/album/, kept.album.id],
      [/tag/, kept.tag.id],
      [/memor/, kept.memory.id],
      [/people|person/, kept.person.id],
      [/shared-link/, kept.link.id],
      [/stack/, kept.stack.id],
      [/user/, keptUser.id],
    ];
    otherUser = keptUser.id;
    ownId = (route) => own.find(([pattern]) => pattern.test(route.path))?.[1] ?? (kept.photos[0] as string);
    keptIds = kept.ids;
    idPool = [...pool.ids, accounts.user2.id, randomUUID()];
  });

  it("never answers a 5xx, a stall or an answer that grows with the request; every error is JSON in Immich's shape", async () => {
    // FUZZ_ROUTES=<regex>: only the routes whose `METHOD /path` matches (to replay a failure); the totals below then say nothing.
    const only = process.env.FUZZ_ROUTES ? new RegExp(process.env.FUZZ_ROUTES) : undefined;
    const every = [...routes, ...localRoutes, ...webRoutes];
    const all = every.filter((route) => !only || only.test(`${route.method} ${route.path}`));
    const failures: string[] = [];
    const seen = { success: 0, validation: 0, otherClientError: 0, byCaller: new Map<string, number>() };
    let requests = 0;

    const times: [string, number][] = [];
    const fuzzRoute = async (route: Route, seed: number) => {
      const started = performance.now();
      await fuzzOne(route, seed);
      times.push([`${route.method} ${route.path}`, performance.now() - started]);
    };
    const fuzzOne = async (route: Route, seed: number) => {
      const next = random(seed);
      const { handler } = (await import(join(root, route.entry))) as {
        handler: Parameters<typeof invoke>[0] & { access: string; schemas?: { body?: Schema; query?: Schema; params?: Schema } };
      };
      const shape: Shape = {
        body: handler.schemas?.body ? fieldsOf(handler.schemas.body) : undefined,
        query: fieldsOf(handler.schemas?.query),
        params: [...route.path.matchAll(/\{(\w+)\+?\}/g)].map(([, name]) => name as string),
      };
      const hasInput = shape.body !== undefined || shape.query.length > 0 || shape.params.length > 0;
      // Admin routes mostly by an admin (a user's call is refused before its input is read).
      const callersOf = handler.access === 'admin' ? [callers[0], callers[3], callers[0], callers[1]] : callers;
      const expired = new Set<Caller>();

      type Plan = {
        what: string;
        by: Caller;
        params: Record<string, string>;
        query: Record<string, unknown>;
        body: unknown;
        costly?: 'lists' | 'wide';
        /** A list past its stated limit, or 20,001 ids where none is stated: a 4xx. */
        refused?: boolean;
      };
      const plans: Plan[] = [];
      const paramsOf = (make: (name: string) => string) => Object.fromEntries(shape.params.map((name) => [name, make(name)]));
      const randomParams = () => paramsOf(() => (next() < 0.6 ? pick(next, idPool) : String(junk(next) ?? 'x'))) as Record<string, string>;
      // Random calls: fewer where there is no input to vary.
      for (let i = 0; i < (hasInput ? 8 : 3); i++) {
        const query = {
          ...objectFor(next, shape.query),
          ...(next() < 0.3 ? { [pick(next, ['q', 'size', 'key', 'page', 'withHidden'])]: junk(next) } : {}),
        };
        const body = shape.body ? (i % 4 === 3 ? junk(next) : objectFor(next, shape.body)) : i === 1 ? junk(next) : undefined;
        plans.push({ what: `random #${i}`, by: pick(next, callersOf) as Caller, params: randomParams(), query, body });
      }
      const owner = handler.access === 'admin' ? (callers[0] as Caller) : (callers[1] as Caller);
      // Path ids that are no UUID.
      if (shape.params.length > 0)
        plans.push({ what: 'a path id that is no UUID', by: owner, params: paramsOf(() => 'not-a-uuid/../x'), query: {}, body: {} });
      // The costliest valid input: each list in turn one past its limit; then every date and size at its widest.
      const ownParams = () => paramsOf((name) => (name === 'userId' ? otherUser : ownId(route)));
      for (const where of ['body', 'query'] as const) {
        for (const field of (where === 'body' ? shape.body : shape.query)?.filter((f) => isListKind(f.kind)) ?? []) {
          const list = costly(field, where) as unknown[];
          const long = { ...required((where === 'body' ? shape.body : shape.query) ?? [], keptIds), [field.name]: list };
          plans.push({
            what: `${field.name} of ${list.length} items`,
            by: owner,
            params: ownParams(),
            query: where === 'query' ? long : required(shape.query, keptIds),
            body: where === 'body' ? long : shape.body && required(shape.body, keptIds),
            costly: 'lists',
            // Past its stated limit, or ids past every limit: refused before they are looked at.
            refused: (field.maxItems !== undefined && list.length > field.maxItems) || (where === 'body' && field.kind === 'uuids'),
          });
        }
      }
      // Not on a delete: it would delete the kept thing the other costly calls name.
      if (hasInput && route.method !== 'DELETE')
        plans.push({
          what: 'the widest dates and sizes',
          by: owner,
          params: ownParams(),
          query: widest(shape.query, keptIds),
          body: shape.body && widest(shape.body, keptIds),
          costly: 'wide',
        });

      for (const [index, plan] of plans.entries()) {
        const calls: string[] = [];
        // Now and then a broken cookie beside the credentials, broken JSON, or a body far over any route's limit.
        const broken = !plan.costly && index % 5 === 4;
        const body = broken
          ? '{"broken": '
          : !plan.costly && index === 2 && shape.body
            ? JSON.stringify({ name: 'b'.repeat(7 * 1024 * 1024) })
            : plan.body === undefined
              ? undefined
              : JSON.stringify(plan.body);
        let reply: Reply;
        try {
          reply = await requestCalls.run(calls, () =>
            invoke(handler, {
              method: route.method === 'ANY' ? 'POST' : route.method,
              path: route.path.replace(/\{(\w+)\+?\}/g, (_, name: string) => encodeURIComponent(plan.params[name] ?? '')),
              pathParameters: shape.params.length > 0 ? plan.params : undefined,
              query: asQuery(plan.query) as never,
              headers: {
                ...plan.by.headers,
                'content-type': 'application/json',
                ...(index % 7 === 3 ? { cookie: 'immich_access_token=%E0%A4%A; immich_shared_link_token=%' } : {}),
              },
              body,
            }),
          );
        } catch (error) {
          failures.push(`${route.method} ${route.path} (${plan.what}, ${plan.by.name}): threw ${String(error)}`);
          continue;
        }
        requests++;
        const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? '');
        const context = `${route.method} ${route.path} (${plan.what}, ${plan.by.name}): ${(body ?? '').slice(0, 300)} -> ${reply.status} ${text.slice(0, 300)}`;
        const fail = (why: string) => failures.push(`${why}: ${context}`);
        if (process.env.FUZZ_DEBUG && plan.costly) console.log(context.slice(0, 600));
        // The map style is a third party's (the admin's URL): its 502 says it was not reached (no network here), not that this server failed.
        if (reply.status >= 500 && !(reply.status === 502 && route.operationId === 'getMapStyle')) fail('a 5xx');
        if (calls.length > roundTripCap) fail(`${calls.length} DynamoDB calls`);
        // An error need not list 20,001 problems; a success may answer in proportion to what was asked (the CLI's checksums).
        if (text.length > (reply.status >= 400 ? answerCap : Math.max(answerCap, 2 * (body?.length ?? 0))))
          fail(`an answer of ${text.length} bytes`);
        // The route table's `data` is the function's IAM grant: a read-only function that wrote
        // would be denied in AWS, and a function without table access must send nothing at all.
        if (route.data === 'none' && calls.length > 0) fail(`a 'none' route sent ${calls.join()}`);
        if (route.data === 'read' && calls.some((call) => !readCommands.has(call)))
          fail(`a 'read' route sent ${calls.filter((call) => !readCommands.has(call)).join()}`);
        // A list past its limit is refused before its items are looked at (docs/api.md, "Limits").
        if (plan.refused && reply.status < 400) fail('a list past its limit accepted');
        // v1.100's routes answer NestJS's `{message, error, statusCode}`, v3's `{message}` (with `errors` for a failed schema).
        const isJson = typeof reply.body === 'object' && reply.body !== null;
        if (reply.status >= 400 && route.generation === 'v3') {
          if (
            !isJson ||
            Object.keys(reply.body).some((key) => key !== 'message' && key !== 'errors') ||
            typeof reply.body.message !== 'string'
          )
            fail("an error not in v3's shape");
        } else if (reply.status >= 400 && (!isJson || reply.body.statusCode !== reply.status || reply.body.message === undefined))
          fail("an error not in v1.100's shape");
        if (reply.status === 401) expired.add(plan.by);
        if (reply.status < 300) {
          seen.success++;
          seen.byCaller.set(plan.by.name, (seen.byCaller.get(plan.by.name) ?? 0) + 1);
        } else if (reply.status === 400 && (Array.isArray(reply.body?.message) || Array.isArray(reply.body?.errors))) seen.validation++;
        else seen.otherClientError++;
      }
      // A route that ended a caller's session or key (or changed its user): the caller gets a new one.
      await Promise.all([...expired].map((c) => c.refresh()));
    };

    // A route's seed is its place in the table: a filtered run replays the same requests.
    const seeds = new Map(every.map((route, i) => [route, 20261122 + i]));
    const seedOf = (route: Route) => seeds.get(route) ?? 0;
    // Four routes at a time: most of a request's time is waiting on DynamoDB Local.
    await inPool(
      all.filter((route) => !disrupts(route)),
      4,
      (route) => fuzzRoute(route, seedOf(route)),
    );
    for (const route of all.filter(disrupts)) await fuzzRoute(route, seedOf(route));

    // FUZZ_TIMES=1: where the time goes.
    if (process.env.FUZZ_TIMES)
      writeFileSync(
        process.env.FUZZ_TIMES,
        times
          .sort((a, b) => b[1] - a[1])
          .map(([name, ms]) => `${ms.toFixed(0).padStart(6)} ms ${name}`)
          .join('\n'),
      );
    expect(failures, failures.join('\n\n')).toEqual([]);
    if (only) return;
    // The inputs reached every stage, as every caller: successes, field validation, and other refusals.
    expect(requests).toBeGreaterThan(all.length * 4);
    expect(seen.success).toBeGreaterThan(200);
    expect(seen.validation).toBeGreaterThan(200);
    expect(seen.otherClientError).toBeGreaterThan(100);
    expect([...seen.byCaller.keys()].sort()).toEqual(['admin', 'admin key', 'user', 'user key']);
  });

  it('answers a date taken that is no string with 400, in the single and the bulk edit (the fuzz found a 500)', async () => {
    const photo = idPool[0] as string;
    const headers = callers[1]?.headers ?? {};
    for (const dateTimeOriginal of [true, [null, 'admin@immich.cloud'], 20240102]) {
      const single = await invoke(updateAssetHandler, {
        method: 'PUT',
        path: `/api/asset/${photo}`,
        pathParameters: { id: photo },
        headers,
        body: { dateTimeOriginal },
      });
      expect([single.status, single.body.message]).toEqual([400, ['dateTimeOriginal must be a valid ISO 8601 date string']]);
      const bulk = await invoke(updateAssetsHandler, {
        method: 'PUT',
        path: '/api/asset',
        headers,
        body: { ids: [photo], dateTimeOriginal },
      });
      expect([bulk.status, bulk.body.message]).toEqual([400, ['dateTimeOriginal must be a valid ISO 8601 date string']]);
    }
  });
});
