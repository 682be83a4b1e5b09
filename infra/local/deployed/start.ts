/**
 * Serves a synthesized stack on this machine: the template's routes in front of the template's
 * functions (each in its own Lambda-like environments), every AWS call they make checked against
 * their IAM policies, and the template's table, bucket and secret resolved to DynamoDB Local, an
 * S3-compatible server (s3rver) and a local secret. `npm run start:deployed` and the e2e tests'
 * deployed project both start it here (docs/deployment.md, "The deployed form, locally").
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import S3rver from 's3rver';
import { apiPaths, sharePagePaths } from '../../web-app.ts';
import { createWebHandler } from '../web-server.ts';
import { createWebSocketApi, managedConnectionId, type WebSocketApi, type WebSocketEvent } from '../websocket-api.ts';
import { createApiGateway } from './api-gateway.ts';
import { type BucketCorsRule, type DeployedFunctionUrl, type Deployment, loadDeployment, matchesEventPattern } from './assembly.ts';
import { type AwsCaller, createAwsGateway } from './aws-gateway.ts';
import { compileViewerRequest, headersOf, targetOf, toCfRequest, writeCfResponse } from './edge-functions.ts';
import { serveFunctionUrl } from './function-url.ts';
import type { Authorization } from './iam.ts';
import { type IngressProcess, startIngressProcess } from './ingress-process.ts';
import { FunctionPool } from './lambda-pool.ts';

/**
 * The bundle's native programs are Lambda's linux-arm64 builds (infra/tools/lambda-binaries.ts). On a
 * machine of another architecture they cannot run, so the environment points at this machine's
 * build of the same package instead: the one place where what runs here differs from the bundle.
 */
const hostBinaries = async (codeDir: string): Promise<Record<string, string>> => {
  if (process.arch === 'arm64') return {};
  const binaries: Record<string, string> = {};
  if (existsSync(join(codeDir, 'bin', 'ffmpeg'))) binaries.FFMPEG_PATH = (await import('@ffmpeg-installer/ffmpeg')).default.path;
  if (existsSync(join(codeDir, 'bin', 'ffprobe'))) binaries.FFPROBE_PATH = (await import('@ffprobe-installer/ffprobe')).default.path;
  return binaries;
};

/**
 * Likewise the packages of a bundle with a native build (the `ml` group's onnxruntime-node, whose
 * linux-arm64 binding the stack copies beside the bundle: infra/cdk/bundling.ts): on another
 * architecture, the function's `import` of it resolves to this project's copy, which has this
 * machine's build (infra/local/deployed/lambda-worker.ts). Its JavaScript is the same version.
 */
const projectRoot = join(import.meta.dirname, '..', '..', '..');
export const hostModules = (codeDir: string): Record<string, string> =>
  process.arch !== 'arm64' && existsSync(join(codeDir, 'node_modules', 'onnxruntime-node')) ? { 'onnxruntime-node': projectRoot } : {};

/**
 * What the template sets that cannot hold here: there is no MediaConvert on this machine, so the
 * transcode function gets no role to hand it (`MEDIACONVERT_ROLE_ARN`) and encodes every video
 * itself with ffmpeg, however long (docs/deployment.md, "Transcoding").
 */
const withoutCloudOnly = (environment: Record<string, string>): Record<string, string> => {
  const { MEDIACONVERT_ROLE_ARN: _none, ...local } = environment;
  return local;
};
export interface StartDeployedOptions {
  /** The cloud assembly (`cdk synth --output`). */
  assemblyDir: string;
  stackName?: string;
  tableName: string;
  dynamoDb: { endpoint: string; accessKeyId: string };
  /** Where the S3-compatible server keeps the originals bucket. */
  s3Dir: string;
  /** The shared-link secret's value, served as the template's secret. */
  secretValue: string;
  /**
   * A `-c oauth=cognito` template's OAuth settings (`{ issuerUrl, clientId, clientSecret, … }`),
   * served as its settings secret in place of Cognito's: the local provider's (docs/deployment.md,
   * "The deployed form, locally"). Read at each GetSecretValue, so it may name this server's port.
   */
  oauthSettings?: () => Record<string, unknown>;
  /** Passed to every function (LOG_LEVEL=silent in tests); Lambda would not have it. */
  logLevel?: string;
  /** Changes the loaded deployment before it is served (tests: a shorter timeout, a removed grant). */
  adjust?: (deployment: Deployment) => void;
  onDenied?: (functionId: string, denied: Authorization) => void;
  onFailure?: (functionId: string, message: string) => void;
  /** A build of Immich's web app, served in front of the API as the stack's CloudFront distribution serves it. */
  webDir?: string;
  /** Run the EventBridge schedules on their own (`npm run start:deployed`); without, only `tick()` invokes them (tests). */
  schedules?: boolean;
  /**
   * A folder of CLIP models in ML_MODELS_DIR's layout (`clip/<model>/…`, an Immich ML cache), put
   * into the local bucket under `models/` at the start, as `npm run upload-model` puts a model into
   * the deployed bucket: the functions that run models find it through `ML_MODELS_BUCKET`.
   */
  models?: string;
}

