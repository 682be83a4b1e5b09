import { createServer, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { bodyTooLarge } from '#shared/core/errors.ts';
import { heartbeat } from '#shared/model/realtime.ts';
import { type MediaJobEvent, runMediaJobsWith } from '#shared/storage/media-jobs.ts';
import { type Greeting, runGreetingsWith } from '#shared/storage/realtime-jobs.ts';
import { runTranscodeJobsWith, type TranscodeJobEvent } from '#shared/storage/transcode-jobs.ts';
import {
  routes as allRoutes,
  bodyLimitBytes,
  functionName,
  functionTimeoutSeconds,
  isAssetUpload,
  localRoutes,
  type Route,
  webRoutes,
} from '../routes.ts';
import { securityHeaders } from '../web-app.ts';
import { toApiGatewayEvent } from './http-event.ts';
import { readBody } from './read-body.ts';
import { createRouteMatcher } from './route-matcher.ts';
import { createWebHandler, isV3WebBuild } from './web-server.ts';
import { createWebSocketApi, goneAnswer, serveManagementApi, type WebSocketApi, type WebSocketEvent } from './websocket-api.ts';

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

export const projectRoot = join(import.meta.dirname, '..', '..');

/**
 * How long a function has, as Lambda's context counts it down: its route's timeout (as deployed);
 * a streamed route's may be shortened with `LOCAL_STREAM_TIMEOUT_MS` (tests: a sync stream that
 * ends before its deadline, docs/deployment.md, "The sync stream").
 */
const timeoutMs = (route: Route): number => {
  const shortened = Number(process.env.LOCAL_STREAM_TIMEOUT_MS);
  return route.stream && process.env.LOCAL_STREAM_TIMEOUT_MS && Number.isFinite(shortened) && shortened >= 0
    ? shortened
    : functionTimeoutSeconds(route) * 1000;
};

const lambdaContext = (route: Route, requestId: string, deadline = Date.now() + timeoutMs(route)): Context => ({
  callbackWaitsForEmptyEventLoop: false,
  functionName: functionName(route),
  functionVersion: '$LATEST',
  invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName(route)}`,
  memoryLimitInMB: String(route.memory ?? 512),
  awsRequestId: requestId,
  logGroupName: `/local/${functionName(route)}`,
  logStreamName: 'local',
  getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
});

/** What Lambda's HttpResponseStream sends first (shared/http/stream-handler.ts takes it through `setPrelude` here). */
type Prelude = { statusCode: number; headers: Record<string, string> };
type ResponseStream = Writable & { setPrelude: (prelude: Prelude) => void };
type StreamingHandler = (event: APIGatewayProxyEventV2, stream: ResponseStream, context: Context) => Promise<void>;

/** What Lambda hands a streaming function, over a Node response: the prelude becomes its status and headers. */
const responseStream = (res: ServerResponse): ResponseStream =>
  Object.assign(
    new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        if (res.write(chunk)) callback();
        else res.once('drain', () => callback());
      },
      final: (callback) => res.end(() => callback()),
      destroy: (error, callback) => {
        if (error || !res.writableEnded) res.destroy();
        callback(error);
      },
    }),
    { setPrelude: (prelude: Prelude) => res.writeHead(prelude.statusCode, prelude.headers) },
  );

const sendJsonError = (res: ServerResponse, statusCode: number, error: string, message: string): void => {
  res.writeHead(statusCode, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ message, error, statusCode }));
};

/**
 * The server, a way to wait for the media work its uploads started (tests), its socket's WebSocket
 * API, and `stop`: closed with every connection a client holds (keep-alive, a request under way,
 * the realtime socket), as `npm start` stops on a signal.
 */
export type LocalServer = Server & { mediaIdle(): Promise<void>; websockets: WebSocketApi; stop(): Promise<void> };

/** Background work (mediaIdle waits for it); a failure is printed, never the request's. */
const track = (pending: Set<Promise<unknown>>, work: Promise<unknown>, failure: string): void => {
  const job = work.catch((error: unknown) => console.error(failure, error));
  pending.add(job);
  void job.finally(() => pending.delete(job));
};

/**
 * What the originals bucket does deployed, done here: after an upload is recorded, the media
 * function gets the object-created event of its original (functions/media/generate-media.ts).
 */
const startMedia = (pending: Set<Promise<unknown>>, assetId: string): void =>
  track(
    pending,
    (async () => {
      const [{ get: getAsset }, { handler }] = await Promise.all([
        import('#shared/db/asset.repository.ts'),
        import('#functions/media/generate-media.ts'),
      ]);
      const asset = await getAsset(assetId);
      if (!asset) return;
      // A motion photo's video is an object of its own too (its poster, as deployed).
      const motion = asset.livePhotoVideoId ? await getAsset(asset.livePhotoVideoId) : undefined;
      const records = [asset, ...(motion ? [motion] : [])].map((each) => ({
        s3: { object: { key: encodeURIComponent(each.originalPath).replace(/%2F/g, '/') } },
      }));
      // Its owner's open apps are told once its previews exist (the media function's events).
      await handler({ Records: records });
    })(),
    'media generation failed',
  );

/**
 * What an asynchronous Lambda invocation does deployed, done here: the media function's jobs
 * (shared/storage/media-jobs.ts) run in this process, tracked like the uploads' media work.
 */
const runMediaJobs = (pending: Set<Promise<unknown>>, event: MediaJobEvent): void =>
  track(
    pending,
    import('#functions/media/generate-media.ts').then(({ handler }) => handler(event)),
    'media job failed',
  );

/**
 * The same for the transcode function's jobs (shared/storage/transcode-jobs.ts): ffmpeg encodes
 * here, in this process's machine, tracked like the media work (MediaConvert is deployed only).
 */
const runTranscodeJobs = (pending: Set<Promise<unknown>>, event: TranscodeJobEvent): void =>
  track(
    pending,
    import('#functions/media/transcode-video.ts').then(({ handler }) => handler(event)),
    'transcode job failed',
  );

export interface LocalServerOptions {
  routes?: readonly Route[];
  /** Largest upload (`MAX_UPLOAD_MB`), in bytes; every other route has its row's limit (`bodyLimitBytes`). */
  uploadLimitBytes?: number;
  /** A build of Immich's web app to serve at `/` beside the API (infra/local/web-server.ts). */
  webDir?: string;
  /**
   * The socket's heartbeat (docs/web-app.md, "Realtime"): how often the connections are pinged,
   * and what their open packet advertises (`PING_INTERVAL_MS`, `PING_TIMEOUT_MS`); tests shorten them.
   */
  heartbeat?: { pingEveryMs?: number; pingIntervalMs?: number; pingTimeoutMs?: number };
}

type SocketHandler = (event: WebSocketEvent) => Promise<{ statusCode?: number } | undefined>;
const realtimeStage = 'local';

/**
 * The management API every local server of this process posts to (`REALTIME_ENDPOINT`), on a
 * loopback port of its own: one per process, as the functions find it in the environment; each
 * connection id belongs to one server's WebSocket API.
 */
const localSocketApis = new Set<WebSocketApi>();
let management: Promise<string> | undefined;
const managementEndpoint = (): Promise<string> => {
  management ??= new Promise((resolve) => {
    const server = serveManagementApi(
      (method, connectionId, body) => {
        for (const api of localSocketApis) if (api.owns(connectionId)) return api.manage(method, connectionId, body);
        return goneAnswer();
      },
      // The process's own key (DynamoDB Local's random one under `npm start`): nothing else may post.
      { stage: realtimeStage, accessKeyId: () => process.env.AWS_ACCESS_KEY_ID },
    );
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/${realtimeStage}`));
    // It lives as long as the process's servers do, and never keeps the process alive by itself.
    server.unref();
  });
  return management;
};

