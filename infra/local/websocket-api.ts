/**
 * API Gateway's WebSocket API, as it behaves in AWS, for Immich's socket on this machine
 * (docs/web-app.md, "Realtime"): both local hosts serve it, `npm start` with the source's
 * handlers and `npm run start:deployed` with the template's functions.
 * - An upgrade runs the `$connect` route's integration with the request's headers; a 2xx opens the
 *   connection, anything else refuses the upgrade with that status. Until `$connect` has answered
 *   the connection is not open: the management API answers 410 for it, as AWS does.
 * - What the client sends goes to `$default`, a MOCK integration deployed: nothing answers it
 *   (a frame of any shape, text or binary, is read and dropped; over 128 KB the connection is
 *   closed, 1009, as API Gateway closes it).
 * - A close runs `$disconnect`.
 * - The management API (PostToConnection, GetConnection, DeleteConnection) is what the functions
 *   call, over HTTP: `npm start` serves it on a loopback port of its own (`serveManagementApi`),
 *   `npm run start:deployed` behind its IAM-checking gateway (infra/local/deployed/aws-gateway.ts).
 * Not reproduced: the 2-hour limit on a connection and the 10-minute idle timeout.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { readBody } from './read-body.ts';

/** What API Gateway hands a WebSocket route's Lambda integration (the fields the functions read, and the usual others). */
export interface WebSocketEvent {
  requestContext: {
    routeKey: string;
    eventType: 'CONNECT' | 'DISCONNECT';
    connectionId: string;
    requestId: string;
    connectedAt: number;
    requestTimeEpoch: number;
    stage: string;
    apiId: string;
    domainName: string;
    identity: { sourceIp: string; userAgent?: string };
  };
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
  isBase64Encoded: false;
}

/** API Gateway's largest message (128 KB, in frames of 32 KB). */
export const maxMessageBytes = 128 * 1024;

export interface WebSocketApiOptions {
  /** The stage, as the management API's paths name it (`/<stage>/@connections/<id>`). */
  stage: string;
  apiId?: string;
  /** Runs the `$connect` route's integration: a 2xx opens the connection. */
  connect: (event: WebSocketEvent) => Promise<{ statusCode?: number } | undefined>;
  /** Runs the `$disconnect` route's integration. */
  disconnect: (event: WebSocketEvent) => Promise<unknown>;
  /** Told of an integration that failed (the hosts print it). */
  onFailure?: (route: string, error: unknown) => void;
}

interface Connection {
  socket: WebSocket;
  connectedAt: Date;
  lastActiveAt: Date;
  sourceIp: string;
  userAgent: string | undefined;
}

/** A management API answer: status, headers, body (the service's own JSON). */
export interface ManagementAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const gone = (): ManagementAnswer => ({
  status: 410,
  headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'GoneException', 'x-amzn-requestid': randomUUID() },
  body: JSON.stringify({ message: null }),
});

/** An id as API Gateway makes them (`L0SM9cOFvHcCIhw=`): base64, so a `/` or `+` in it must be escaped by the caller. */
const connectionIdOf = (): string => randomBytes(11).toString('base64');

export type WebSocketApi = ReturnType<typeof createWebSocketApi>;

