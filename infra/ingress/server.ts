/**
 * The ingress (docs/large-uploads.md): a plain node:http server that receives the stock clients'
 * uploads too large for Lambda — `POST /api/assets` (v3) and `POST /api/asset/upload` (v1.100),
 * sent to it by the distribution — as a stream. It is a transport, not a second implementation:
 * the caller is authenticated from the headers alone with the routes' own rule, Immich's early
 * duplicate is answered without reading the body, the body's size is checked against the user's
 * room before and while it is read, the files are streamed into the originals store (SHA-1 on the
 * way), and the stored files are handed to the one upload operation the Lambda routes also end in
 * (`recordStoredUpload`), whose outcome is answered in the generation's shape.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import * as env from '#shared/core/env.ts';
import { bodyTooLarge, Forbidden, Invalid, NotFound, TooMany } from '#shared/core/errors.ts';
import { log, withLogContext } from '#shared/core/log.ts';
import { checksumHex } from '#shared/domain/search.ts';
import { readUploadFieldsV1 } from '#shared/dto/v1/asset.ts';
import { mapUploadV3 } from '#shared/dto/v3/asset.response.ts';
import { readUploadFieldsV3 } from '#shared/dto/v3/asset.ts';
import { logAccess } from '#shared/http/access-log.ts';
import type { CredentialSource } from '#shared/http/credentials.ts';
import { errorResult, type Generation } from '#shared/http/errors.ts';
import { authenticateRequest } from '#shared/http/request-auth.ts';
import { jsonResult, type LambdaResult } from '#shared/http/response.ts';
import { limits } from '#shared/model/limits.ts';
import type { NewAssetFields, UploadOutcome } from '#shared/model/upload.ts';
import type { Auth } from '#shared/model/user.ts';
import { collectEvents } from '#shared/realtime/outbox.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { requireAssetFile } from '#shared/services/upload/form.ts';
import {
  declaredDuplicate,
  recordStoredUpload,
  requireUploadAllowed,
  uploadRoom,
  uploadRule,
} from '#shared/services/upload/stored-upload.service.ts';
import { originalsStore } from '#shared/storage/originals.ts';
import { maxStreamBytes } from '#shared/storage/stream-put.ts';
import { UploadGate } from './gate.ts';
import { healthOf } from './health.ts';
import { clearPendingTag, taggingFor } from './pending-tag.ts';
import { BodyAbandoned, quotaExceeded, receiveForm, removeStored } from './receive.ts';

export interface IngressOptions {
  /** What CloudFront sends in `x-origin-verify`; a request without it is refused (unset: not checked). */
  originVerify?: string;
  /** Uploads at once per user, and in all (over either: 429). */
  userConcurrency?: number;
  maxConcurrency?: number;
  /** How long a body may send nothing before it is abandoned. */
  idleTimeoutMs?: number;
  /** The disk whose free space `/health` reports. */
  diskPath?: string;
  /** Aborted when the process stops: the uploads still running are abandoned (and cleaned up). */
  signal?: AbortSignal;
  /** Told of each upload request once it is over, its cleanup done (tests and the bench wait for it). */
  onFinished?: (status: number) => void;
}

/** An upload route: the Lambda route's key (so its log lines land in the same metrics), generation, field reader and answer. */
interface UploadRoute {
  routeKey: string;
  generation: Generation;
  readFields: (fields: Record<string, string>) => NewAssetFields;
  // The Lambda handlers' answers (functions/asset/upload-file.ts, functions/v3/asset/upload-asset.ts).
  answer: (outcome: UploadOutcome) => unknown;
}

const uploadRoutes: Readonly<Record<string, UploadRoute>> = {
  '/api/assets': { routeKey: 'POST /api/assets', generation: 'v3', readFields: readUploadFieldsV3, answer: mapUploadV3 },
  '/api/asset/upload': {
    routeKey: 'POST /api/asset/upload',
    generation: undefined,
    readFields: readUploadFieldsV1,
    answer: (outcome) => outcome,
  },
};

/**
 * What a multipart body adds to its files: the framing, the text fields and a sidecar. A declared
 * length over the user's room by more than this is refused before the body is read.
 */
export const envelopeBytes = limits.sidecarBytes + 256 * 1024;