/**
 * Immich's socket (`/api/socket.io/`) served as the stack serves it: the WebSocket API's stand-in
 * (infra/local/websocket-api.ts) runs the `$connect` and `$disconnect` functions of the source;
 * their greeter runs in this process (as the media jobs do), the heartbeat on a timer; the
 * management API they post to is served on a loopback port of its own, which `REALTIME_ENDPOINT`
 * names (shared/core/env.ts).
 */
const startRealtime = (pending: Set<Promise<unknown>>, options: LocalServerOptions) => {
  const socketHandler =
    (entry: string): SocketHandler =>
    async (event) =>
      ((await import(pathToFileURL(join(projectRoot, entry)).href)) as { handler: SocketHandler }).handler(event);
  const websockets = createWebSocketApi({
    stage: realtimeStage,
    connect: socketHandler('functions/realtime/connect.ts'),
    disconnect: socketHandler('functions/realtime/disconnect.ts'),
    onFailure: (route, error) => console.error(`realtime ${route} failed`, error),
  });
  localSocketApis.add(websockets);
  runGreetingsWith((greeting: Greeting) =>
    track(
      pending,
      import('#functions/realtime/greet.ts').then(({ handler }) => handler(greeting)),
      'realtime greeting failed',
    ),
  );
  const { pingEveryMs, pingIntervalMs, pingTimeoutMs } = options.heartbeat ?? {};
  if (pingIntervalMs) process.env.PING_INTERVAL_MS = String(pingIntervalMs);
  if (pingTimeoutMs) process.env.PING_TIMEOUT_MS = String(pingTimeoutMs);
  const ready = managementEndpoint().then((endpoint) => {
    process.env.REALTIME_ENDPOINT = endpoint;
  });
  const ping = (): void =>
    track(
      pending,
      import('#functions/realtime/ping.ts').then(({ handler }) => handler()),
      'realtime heartbeat failed',
    );
  const pings = setInterval(ping, pingEveryMs ?? heartbeat.pingEveryMinutes * 60_000).unref();
  return {
    websockets,
    /** An upgrade of the socket's path: `$connect` once the management API listens. */
    upgrade: (...args: Parameters<WebSocketApi['handleUpgrade']>): void => {
      void ready.then(() => websockets.handleUpgrade(...args));
    },
    close: async (): Promise<void> => {
      clearInterval(pings);
      localSocketApis.delete(websockets);
      await websockets.close();
    },
  };
};