/** Each model of a `clip/<model>/` folder into the bucket, with the deployer's command's own code (infra/tools/upload-model.ts). */
const uploadLocalModels = async (folder: string, endpoint: string): Promise<string[]> => {
  const clip = join(folder, 'clip');
  if (!existsSync(clip)) return [];
  const { planModelUpload, uploadModel } = await import('../../tools/upload-model.ts');
  const { S3Client } = await import('@aws-sdk/client-s3');
  const s3 = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  try {
    const models: string[] = [];
    for (const entry of readdirSync(clip, { withFileTypes: true }).filter((each) => each.isDirectory())) {
      const plan = planModelUpload(join(clip, entry.name));
      await uploadModel(s3, localBucketName, plan);
      models.push(plan.model);
    }
    return models;
  } finally {
    s3.destroy();
  }
};

/**
 * The originals bucket's CORS rules as s3rver takes them (S3's XML). The rule's origin is the
 * distribution's (infra/cdk/stack.ts); here the app's origin is this server's, whose port is chosen
 * after s3rver starts, so any origin is allowed locally.
 */
const corsXml = (rules: readonly BucketCorsRule[]): string[] =>
  rules.length === 0
    ? []
    : [
        `<CORSConfiguration>${rules
          .map(
            (rule) =>
              `<CORSRule><AllowedOrigin>*</AllowedOrigin>${rule.AllowedMethods.map((m) => `<AllowedMethod>${m}</AllowedMethod>`).join('')}${(
                rule.AllowedHeaders ?? []
              )
                .map((h) => `<AllowedHeader>${h}</AllowedHeader>`)
                .join('')}${(rule.ExposedHeaders ?? []).map((h) => `<ExposeHeader>${h}</ExposeHeader>`).join('')}${
                rule.MaxAge ? `<MaxAgeSeconds>${rule.MaxAge}</MaxAgeSeconds>` : ''
              }</CORSRule>`,
          )
          .join('')}</CORSConfiguration>`,
      ];

/**
 * What the distribution does before the API (infra/cdk/web-distribution.ts): every path outside
 * the API's (`apiPaths`, and the share pages) served from the web build.
 */
const cloudFrontEdge = (webDir: string) => {
  const web = createWebHandler(webDir);
  const isApi = (path: string) =>
    [...apiPaths, ...sharePagePaths].some((pattern) => (pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern));
  return (req: IncomingMessage, res: ServerResponse, path: string): boolean => !isApi(path) && web(req, res, path);
};

/** Whether a path matches a distribution behavior's pattern (`/api/socket.io/*`). */
const matchesPattern = (pattern: string, path: string): boolean =>
  pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern;

/** An origin's error page, as CloudFront answers when it cannot reach the origin or its function fails. */
const edgeError = (res: ServerResponse, status: 502 | 503, message: string): void => {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = `${status} ${message}`;
  res.writeHead(status, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body);
};

/**
 * Passes a request on to an origin as CloudFront does for an uncached behavior: the headers as
 * they are (the function's changes, the origin's custom headers, its own host), and the body
 * **piped** as it arrives, never buffered, so nothing limits its size here (the ingress reads it as
 * a stream: infra/ingress/). A viewer gone half-way ends the origin's request too; an origin that
 * answers before the whole body has come (a refusal from the headers) is answered at once.
 * `Expect: 100-continue` is answered here (Node's server) and not passed on, as a proxy may: how
 * CloudFront treats it before a custom origin is not verified. A refusal from the headers reaches
 * the viewer either way, without the body it has not sent yet.
 */