export const createWebSocketApi = (options: WebSocketApiOptions) => {
  const { stage } = options;
  const apiId = options.apiId ?? 'local';
  const open = new Map<string, Connection>();
  // Upgrades still waiting for `$connect` (their sockets no longer belong to the HTTP server), and `$disconnect`s running.
  const upgrading = new Set<Duplex>();
  const disconnecting = new Set<Promise<unknown>>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: maxMessageBytes, perMessageDeflate: false });

  const eventOf = (
    routeKey: '$connect' | '$disconnect',
    connectionId: string,
    connectedAt: number,
    request: { sourceIp: string; userAgent?: string | undefined; rawHeaders?: string[]; host?: string },
  ): WebSocketEvent => {
    // Headers as the client sent them (API Gateway keeps their case), repeats in the multi-value map.
    const headers: Record<string, string> = {};
    const multiValueHeaders: Record<string, string[]> = {};
    const raw = request.rawHeaders ?? [];
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i] ?? '';
      const value = raw[i + 1] ?? '';
      headers[name] = name in headers ? `${headers[name]},${value}` : value;
      multiValueHeaders[name] = [...(multiValueHeaders[name] ?? []), value];
    }
    return {
      requestContext: {
        routeKey,
        eventType: routeKey === '$connect' ? 'CONNECT' : 'DISCONNECT',
        connectionId,
        requestId: randomUUID(),
        connectedAt,
        requestTimeEpoch: Date.now(),
        stage,
        apiId,
        domainName: request.host ?? 'localhost',
        identity: { sourceIp: request.sourceIp, ...(request.userAgent ? { userAgent: request.userAgent } : {}) },
      },
      ...(routeKey === '$connect' ? { headers, multiValueHeaders } : {}),
      isBase64Encoded: false,
    };
  };

  const refuse = (socket: Duplex, status: number): void => {
    const reason = status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : status >= 500 ? 'Internal Server Error' : 'Error';
    socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n`);
  };

  const disconnected = (connectionId: string, connection: Connection): void => {
    if (open.get(connectionId) !== connection) return;
    open.delete(connectionId);
    const event = eventOf('$disconnect', connectionId, connection.connectedAt.getTime(), connection);
    const done = options.disconnect(event).catch((error: unknown) => options.onFailure?.('$disconnect', error));
    disconnecting.add(done);
    void done.finally(() => disconnecting.delete(done));
  };

  return {
    /** An upgrade request for the API's stage (the caller matched the path): `$connect`, then the connection or its refusal. */
    handleUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
      const connectionId = connectionIdOf();
      const connectedAt = Date.now();
      const request = {
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: req.headers['user-agent'],
        rawHeaders: req.rawHeaders,
        ...(req.headers.host ? { host: req.headers.host } : {}),
      };
      // A client that leaves while `$connect` runs leaves nothing behind.
      socket.on('error', () => socket.destroy());
      upgrading.add(socket);
      void (async () => {
        let status = 500;
        try {
          const result = await options.connect(eventOf('$connect', connectionId, connectedAt, request));
          status = result?.statusCode ?? 200;
        } catch (error) {
          options.onFailure?.('$connect', error);
        } finally {
          upgrading.delete(socket);
        }
        if (status < 200 || status > 299 || socket.destroyed) {
          if (!socket.destroyed) refuse(socket, status);
          return;
        }
        wss.handleUpgrade(req, socket, head, (ws) => {
          const connection: Connection = { socket: ws, connectedAt: new Date(connectedAt), lastActiveAt: new Date(), ...request };
          open.set(connectionId, connection);
          // `$default`: a MOCK integration, deployed. Nothing a client sends is answered, whatever it is.
          ws.on('message', () => {
            connection.lastActiveAt = new Date();
          });
          ws.on('error', () => ws.terminate());
          ws.on('close', () => disconnected(connectionId, connection));
        });
      })();
    },

    /** The management API: `POST` (PostToConnection), `GET` (GetConnection), `DELETE` (DeleteConnection). */
    manage: (method: string, connectionId: string, body: Buffer): ManagementAnswer => {
      const connection = open.get(connectionId);
      if (!connection || connection.socket.readyState !== connection.socket.OPEN) return gone();
      const requestId = randomUUID();
      if (method === 'POST') {
        if (body.length > maxMessageBytes)
          return {
            status: 413,
            headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'PayloadTooLargeException', 'x-amzn-requestid': requestId },
            body: JSON.stringify({ message: 'Message too long' }),
          };
        // API Gateway sends what is posted as a text frame.
        connection.socket.send(body.toString('utf8'));
        return { status: 200, headers: { 'x-amzn-requestid': requestId }, body: '' };
      }
      if (method === 'GET')
        return {
          status: 200,
          headers: { 'content-type': 'application/json', 'x-amzn-requestid': requestId },
          body: JSON.stringify({
            ConnectedAt: connection.connectedAt.toISOString(),
            LastActiveAt: connection.lastActiveAt.toISOString(),
            Identity: { SourceIp: connection.sourceIp, ...(connection.userAgent ? { UserAgent: connection.userAgent } : {}) },
          }),
        };
      if (method === 'DELETE') {
        connection.socket.close(1000);
        return { status: 204, headers: { 'x-amzn-requestid': requestId }, body: '' };
      }
      return {
        status: 404,
        headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'NotFoundException', 'x-amzn-requestid': requestId },
        body: JSON.stringify({ message: 'Not Found' }),
      };
    },

    /** Whether the connection is one of this API's (open). */
    owns: (connectionId: string): boolean => open.has(connectionId),

    /** How many connections are open (tests). */
    get size(): number {
      return open.size;
    },

    /**
     * Closes every connection (each runs `$disconnect`) and drops the upgrades still connecting;
     * resolves once the connections are closed and their `$disconnect`s have run, so a host that
     * stops (a SIGTERM) is not held by a browser's open socket.
     */
    close: async (): Promise<void> => {
      for (const socket of upgrading) socket.destroy();
      upgrading.clear();
      const closing = [...open.values()].map(
        ({ socket }) =>
          new Promise<void>((resolve) => {
            if (socket.readyState === socket.CLOSED) resolve();
            else socket.once('close', () => resolve());
          }),
      );
      for (const connection of open.values()) connection.socket.terminate();
      wss.close();
      await Promise.all(closing);
      await Promise.all([...disconnecting]);
    },
  };
};

/** `/<stage>/@connections/<id>` → the connection id (URL-decoded), or undefined for any other path. */
export const managedConnectionId = (stage: string, path: string): string | undefined => {
  const match = new RegExp(`^/${stage.replace(/[^\w-]/g, '')}/@connections/([^/]+)$`).exec(path);
  if (!match?.[1]) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
};

/** The management API's answer for a connection that is not (or no longer) open: 410 GoneException. */
export const goneAnswer = gone;

/**
 * The management API on a port of its own, for `npm start` and the handler tests: loopback only,
 * and only for callers signing with `accessKeyId` (the process's own key: DynamoDB Local's random
 * one under `npm start`), as API Gateway takes only signed calls.
 */
export const serveManagementApi = (
  manage: WebSocketApi['manage'],
  options: { stage: string; accessKeyId?: () => string | undefined },
): Server =>
  createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const keyId = /Credential=([^/,\s]+)\//.exec(req.headers.authorization ?? '')?.[1];
    const allowed = options.accessKeyId?.();
    if (!keyId || (allowed && keyId !== allowed)) {
      res.writeHead(403, { 'content-type': 'application/json', 'x-amzn-errortype': 'ForbiddenException' });
      res.end(JSON.stringify({ message: 'Forbidden' }));
      return;
    }
    const connectionId = managedConnectionId(options.stage, url.pathname);
    const body = await readBody(req, maxMessageBytes + 1);
    const answer = connectionId
      ? manage(req.method ?? 'GET', connectionId, body === 'too-large' ? Buffer.alloc(maxMessageBytes + 1) : body)
      : {
          status: 404,
          headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'NotFoundException' },
          body: '{"message":"Not Found"}',
        };
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  });