/**
 * Serves every route of the route table over plain Node HTTP, calling the same handler modules
 * the Lambda functions run, with the same API Gateway v2 events. Handlers load on first use.
 */
export const createLocalServer = (options: LocalServerOptions = {}): LocalServer => {
  // Beside a web build, its routes too (the share pages), reading its index.html as deployed they read theirs.
  const routes = options.routes ?? [...allRoutes, ...localRoutes, ...(options.webDir ? webRoutes : [])];
  if (options.webDir) process.env.WEB_INDEX = join(resolve(options.webDir), 'index.html');
  const uploadLimitMb = (options.uploadLimitBytes ?? 100 * 1024 * 1024) / (1024 * 1024);
  // The handlers know it too: an upload session's parts come here, so none may be larger.
  process.env.MAX_UPLOAD_MB = String(uploadLimitMb);
  const match = createRouteMatcher(routes);
  const handlers = new Map<string, Promise<LambdaHandler>>();
  const load = (route: Route): Promise<LambdaHandler> => {
    let handler = handlers.get(route.entry);
    if (!handler) {
      handler = import(pathToFileURL(join(projectRoot, route.entry)).href).then((module: { handler: LambdaHandler }) => module.handler);
      handlers.set(route.entry, handler);
    }
    return handler;
  };

  const streamingHandlers = new Map<string, Promise<StreamingHandler>>();
  const loadStreaming = (route: Route): Promise<StreamingHandler> => {
    let handler = streamingHandlers.get(route.entry);
    if (!handler) {
      handler = import(pathToFileURL(join(projectRoot, route.entry)).href).then((module: { handler: StreamingHandler }) => module.handler);
      streamingHandlers.set(route.entry, handler);
    }
    return handler;
  };

  const web = options.webDir ? createWebHandler(options.webDir) : undefined;
  const pending = new Set<Promise<unknown>>();
  runMediaJobsWith((event) => runMediaJobs(pending, event));
  runTranscodeJobsWith((event) => runTranscodeJobs(pending, event));
  // A browser's socket is answered in the shapes of the web app served (docs/immich-compatibility.md, "Realtime").
  const generationBefore = process.env.WEB_GENERATION;
  process.env.WEB_GENERATION = options.webDir && isV3WebBuild(options.webDir) ? 'v3' : 'v1';
  const realtime = startRealtime(pending, options);
  const server = createServer(async (req, res) => {
    try {
      const url = req.url ?? '/';
      const method = req.method ?? 'GET';
      const path = url.split('?')[0] ?? '/';
      const found = match(method, path);
      // The API's own routes first; the web app takes the rest of GET outside /api (its files and
      // its routes), before the API's `$default` would answer them.
      if ((!found || found.routeKey === '$default') && web?.(req, res, path)) return;
      if (!found) return sendJsonError(res, 404, 'Not Found', `Cannot ${method} ${url}`);
      // The row's limit, before the handler (so before parsing and authentication), as the
      // deployed function checks it: an oversize body is never held in memory.
      const limit = bodyLimitBytes(found.route, uploadLimitMb);
      const declared = Number(req.headers['content-length']);
      const body = Number.isFinite(declared) && declared > limit ? 'too-large' : await readBody(req, limit);
      if (body === 'too-large') {
        res.setHeader('connection', 'close');
        return sendJsonError(
          res,
          413,
          'Payload Too Large',
          bodyTooLarge(limit, found.route.body === 'upload' ? 'upload limit' : 'limit').message,
        );
      }
      const event = toApiGatewayEvent(
        { method, url, headers: req.headers, body, sourceIp: req.socket.remoteAddress ?? '127.0.0.1' },
        { routeKey: found.routeKey, pathParameters: found.pathParameters },
      );
      if (found.route.stream) {
        // A streaming function (a function URL in RESPONSE_STREAM mode, deployed): its lines reach the client as written.
        const stream = responseStream(res);
        const streaming = await loadStreaming(found.route);
        await streaming(event, stream, lambdaContext(found.route, event.requestContext.requestId));
        return;
      }
      const handler = await load(found.route);
      const result = await handler(event, lambdaContext(found.route, event.requestContext.requestId));
      const headers: OutgoingHttpHeaders = {};
      // A page of the app gets the headers the web handler gives every page (the distribution's, deployed).
      if (webRoutes.includes(found.route)) Object.assign(headers, securityHeaders);
      for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
      if (result.cookies?.length) headers['set-cookie'] = result.cookies;
      const payload = result.body === undefined ? '' : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
      res.writeHead(result.statusCode ?? 200, headers);
      res.end(payload);
      if (isAssetUpload(found.route) && result.statusCode === 201 && typeof result.body === 'string') {
        const { id } = JSON.parse(result.body) as { id?: string };
        if (id) startMedia(pending, id);
      }
    } catch (error) {
      // Handlers map their own errors; reaching here means the host itself failed, or the client
      // left (a request cut off while its body came in, as when the server stops): nothing to tell.
      if (req.destroyed && res.destroyed) return;
      console.error(error);
      if (!res.headersSent) sendJsonError(res, 500, 'Internal Server Error', 'Local server error');
      else res.end();
    }
  });
  // Immich's socket, at the path its apps open (`/api/socket.io/`, any query: Immich reads none).
  server.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/api/socket.io' || path.startsWith('/api/socket.io/')) realtime.upgrade(req, socket, head);
    else socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n');
  });
  server.on('close', () => {
    void realtime.close();
    // Another server of this process (a test's) answers in its own web app's shapes again.
    if (generationBefore === undefined) delete process.env.WEB_GENERATION;
    else process.env.WEB_GENERATION = generationBefore;
  });
  return Object.assign(server, {
    websockets: realtime.websockets,
    mediaIdle: async () => {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    stop: async () => {
      // No new connection; then the ones held: the sockets (upgraded, so no longer the HTTP server's
      // to close), and every HTTP connection, idle or not. `close` calls back once none is left.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await realtime.close();
      server.closeAllConnections();
      await closed;
    },
  });
};