export const pipeToOrigin = (
  origin: string,
  req: IncomingMessage,
  res: ServerResponse,
  target: string,
  headers: IncomingHttpHeaders,
): void => {
  const url = new URL(target, origin);
  const { expect: _expect, host: _host, ...passed } = headers;
  const upstream = httpRequest(url, { method: req.method ?? 'GET', headers: { ...passed, host: url.host } });
  let answered = false;
  upstream.on('response', (answer) => {
    const complete = req.complete;
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage ?? '', {
      ...answer.headers,
      // An answer before the whole body came: the viewer's connection ends with it.
      ...(complete ? {} : { connection: 'close' }),
    });
    answer.on('error', () => res.destroy()).pipe(res);
    answer.on('end', () => {
      answered = true;
      req.unpipe(upstream);
    });
  });
  upstream.on('error', (error) => {
    if (!answered) edgeError(res, 502, `Bad Gateway: ${error.message}`);
  });
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.on('error', () => upstream.destroy());
  upstream.flushHeaders();
  req.pipe(upstream);
};

export interface DeployedApi {
  server: Server;
  deployment: Deployment;
  /** Resolves when the functions the bucket's notifications started have finished. */
  idle(): Promise<void>;
  /** Invokes every scheduled function once now, with EventBridge's event (its ticks also come on their own, every rate). */
  tick(time?: Date): void;
  /**
   * Puts an event on the default bus, as an AWS service does (MediaConvert's job state changes):
   * every function whose rule's pattern matches gets it, asynchronously. The number of rules matched.
   */
  putEvent(event: { source: string; 'detail-type': string; detail: Record<string, unknown> }): number;
  /** The AWS endpoint the functions call (the IAM-checking gateway). */
  awsEndpoint: string;
  /** The access key id a function signs with: what identifies it to the gateway. */
  accessKeyOf(functionId: string): string | undefined;
  /** Each function URL's own address (what CloudFront's origin is, deployed), by function id. */
  functionUrls: ReadonlyMap<string, string>;
  /**
   * The ingress's process (the template's instance: infra/local/deployed/ingress-process.ts), when
   * the template has one: started by the first large upload, or by this call.
   */
  ingress(): Promise<{ pid: number; url: string } | undefined>;
  /** The heap each environment of a function uses now, in bytes (lambda-pool.ts `heapUsed`). */
  heapUsed(functionId: string): Promise<number[]>;
  close(): Promise<void>;
}

const region = 'us-east-1';
const account = '000000000000';
/** What `atomicPuts` reaches of s3rver's file store (lib/stores/filesystem.js). */
interface S3rverStore {
  putObject(object: { bucket: string; key: string }): Promise<unknown>;
  getResourcePath(bucket: string, key: string, resource: string): string;
}

const isS3rverStore = (store: unknown): store is S3rverStore =>
  typeof store === 'object' &&
  store !== null &&
  typeof Reflect.get(store, 'putObject') === 'function' &&
  typeof Reflect.get(store, 'getResourcePath') === 'function';

/**
 * S3 replaces an object at once; s3rver rewrites its file and then its metadata file in place, so
 * a GET during a PUT of the same key (a person's thumbnail made again while the app reads it) reads
 * half of either, and answers a 500. Here each PUT writes under a key of its own, then renames the
 * files over the object's. (A read between its stat and its open of the file can still pair one
 * version's length with the other's bytes; S3 itself never does.)
 */
const atomicPuts = (s3: S3rver): void => {
  const store: unknown = Reflect.get(s3, 'store');
  if (!isS3rverStore(store)) throw new Error('s3rver has no file store to make its writes atomic (its lib/stores/filesystem.js changed)');
  const put = store.putObject.bind(store);
  store.putObject = async (object) => {
    const { key } = object;
    const staging = `${key}.put-${randomBytes(6).toString('hex')}`;
    object.key = staging;
    try {
      const stored = await put(object);
      for (const resource of ['object', 'object.md5', 'metadata.json'])
        await rename(store.getResourcePath(object.bucket, staging, resource), store.getResourcePath(object.bucket, key, resource)).catch(
          (error: NodeJS.ErrnoException) => {
            if (error.code !== 'ENOENT') throw error;
          },
        );
      return stored;
    } finally {
      object.key = key;
    }
  };
};