/** Retry-After of a 429: an upload takes a while; the apps retry a failed upload on their next run anyway. */
const retryAfterSeconds = 30;

const headerValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value.join(',') : value);

/** The request as the credentials reader takes it (an API Gateway event's headers, query and cookies). */
const credentialSource = (request: IncomingMessage, rawQueryString: string): CredentialSource => {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name] = headerValue(value);
  const cookies = (headers.cookie ?? '')
    .split(';')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  return { headers, rawQueryString, cookies };
};

/** A status without a domain error of its own (a stalled body, a stopping process), in the generation's shape. */
const plainError = (statusCode: 408 | 503, message: string, generation: Generation): LambdaResult =>
  jsonResult(statusCode, generation === 'v3' ? { message } : { message, error: ownPhrases[statusCode], statusCode });
const ownPhrases = { 408: 'Request Timeout', 503: 'Service Unavailable' } as const;

const send = (request: IncomingMessage, response: ServerResponse, result: LambdaResult, requestId: string): void => {
  if (response.headersSent || response.destroyed) return;
  const headers: Record<string, string> = { ...result.headers, 'x-request-id': requestId };
  // An answer before the whole body was read (a refusal) closes the connection: the rest is not read.
  if (!request.complete) headers.connection = 'close';
  response.writeHead(result.statusCode, headers);
  response.end(result.body ?? '');
};

/** Whether a request carries the distribution's secret header (unset: every request does). */
const fromDistribution = (request: IncomingMessage, originVerify: string | undefined): boolean =>
  originVerify === undefined || headerValue(request.headers['x-origin-verify']) === originVerify;

/**
 * Whether the file received contradicts the client's `x-immich-checksum` (hex or base64 SHA-1, read
 * as the early duplicate reads it). A header that is no SHA-1 says nothing, as it says nothing there.
 */
const contradicts = (header: string | undefined, hex: string): boolean => {
  const declared = header ? checksumHex(header.trim()) : '';
  return /^[0-9a-f]{40}$/.test(declared) && declared !== hex;
};

