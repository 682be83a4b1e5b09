import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { handler as logoutHandler } from '#functions/auth/logout.ts';
import { handler as connectHandler } from '#functions/realtime/connect.ts';
import { handler as disconnectHandler } from '#functions/realtime/disconnect.ts';
import { handler as greetHandler } from '#functions/realtime/greet.ts';
import { handler as pingHandler } from '#functions/realtime/ping.ts';
import { handler as createApiKeyV3 } from '#functions/v3/api-key/create-api-key.ts';
import type { WebSocketEvent } from '#infra/local/websocket-api.ts';
import * as connectionRepo from '#shared/db/connection.repository.ts';
import { collectEvents, raise } from '#shared/realtime/outbox.ts';
import { type Greeting, runGreetingsWith } from '#shared/storage/realtime-jobs.ts';
import { bearer, createApiKey, fixtures, login, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { hangGuard } from '../support/timeouts.ts';
import { useWebSocketStandIn } from '../support/websocket-stand-in.ts';

/**
 * The realtime socket's functions (functions/realtime/) with API Gateway's WebSocket events,
 * against DynamoDB Local: `$connect` with each kind of credential Immich's socket takes (and those
 * it refuses), `$disconnect`, the greeter's frames and the heartbeat through the management API's
 * local stand-in (infra/local/websocket-api.ts, over HTTP, as the functions call it deployed), a
 * connection gone cleaned up, and the events of concurrent requests kept apart.
 */
const connectEvent = (connectionId: string, headers: Record<string, string>): WebSocketEvent => ({
  requestContext: {
    routeKey: '$connect',
    eventType: 'CONNECT',
    connectionId,
    requestId: randomUUID(),
    connectedAt: Date.now(),
    requestTimeEpoch: Date.now(),
    stage: 'test',
    apiId: 'test',
    domainName: 'localhost',
    identity: { sourceIp: '127.0.0.1' },
  },
  headers,
  multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
  isBase64Encoded: false,
});

const greetings: Greeting[] = [];
let accounts: Awaited<ReturnType<typeof setupAccounts>>;

beforeAll(async () => {
  accounts = await setupAccounts();
});

describe('$connect', () => {
  beforeEach(() => {
    greetings.length = 0;
    runGreetingsWith((greeting) => greetings.push(greeting));
  });
  afterAll(() => runGreetingsWith(undefined));

  const connect = async (headers: Record<string, string>) => {
    const connectionId = `${randomUUID().slice(0, 12)}=`;
    const result = await connectHandler(connectEvent(connectionId, headers));
    const [kept] = (await connectionRepo.listUserConnections([accounts.admin.userId, accounts.user1.id, accounts.user2.id])).filter(
      (connection) => connection.connectionId === connectionId,
    );
    return { connectionId, result, kept, greeting: greetings.find((each) => each.connectionId === connectionId) };
  };

  it('signs a connection in with each of the credentials Immich’s socket takes, and keeps it with its session', async () => {
    const token = accounts.user1.accessToken;
    const { secret } = await createApiKey(token, 'socket');
    const cases: [string, Record<string, string>, boolean][] = [
      ['the cookie', { Cookie: `immich_is_authenticated=true; immich_access_token=${token}` }, true],
      ['x-immich-user-token', { 'x-immich-user-token': token }, true],
      ['x-immich-session-token', { 'X-Immich-Session-Token': token }, true],
      ['a Bearer token', { Authorization: `Bearer ${token}` }, true],
      ['an API key with `all`', { 'x-api-key': secret }, false],
    ];
    for (const [what, headers, session] of cases) {
      const { connectionId, result, kept, greeting } = await connect(headers);
      expect(result, what).toEqual({ statusCode: 200 });
      expect(kept, what).toMatchObject({ connectionId, userId: accounts.user1.id, generation: 'v1' });
      expect(kept?.sessionHash !== null, what).toBe(session);
      // Two hours and five minutes: API Gateway ends every connection after two.
      expect(Math.ceil((kept?.ttl ?? 0) - Date.parse(kept?.connectedAt ?? '') / 1000)).toBe(7500);
      expect(greeting, what).toEqual({ kind: 'welcome', connectionId, generation: 'v1' });
    }
  });

  it('answers the 3.x apps (their User-Agent) and the v3 web app deployed (WEB_GENERATION) in v3’s shapes', async () => {
    const cookie = { Cookie: `immich_access_token=${accounts.user2.accessToken}` };
    expect((await connect({ ...cookie, 'User-Agent': 'immich-ios/3.1.0' })).kept?.generation).toBe('v3');
    expect((await connect({ ...cookie, 'User-Agent': 'Mozilla/5.0' })).kept?.generation).toBe('v1');
    process.env.WEB_GENERATION = 'v3';
    try {
      expect((await connect({ ...cookie, 'User-Agent': 'Mozilla/5.0' })).kept?.generation).toBe('v3');
    } finally {
      delete process.env.WEB_GENERATION;
    }
  });

  it('keeps nothing of refused credentials and hands the connection to the greeter to be told so (as Immich does)', async () => {
    const narrow = await invoke(createApiKeyV3, {
      method: 'POST',
      path: '/api/api-keys',
      headers: bearer(accounts.user1.accessToken),
      body: { name: 'narrow', permissions: ['asset.read'] },
    });
    expect(narrow.status).toBe(201);
    const cases: [string, Record<string, string>][] = [
      ['no credentials', {}],
      ['an unknown token', { Cookie: 'immich_access_token=not-a-token' }],
      ['an API key without `all`', { 'x-api-key': narrow.body.secret }],
      ['a shared link’s key', { 'x-immich-share-key': 'some-key' }],
      ['a malformed cookie', { Cookie: 'immich_access_token=%E0%A4%A' }],
    ];
    for (const [what, headers] of cases) {
      const { connectionId, result, kept, greeting } = await connect(headers);
      expect(result, what).toEqual({ statusCode: 200 });
      expect(kept, what).toBeUndefined();
      expect(greeting, what).toEqual({ kind: 'unauthorized', connectionId });
    }
  });

  it('reads no credentials from the query (Immich ignores it)', async () => {
    const event = connectEvent('query-only=', {});
    const withQuery = { ...event, queryStringParameters: { apiKey: (await createApiKey(accounts.user1.accessToken, 'q')).secret } };
    await connectHandler(withQuery);
    expect(greetings).toEqual([{ kind: 'unauthorized', connectionId: 'query-only=' }]);
  });

  it('forgets a connection on $disconnect', async () => {
    const { connectionId, kept } = await connect({ 'x-immich-user-token': accounts.user2.accessToken });
    expect(kept).toBeDefined();
    expect(await disconnectHandler({ requestContext: { connectionId, routeKey: '$disconnect' } })).toEqual({ statusCode: 200 });
    expect((await connectionRepo.list()).map((connection) => connection.connectionId)).not.toContain(connectionId);
  });
});

describe('through the WebSocket API (its local stand-in and management API, over HTTP)', () => {
  const standIn = useWebSocketStandIn();

  /** A raw WebSocket client, as the apps' socket.io clients see the wire: every frame, in order. */
  const client = (headers: Record<string, string>) => {
    const frames: string[] = [];
    const socket = new WebSocket(`${standIn.origin}/api/socket.io/?EIO=4&transport=websocket`, { headers });
    socket.on('message', (data) => frames.push(String(data)));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const frame = async (index: number): Promise<string> => {
      const deadline = Date.now() + hangGuard.wait;
      while (frames.length <= index && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      return frames[index] ?? expect.fail(`no frame ${index}; got ${frames.join(' | ')}`);
    };
    return { socket, frames, frame, closed };
  };

  it('speaks first, once the connection is open: the open packet, one CONNECT, then on_server_version', async () => {
    const app = client({ Cookie: `immich_access_token=${accounts.user1.accessToken}`, 'User-Agent': 'immich-android/3.1.0' });
    const open = JSON.parse((await app.frame(0)).slice(1));
    expect(open).toEqual({ sid: expect.any(String), upgrades: [], pingInterval: 300_000, pingTimeout: 300_000, maxPayload: 1_000_000 });
    expect(await app.frame(1)).toMatch(/^40\{"sid":"[\w-]{20}"\}$/);
    expect(await app.frame(2)).toBe('42["on_server_version",{"major":3,"minor":2,"patch":2,"prerelease":null}]');
    // What the client says (its CONNECT, a pong, anything at all) is answered with nothing.
    app.socket.send('40');
    app.socket.send('3');
    app.socket.send('not a packet');
    app.socket.send(Buffer.from([0, 1, 2]));
    await pingHandler();
    expect(await app.frame(3)).toBe('2');
    expect(app.frames).toHaveLength(4);
    app.socket.close();
    await app.closed;
  });

  it('tells refused credentials what Immich tells them, then closes', async () => {
    const stranger = client({ Cookie: 'immich_access_token=nope' });
    await stranger.closed;
    expect(stranger.frames.slice(1)).toEqual([expect.stringMatching(/^40\{"sid":/), '42["error","unauthorized"]', '41']);
  });

  it('refuses nothing a client could send, and leaves no connection behind when it closes', async () => {
    const app = client({ 'x-immich-user-token': accounts.user2.accessToken });
    await app.frame(2);
    expect((await connectionRepo.listUserConnections([accounts.user2.id])).length).toBeGreaterThan(0);
    app.socket.close();
    await app.closed;
    const deadline = Date.now() + hangGuard.wait;
    while ((await connectionRepo.listUserConnections([accounts.user2.id])).length > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await connectionRepo.listUserConnections([accounts.user2.id])).toEqual([]);
  });

  it('deletes a connection that is gone (410) when the heartbeat or an event finds it', async () => {
    const stale = (connectionId: string) =>
      connectionRepo.put({
        connectionId,
        userId: accounts.user2.id,
        sessionHash: null,
        generation: 'v1',
        connectedAt: new Date().toISOString(),
        ttl: Math.floor(Date.now() / 1000) + 600,
      });
    await stale('gone-to-the-heartbeat=');
    await pingHandler();
    expect((await connectionRepo.list()).map((each) => each.connectionId)).not.toContain('gone-to-the-heartbeat=');
    await stale('gone-to-an-event=');
    const { publish } = await import('#shared/realtime/publisher.ts');
    await publish([{ kind: 'stacks-changed', userId: accounts.user2.id }]);
    expect((await connectionRepo.list()).map((each) => each.connectionId)).not.toContain('gone-to-an-event=');
  });

  it('greets an open connection with its frames alone: the open packet’s post is its test of the connection being open', async () => {
    const handed: Greeting[] = [];
    runGreetingsWith((greeting) => handed.push(greeting));
    try {
      const app = client({ 'x-immich-user-token': accounts.user1.accessToken });
      const stranger = client({ Cookie: 'immich_access_token=nope' });
      await Promise.all([app, stranger].map((each) => new Promise((resolve) => each.socket.once('open', resolve))));
      const [welcome, unauthorized] = [handed.find((each) => each.kind === 'welcome'), handed.find((each) => each.kind === 'unauthorized')];
      const calls = async (greeting: Greeting | undefined, outcome: string): Promise<number> => {
        const before = standIn.proxy.stats.calls;
        expect(await greetHandler(greeting ?? expect.fail('not handed to the greeter'))).toEqual({ outcome });
        return standIn.proxy.stats.calls - before;
      };
      // Three posts (open, CONNECT, on_server_version); refused: four and the close. No GetConnection first.
      expect(await calls(welcome, 'greeted')).toBe(3);
      expect(await app.frame(2)).toMatch(/^42\["on_server_version"/);
      expect(await calls(unauthorized, 'refused')).toBe(5);
      await stranger.closed;
      expect(stranger.frames.slice(1)).toEqual([expect.stringMatching(/^40\{"sid":/), '42["error","unauthorized"]', '41']);
      app.socket.close();
    } finally {
      runGreetingsWith((greeting) => void greetHandler(greeting));
    }
  });

  it('never greets a connection that does not open: the greeter gives up, sooner for refused credentials', async () => {
    const before = standIn.proxy.stats.calls;
    expect(await greetHandler({ kind: 'welcome', connectionId: 'never-opened=', generation: 'v1' })).toEqual({ outcome: 'gone' });
    // Its open packet tried seven times (about 3 s), a refused connection's six (about 1.5 s).
    expect(standIn.proxy.stats.calls - before).toBe(7);
    expect(await greetHandler({ kind: 'unauthorized', connectionId: 'never-opened=' })).toEqual({ outcome: 'gone' });
    expect(standIn.proxy.stats.calls - before).toBe(13);
  });

  it('keeps each request’s events to itself: concurrent logouts tell each session once, and only its own', async () => {
    // Three sessions of one user, each with its socket; all logged out at once, in one process.
    const sessions = await Promise.all([1, 2, 3].map(() => login(fixtures.user1)));
    const sockets = sessions.map((session) => client({ 'x-immich-user-token': session.accessToken }));
    await Promise.all(sockets.map((socket) => socket.frame(2)));
    const replies = await Promise.all(
      sessions.map((session) => invoke(logoutHandler, { method: 'POST', path: '/api/auth/logout', headers: bearer(session.accessToken) })),
    );
    for (const reply of replies) expect(reply.status).toBe(200);
    for (const socket of sockets) {
      const told = await socket.frame(3);
      expect(told).toMatch(/^42\["on_session_delete","[\w-]+"\]$/);
    }
    // Each told of its own session, once: a shared outbox would have sent every logout's event with each answer.
    const ids = sockets.map((socket) => socket.frames.filter((frame) => frame.includes('on_session_delete')));
    expect(ids.map((each) => each.length)).toEqual([1, 1, 1]);
    expect(new Set(ids.flat()).size).toBe(3);
    for (const socket of sockets) socket.socket.close();
  });
});

describe('the outbox', () => {
  it('keeps the events of interleaved operations apart, in the order each raised them', async () => {
    const run = (userId: string) =>
      collectEvents(async () => {
        for (let i = 0; i < 3; i++) {
          raise({ kind: 'stacks-changed', userId: `${userId}-${i}` });
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
        }
      });
    const [a, b] = await Promise.all([run('a'), run('b')]);
    expect(a.events.map((event) => ('userId' in event ? event.userId : ''))).toEqual(['a-0', 'a-1', 'a-2']);
    expect(b.events.map((event) => ('userId' in event ? event.userId : ''))).toEqual(['b-0', 'b-1', 'b-2']);
    // Outside an operation an event goes nowhere (and never into another's).
    raise({ kind: 'config-changed' });
    expect((await collectEvents(async () => undefined)).events).toEqual([]);
  });
});