export const localBucketName = 'immich-originals';
const secretArn = `arn:aws:secretsmanager:${region}:${account}:secret:SharedLinkSecret-local0`;
const oauthSecretArn = `arn:aws:secretsmanager:${region}:${account}:secret:OAuthSettings-local0`;

export const listen = async (server: Server, host = '127.0.0.1', port = 0): Promise<number> => {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return (server.address() as AddressInfo).port;
};

const closeServer = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** Loads the assembly and starts everything but the API's listener (the caller listens where it wants). */
export const startDeployed = async (options: StartDeployedOptions): Promise<DeployedApi> => {
  const deployment = loadDeployment(options.assemblyDir, options.stackName ?? 'ImmichServerless', {
    tableName: options.tableName,
    bucketName: localBucketName,
    secretArn,
    oauthSecretArn,
    region,
    account,
    stackUuid: randomUUID(),
  });
  options.adjust?.(deployment);
  const { oauthSettings } = options;
  if (deployment.oauthSecret && !oauthSettings)
    throw new Error(
      'This template reads its OAuth settings from Secrets Manager (-c oauth=cognito): give the provider to serve in their place (OAUTH_ISSUER_URL, OAUTH_CLIENT_ID, OAUTH_CLIENT_SECRET)',
    );

  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: options.s3Dir,
    configureBuckets: [{ name: localBucketName, configs: corsXml(deployment.bucketCors) }],
  });
  atomicPuts(s3);
  const s3Address = await s3.run();
  if (options.models) await uploadLocalModels(options.models, `http://127.0.0.1:${s3Address.port}`);
  // One access key per function: the gateway knows the caller by it, as AWS knows a role session.
  const callers = new Map([...deployment.functions.values()].map((fn) => [`LOCAL${randomBytes(8).toString('hex').toUpperCase()}`, fn]));
  // The ingress signs with its instance profile's role (IMDS's credentials, deployed): a key of its own.
  const ingressKey = deployment.ingress ? `LOCAL${randomBytes(8).toString('hex').toUpperCase()}` : undefined;
  const gatewayCallers = new Map<string, AwsCaller>([
    ...callers,
    ...(ingressKey && deployment.ingress ? [[ingressKey, deployment.ingress] as const] : []),
  ]);
  // Asynchronous invocations (the bucket's notifications, and Invoke with InvocationType Event),
  // as Lambda delivers them: queued, retried twice on failure, then reported (the dead-letter
  // destination, deployed).
  const pending = new Set<Promise<void>>();
  const socketApis = new Map<string, { stage: string; api: WebSocketApi }>();
  const invokeAsync = (functionId: string, event: unknown): boolean => {
    const pool = pools.get(functionId);
    if (!pool) return false;
    const job = (async () => {
      for (let attempt = 1; attempt <= 3; attempt++) {
        const outcome = await pool.invoke(event, { functionName: functionId, awsRequestId: randomBytes(16).toString('hex') });
        if (outcome.ok) return;
        options.onFailure?.(functionId, `${outcome.message} (attempt ${attempt} of 3)`);
      }
    })();
    pending.add(job);
    void job.finally(() => pending.delete(job));
    return true;
  };
  const aws = createAwsGateway({
    deployment,
    callers: gatewayCallers,
    // A function's ARN ends with its logical id (infra/local/deployed/assembly.ts).
    invokeAsync: (arn, payload) => {
      const target = [...deployment.functions.values()].find((fn) => fn.id.split('/').pop() === arn.split(':').pop());
      return target ? invokeAsync(target.id, JSON.parse(payload.toString('utf8') || '{}')) : false;
    },
    dynamoDb: options.dynamoDb,
    s3: { endpoint: `http://127.0.0.1:${s3Address.port}`, accessKeyId: 'S3RVER', directory: options.s3Dir },
    secret: { arn: secretArn, value: options.secretValue },
    ...(deployment.oauthSecret && oauthSettings
      ? { oauthSecret: { arn: oauthSecretArn, value: () => JSON.stringify(oauthSettings()) } }
      : {}),
    onDenied: (fn, denied) => options.onDenied?.(fn.id, denied),
    manageConnection: (method, path, body) => {
      const api = socketApis.get(deployment.webSocketApis[0]?.apiId ?? '');
      const connectionId = api && managedConnectionId(api.stage, path);
      return api && connectionId ? api.api.manage(method, connectionId, body) : undefined;
    },
  });
  const awsEndpoint = `http://127.0.0.1:${await listen(aws)}`;
  const localEndpoints = {
    AWS_ENDPOINT_URL_DYNAMODB: awsEndpoint,
    AWS_ENDPOINT_URL_S3: awsEndpoint,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: awsEndpoint,
    AWS_ENDPOINT_URL_LAMBDA: awsEndpoint,
    // The WebSocket API's management API (REALTIME_ENDPOINT keeps its stage: shared/core/env.ts).
    AWS_ENDPOINT_URL_APIGATEWAYMANAGEMENTAPI: awsEndpoint,
    S3_FORCE_PATH_STYLE: 'true',
  };

  const pools = new Map(
    await Promise.all(
      [...callers].map(async ([accessKeyId, fn]) => {
        const name = fn.id.split('/').pop() ?? fn.id;
        // What Lambda's Node.js runtime sets, the function's variables from the template, and the
        // local endpoints (every AWS call goes through the IAM-checking gateway).
        const environment: Record<string, string> = {
          AWS_REGION: region,
          AWS_DEFAULT_REGION: region,
          AWS_ACCESS_KEY_ID: accessKeyId,
          AWS_SECRET_ACCESS_KEY: 'local',
          AWS_SESSION_TOKEN: 'local',
          AWS_LAMBDA_FUNCTION_NAME: name,
          AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
          AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
          AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
          LAMBDA_TASK_ROOT: fn.codeDir,
          TZ: ':UTC',
          NODE_ENV: 'production',
          ...withoutCloudOnly(fn.environment),
          ...localEndpoints,
          ...(options.logLevel ? { LOG_LEVEL: options.logLevel } : {}),
          ...(await hostBinaries(fn.codeDir)),
        };
        return [fn.id, new FunctionPool(fn, environment, undefined, hostModules(fn.codeDir))] as const;
      }),
    ),
  );
  // The WebSocket APIs (Immich's socket): their `$connect` and `$disconnect` routes run the template's
  // functions with API Gateway's events; `$default` is a MOCK (infra/local/websocket-api.ts).
  const socketRoute = (api: Deployment['webSocketApis'][number], routeKey: string) => {
    const target = api.routes.find((route) => route.routeKey === routeKey)?.target;
    const pool = target && target !== 'MOCK' ? pools.get(target.functionId) : undefined;
    return async (event: WebSocketEvent): Promise<{ statusCode?: number } | undefined> => {
      if (!pool) return { statusCode: 200 };
      const name = pool.fn.id.split('/').pop() ?? pool.fn.id;
      const outcome = await pool.invoke(event, { functionName: name, awsRequestId: event.requestContext.requestId });
      if (!outcome.ok) {
        options.onFailure?.(pool.fn.id, outcome.message);
        return { statusCode: 500 };
      }
      const result = outcome.result as { statusCode?: unknown } | undefined;
      return { statusCode: typeof result?.statusCode === 'number' ? result.statusCode : 200 };
    };
  };
  for (const api of deployment.webSocketApis)
    socketApis.set(api.apiId, {
      stage: api.stage,
      api: createWebSocketApi({
        stage: api.stage,
        apiId: api.apiId,
        connect: socketRoute(api, '$connect'),
        disconnect: socketRoute(api, '$disconnect'),
        onFailure: (route, error) => options.onFailure?.(`${api.apiId} ${route}`, error instanceof Error ? error.message : String(error)),
      }),
    });
  // The distribution's behaviors to function URLs (the sync stream) answer before the API's, as
  // CloudFront takes the first pattern that matches; then the web build, when there is one.
  const serveUrl = (url: DeployedFunctionUrl, req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): void => {
    const pool = pools.get(url.functionId);
    if (!pool) throw new Error(`No function ${url.functionId} for its URL`);
    void serveFunctionUrl(deployment, url, pool, req, res, headers).catch((error: unknown) => {
      options.onFailure?.(url.functionId, error instanceof Error ? error.message : String(error));
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  };
  const streamEdge = (req: IncomingMessage, res: ServerResponse, path: string): boolean => {
    const behavior = deployment.streamBehaviors.find((each) => each.pathPattern === path);
    if (!behavior) return false;
    const url = deployment.functionUrls.find((each) =>
      deployment.functions.get(each.functionId)?.description.endsWith(` ${behavior.pathPattern})`),
    );
    if (!url) throw new Error(`The distribution sends ${behavior.pathPattern} to a function URL the assembly does not have`);
    serveUrl(url, req, res, behavior.headers);
    return true;
  };
  // The ingress (the large uploads' instance), as its own process: the template's bundle and
  // environment file, every AWS endpoint (the template's dual-stack ones too) at the gateway.
  // Started when first needed (a large upload, or `ingress()`): most of the e2e suite's files never
  // send one, and each would otherwise pay for a process it does not use.
  let ingressStart: Promise<IngressProcess> | undefined;
  const ingressProcess = (): Promise<IngressProcess> | undefined => {
    if (!deployment.ingress || !ingressKey) return undefined;
    ingressStart ??= startIngressProcess({
      ingress: deployment.ingress,
      overrides: {
        AWS_REGION: region,
        AWS_DEFAULT_REGION: region,
        AWS_ACCESS_KEY_ID: ingressKey,
        AWS_SECRET_ACCESS_KEY: 'local',
        AWS_SESSION_TOKEN: 'local',
        NODE_ENV: 'production',
        TZ: 'UTC',
        ...localEndpoints,
        AWS_ENDPOINT_URL_CLOUDWATCH_LOGS: awsEndpoint,
        ...(options.logLevel ? { LOG_LEVEL: options.logLevel } : {}),
      },
      onExit: (message) => options.onFailure?.(deployment.ingress?.id ?? 'ingress', message),
    });
    return ingressStart;
  };

  // The behaviors with a viewer-request CloudFront Function before the API or the ingress (the
  // upload routes: infra/web-app.ts): the function runs first, then the request goes to the origin
  // it chose (or the behavior's); the API's is the API Gateway below, the ingress's is piped.
  const viewerRequests = new Map(
    deployment.edgeBehaviors.map((behavior) => [
      behavior.pathPattern,
      { behavior, run: compileViewerRequest(behavior.viewerRequest.code, behavior.viewerRequest.name) },
    ]),
  );
  const functionEdge = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    const pattern = deployment.behaviorPatterns.find((each) => matchesPattern(each, path));
    const edge = pattern === undefined ? undefined : viewerRequests.get(pattern);
    if (!edge) return false;
    let decision: Awaited<ReturnType<typeof edge.run>>;
    try {
      decision = await edge.run(toCfRequest(req), req.socket.remoteAddress ?? '127.0.0.1');
    } catch (error) {
      options.onFailure?.(edge.behavior.viewerRequest.name, error instanceof Error ? error.message : String(error));
      edgeError(res, 503, 'The CloudFront function associated with the request failed');
      return true;
    }
    if ('response' in decision) {
      writeCfResponse(res, decision.response);
      return true;
    }
    const originId = decision.origin ?? edge.behavior.originId;
    const origin = deployment.origins.get(originId);
    const headers = { ...headersOf(decision.request), ...origin?.headers };
    if (origin?.kind === 'api') {
      req.url = targetOf(decision.request);
      req.headers = headers;
      return false;
    }
    const starting = origin?.kind === 'ingress' ? ingressProcess() : undefined;
    if (starting) {
      const ingress = await starting.catch((error: unknown) => {
        options.onFailure?.(deployment.ingress?.id ?? 'ingress', error instanceof Error ? error.message : String(error));
        return undefined;
      });
      if (ingress) pipeToOrigin(ingress.url, req, res, targetOf(decision.request), headers);
      else edgeError(res, 502, `Bad Gateway: origin ${originId} is not reachable`);
      return true;
    }
    options.onFailure?.(edge.behavior.viewerRequest.name, `origin ${originId} is not served locally`);
    edgeError(res, 502, `Bad Gateway: origin ${originId} is not reachable`);
    return true;
  };
  const webEdge = options.webDir ? cloudFrontEdge(options.webDir) : undefined;
  const server = createApiGateway({
    deployment,
    pools,
    ...(options.onFailure ? { onFailure: options.onFailure } : {}),
    edge: async (req, res, path) =>
      streamEdge(req, res, path) || (await functionEdge(req, res, path)) || (webEdge?.(req, res, path) ?? false),
  });
  // The distribution's behaviors to the WebSocket API (`/api/socket.io/*`): an upgrade there reaches
  // the API's stage, as the behavior's function rewrites the path deployed; any other is no API's.
  server.on('upgrade', (req: IncomingMessage, socket, head: Buffer) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const behavior = deployment.socketBehaviors.find((each) => matchesPattern(each.pathPattern, path));
    const api = behavior && socketApis.get(behavior.apiId);
    if (api) api.api.handleUpgrade(req, socket, head);
    else socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n');
  });
  // Each function URL on its own port, as Lambda gives it its own host: public, without CloudFront's header.
  const urlServers = new Map(
    await Promise.all(
      deployment.functionUrls.map(async (url) => {
        const urlServer = createServer((req, res) => serveUrl(url, req, res, {}));
        return [url.functionId, { server: urlServer, url: `http://127.0.0.1:${await listen(urlServer)}` }] as const;
      }),
    ),
  );

  // The bucket's notifications: an asynchronous invocation per object created under the prefix.
  // s3rver is a Koa application, so an event emitter; its typings leave that out.
  (s3 as S3rver & NodeJS.EventEmitter).on(
    'event',
    (event: { Records?: { eventName: string; s3: { bucket: { name: string }; object: { key: string; size?: number } } }[] }) => {
      for (const record of event.Records ?? []) {
        if (!record.eventName.startsWith('ObjectCreated')) continue;
        for (const target of deployment.notifications.filter((n) => record.s3.object.key.startsWith(n.prefix))) {
          const key = encodeURIComponent(record.s3.object.key).replace(/%2F/g, '/');
          invokeAsync(target.functionId, {
            Records: [
              {
                eventSource: 'aws:s3',
                eventName: record.eventName,
                awsRegion: region,
                s3: { bucket: { name: localBucketName }, object: { key, size: record.s3.object.size ?? 0 } },
              },
            ],
          });
        }
      }
    },
  );
  // The schedules (the nightly tasks): EventBridge's scheduled event, once at start and every rate.
  const tick = (time = new Date()): void => {
    for (const schedule of deployment.schedules)
      invokeAsync(schedule.functionId, {
        version: '0',
        'detail-type': 'Scheduled Event',
        source: 'aws.events',
        account,
        time: time.toISOString(),
        region,
        resources: [],
        detail: {},
      });
  };
  const timers = options.schedules ? deployment.schedules.map((schedule) => setInterval(() => tick(), schedule.rateMs).unref()) : [];
  if (options.schedules) tick();
  return {
    server,
    deployment,
    awsEndpoint,
    tick,
    putEvent: (event) => {
      const full = { version: '0', id: randomUUID(), account, time: new Date().toISOString(), region, resources: [], ...event };
      const rules = deployment.eventRules.filter((rule) => matchesEventPattern(rule.pattern, full));
      for (const rule of rules) invokeAsync(rule.functionId, full);
      return rules.length;
    },
    idle: async () => {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    accessKeyOf: (functionId) => [...callers].find(([, fn]) => fn.id === functionId)?.[0],
    functionUrls: new Map([...urlServers].map(([functionId, { url }]) => [functionId, url])),
    ingress: async () => {
      const ingress = await ingressProcess();
      return ingress ? { pid: ingress.pid, url: ingress.url } : undefined;
    },
    heapUsed: async (functionId) => (await pools.get(functionId)?.heapUsed()) ?? [],
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      // The ingress first: uploads it still holds are cut, as a stopped instance cuts them.
      await (await ingressStart?.catch(() => undefined))?.close();
      await Promise.all([...socketApis.values()].map(({ api }) => api.close()));
      while (pending.size > 0) await Promise.all([...pending]);
      await Promise.all([...pools.values()].map((pool) => pool.close()));
      await Promise.all([
        closeServer(server),
        closeServer(aws),
        s3.close(),
        ...[...urlServers.values()].map((each) => closeServer(each.server)),
      ]);
    },
  };
};