export const createIngress = (options: IngressOptions = {}): Server => {
  const originVerify = options.originVerify ?? env.originVerify();
  const idleTimeoutMs = options.idleTimeoutMs ?? env.ingressIdleTimeoutMs();
  const gate = new UploadGate(
    options.maxConcurrency ?? env.ingressMaxConcurrency(),
    options.userConcurrency ?? env.ingressUserConcurrency(),
  );
  const diskPath = options.diskPath ?? '/';

  /** Receives one upload, from the early duplicate to the record step: the answer to send. */
  const upload = async (request: IncomingMessage, response: ServerResponse, route: UploadRoute, auth: Auth): Promise<LambdaResult> => {
    const duplicateId = await declaredDuplicate(auth, headerValue(request.headers['x-immich-checksum']));
    if (duplicateId) return jsonResult(200, route.answer({ id: duplicateId, duplicate: true }));

    const room = await uploadRoom(auth);
    const declared = Number(request.headers['content-length']);
    const declaredLength = Number.isFinite(declared) && declared >= 0 ? declared : undefined;
    if (declaredLength !== undefined && declaredLength > maxStreamBytes + envelopeBytes) throw bodyTooLarge(maxStreamBytes);
    if (declaredLength !== undefined && declaredLength > room + envelopeBytes) throw quotaExceeded();

    const store = await originalsStore();
    // A client that waits to be asked for its body (`Expect: 100-continue`) is asked only now.
    if (/^100-continue$/i.test(headerValue(request.headers.expect) ?? '')) response.writeContinue();
    const form = await receiveForm(request, {
      ownerId: auth.user.id,
      store,
      room,
      envelope: envelopeBytes,
      declaredLength,
      idleTimeoutMs,
      tagging: taggingFor(store),
      signal: options.signal,
    });
    const { asset, livePhoto, sidecar, fields } = form;
    if (!asset || asset.size === 0) {
      await removeStored(store, [asset, livePhoto]);
      // The form's own check says what is missing (shared/services/upload/form.ts).
      requireAssetFile(asset?.size);
      throw new Invalid('The asset file is missing');
    }
    if (contradicts(headerValue(request.headers['x-immich-checksum']), asset.checksum)) {
      await removeStored(store, [asset, livePhoto]);
      throw new Invalid('The file does not match its x-immich-checksum header');
    }
    const outcome = await recordStoredUpload(auth, {
      file: asset,
      fields,
      readFields: route.readFields,
      ...(sidecar ? { sidecar } : {}),
      ...(livePhoto ? { livePhoto } : {}),
    });
    if (!outcome.duplicate) await clearPendingTag(store, [asset, livePhoto]);
    return jsonResult(outcome.duplicate ? 200 : 201, route.answer(outcome));
  };

  const serve = async (request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> => {
    const started = performance.now();
    const url = request.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    const rawQueryString = queryAt < 0 ? '' : url.slice(queryAt + 1);
    const method = request.method ?? 'GET';

    if (method === 'GET' && path === '/health') {
      const health = await healthOf(diskPath).catch(() => undefined);
      send(request, response, jsonResult(health?.healthy ? 200 : 503, health ?? { healthy: false }), requestId);
      return;
    }

    const route = method === 'POST' ? uploadRoutes[path] : undefined;
    let callerId: string | undefined;
    const generation = route?.generation;
    let status = 500;
    const leave: (() => void)[] = [];
    try {
      if (!fromDistribution(request, originVerify)) throw new Forbidden('Forbidden');
      if (!route) throw new NotFound(`Cannot ${method} ${path}`);
      const leaveTotal = gate.enter();
      if (!leaveTotal) throw new TooMany('Too many uploads at once; try again later');
      leave.push(leaveTotal);
      // Headers only: the body is not read until the caller may upload (the routes' rule, contract 1).
      const auth = await authenticateRequest(credentialSource(request, rawQueryString), uploadRule);
      callerId = auth.user.id;
      await requireUploadAllowed(auth, route.generation === 'v3' ? 'v3' : 'v1');
      const leaveUser = gate.enterUser(auth.user.id);
      if (!leaveUser) throw new TooMany('Too many uploads at once from this user; try again later');
      leave.push(leaveUser);
      // The events the operation raised (an album's apps told of an asset uploaded through its
      // link) are sent once it succeeded, as the Lambda routes send theirs (shared/http/pipeline.ts).
      const { result, events } = await collectEvents(() => upload(request, response, route, auth));
      if (events.length > 0 && result.statusCode < 400) await publish(events);
      status = result.statusCode;
      send(request, response, result, requestId);
    } catch (error) {
      let result: LambdaResult | undefined;
      if (error instanceof BodyAbandoned) {
        // A stalled client is told (it may still read), as is one whose upload the stopping process
        // abandons; a client gone has no one to tell (nginx's 499).
        result = error.status ? plainError(error.status, error.message, generation) : undefined;
      } else {
        result = errorResult(error, requestId, generation);
        if (error instanceof TooMany) result.headers['retry-after'] = String(retryAfterSeconds);
      }
      status = result?.statusCode ?? 499;
      if (result) send(request, response, result, requestId);
      if (!request.complete) {
        // Nothing more of this body is read: the connection closes once the answer is sent.
        response.once('finish', () => request.destroy());
        if (!result) request.destroy();
      }
    } finally {
      for (const done of leave) done();
      logAccess(route?.routeKey ?? '$default', callerId, status, performance.now() - started);
      options.onFinished?.(status);
    }
  };

  const server = createServer();
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    const requestId = randomUUID();
    const usage = { dynamoCalls: 0, dynamoReadUnits: 0, dynamoWriteUnits: 0 };
    withLogContext({ requestId, usage }, () =>
      serve(request, response, requestId).catch((error: unknown) => {
        log.error('ingress request failed', { error: error instanceof Error ? error.stack : String(error) });
        if (!response.headersSent) send(request, response, errorResult(error, requestId), requestId);
      }),
    );
  };
  server.on('request', handle);
  // Node would answer `100 Continue` itself before the handler runs: the handler decides (above).
  server.on('checkContinue', handle);
  // Uploads are long: no limit on a whole request, a minute for its headers, and a body that sends
  // nothing for the idle timeout is abandoned (receive.ts). Kept alive longer than CloudFront keeps
  // its origin connections (60 s), so CloudFront, not the ingress, closes an idle one.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 65_000;
  return server;
};
