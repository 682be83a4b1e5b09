import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as loginHandler } from '#functions/auth/login.ts';
import { routes } from '#infra/routes.ts';
import { hashPassword } from '#shared/core/crypto.ts';
import { adminId } from '#shared/db/system.repository.ts';
import { getUser, updateUser } from '#shared/db/user.repository.ts';
import { bearer, fixtures, login, setupAccounts } from '../support/accounts.ts';
import { invoke, type Reply } from '../support/invoke.ts';
import { countRoundTrips } from '../support/round-trips.ts';

// What IAM's read grant (dynamodb:GetItem, BatchGetItem, Query, ...) lets a `data: 'read'` function send.
const readCommands = new Set(['GetItemCommand', 'BatchGetItemCommand', 'QueryCommand']);

// A small seeded generator (mulberry32), so a failure can be replayed exactly.
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

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
  // Long strings, odd dates and wildcards that once gave 500s or stalls.
  'y'.repeat(5_000),
  'z'.repeat(70_000),
  '2020-366',
  '2020-W53-7',
  '%%%%%%%%%%%%zz',
  '\u0000',
];

const value = (next: () => number, depth = 0): unknown => {
  const pick = Math.floor(next() * (depth > 2 ? 6 : 8));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2:
      return [0, -1, 1.5, 1e308, -0, 51, 52, Number.MAX_SAFE_INTEGER, 1e20, -1e20][Math.floor(next() * 10)];
    case 3:
    case 4:
      return strings[Math.floor(next() * strings.length)];
    case 5:
      return undefined;
    case 6:
      return Array.from({ length: Math.floor(next() * 3) }, () => value(next, depth + 1));
    default: {
      const keys = [
        'email',
        'password',
        'name',
        'newPassword',
        'storageLabel',
        'quotaSizeInBytes',
        'memoriesEnabled',
        'ffmpeg',
        'crf',
        'library',
        'scan',
        'trash',
        'days',
        'passwordLogin',
        'enabled',
        '__proto__',
        'constructor',
        'albumName',
        'description',
        'ids',
        'assetIds',
        'assets',
        'checksum',
        // Upload sessions, people, albums and users (the hardening II routes).
        'size',
        'partSize',
        'partChecksums',
        'fileName',
        'birthDate',
        'sharedWithUserIds',
        'force',
      ];
      return Object.fromEntries(
        Array.from({ length: Math.floor(next() * 5) }, () => [keys[Math.floor(next() * keys.length)], value(next, depth + 1)]),
      );
    }
  }
};

const queryKeys = [
  'make',
  'createdBefore',
  'takenAfter',
  'originalFileName',
  'checksum',
  'page',
  'withPeople',
  'q',
  'personIds',
  'withHidden',
  'isAll',
  'shared',
  'assetId',
  'withoutAssets',
];

beforeAll(async () => {
  await setupAccounts();
});

/**
 * A fresh session of the admin. Random input may change the admin's own email or password (v3's
 * PUT /users/me takes both: theirs to change); then their sign-in is put back first, as stored.
 */
const adminSession = async (): Promise<string> => {
  const attempt = await invoke(loginHandler, { method: 'POST', path: '/api/auth/login', body: fixtures.admin });
  if (attempt.status === 201) return attempt.body.accessToken as string;
  const admin = await getUser((await adminId()) ?? '');
  if (!admin) throw new Error('no admin to restore');
  await updateUser(admin, { email: fixtures.admin.email, passwordHash: await hashPassword(fixtures.admin.password) });
  return (await login(fixtures.admin)).accessToken;
};

describe('random input, as an admin, to every route', () => {
  const root = join(import.meta.dirname, '..', '..');

  it("never gets a 5xx, and every answer is JSON in Immich's error shape or a success", async () => {
    const next = random(20261122);
    const seen = { success: 0, validation: 0, otherClientError: 0 };
    for (const route of routes) {
      const { handler } = (await import(join(root, route.entry))) as { handler: Parameters<typeof invoke>[0] };
      // A fresh session per route: logout and logoutAuthDevices end sessions on purpose.
      const accessToken = await adminSession();
      for (let i = 0; i < 25; i++) {
        const body = value(next);
        const id = String(value(next) ?? 'x');
        let reply!: Reply;
        const calls = await countRoundTrips(async () => {
          reply = await invoke(handler, {
            method: route.method === 'ANY' ? 'POST' : route.method,
            path: route.path.replace('{id}', encodeURIComponent(id)),
            pathParameters: route.path.includes('{id}') ? { id } : undefined,
            query: {
              size: String(value(next)),
              key: i % 7 === 0 ? 'k' : '',
              [queryKeys[Math.floor(next() * queryKeys.length)] ?? 'q']: String(value(next)),
            },
            // Now and then a broken cookie beside the token, or a body far over any route's limit.
            headers: {
              ...bearer(accessToken),
              'content-type': 'application/json',
              ...(i % 11 === 3 ? { cookie: 'immich_access_token=%E0%A4%A; immich_shared_link_token=%' } : {}),
            },
            body:
              i % 5 === 0
                ? '{"broken": '
                : i % 13 === 7
                  ? JSON.stringify({ name: 'b'.repeat(7 * 1024 * 1024) })
                  : body === undefined
                    ? undefined
                    : JSON.stringify(body),
          });
        });
        const context = `${route.operationId} #${i}: ${JSON.stringify(body)} -> ${JSON.stringify(reply.body)}`;
        // The route table's `data` is the function's IAM grant: a read-only function that wrote
        // would be denied in AWS, and a function without table access must send nothing at all.
        if (route.data === 'none') expect(calls, context).toEqual([]);
        if (route.data === 'read')
          expect(
            calls.filter((call) => !readCommands.has(call)),
            context,
          ).toEqual([]);
        expect(reply.status, context).toBeLessThan(500);
        // v1.100's routes answer NestJS's `{message, error, statusCode}`, v3's `{message}` (with `errors` for a failed schema).
        if (reply.status >= 400 && route.generation === 'v3') {
          expect(
            Object.keys(reply.body).filter((key) => key !== 'message' && key !== 'errors'),
            context,
          ).toEqual([]);
          expect(typeof reply.body.message, context).toBe('string');
        } else if (reply.status >= 400) expect(reply.body, context).toMatchObject({ statusCode: reply.status, message: expect.anything() });
        if (reply.status < 300) seen.success++;
        else if (reply.status === 400 && (Array.isArray(reply.body.message) || Array.isArray(reply.body.errors))) seen.validation++;
        else seen.otherClientError++;
      }
    }
    // The inputs reached every stage: successes, field validation, and other refusals.
    expect(seen.success).toBeGreaterThan(20);
    expect(seen.validation).toBeGreaterThan(20);
    expect(seen.otherClientError).toBeGreaterThan(20);
  }, 120_000);
});
