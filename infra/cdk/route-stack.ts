import { NestedStack, Validations } from 'aws-cdk-lib';
import { type HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { type FunctionUrl, FunctionUrlAuthType, InvokeMode } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { functionName, type Route, webRoutes } from '../routes.ts';
import { ApiFunction } from './api-function.ts';
import { readsOAuthSettings } from './cognito.ts';
import type { FunctionRoles } from './function-roles.ts';

const pascal = (name: string): string => name.replace(/(^|[-_.])(\w)/g, (_m, _sep, c: string) => c.toUpperCase());

/**
 * Streaming routes kept out of their path's area. A streaming route's nested stack is an origin of
 * the distribution, so it cannot wait for a role that reads originals (the bucket's CORS rule names
 * the distribution: a cycle); v1.100's map markers sit under `/api/asset`, whose file routes read
 * originals, so they are in the `map` area with v3's (docs/deployment.md, "The sync stream").
 */
const streamAreas: Record<string, string> = { '/api/asset/map-marker': 'map' };

/**
 * The area of the API a route belongs to: Immich's controller, the first segment of its path
 * (`/api/asset/...` → `asset`); `/.well-known/immich` and the `$default` fallback belong to `server`.
 * A route never changes area, so adding routes never moves a function between stacks (but for
 * `streamAreas`, above, fixed once).
 */
export const areaOf = (route: Pick<Route, 'path'>): string => {
  const moved = streamAreas[route.path];
  if (moved) return moved;
  const match = /^\/api\/([\w-]+)/.exec(route.path);
  return match?.[1] ?? 'server';
};

/**
 * A function's log group under the stack's prefix: its name (`get-map-markers`), or for a route of
 * `streamAreas` its area and name (`map/get-map-markers`). A moved function is created in its new
 * nested stack before the old one is deleted, and the two must not ask for one log group name
 * (docs/deployment.md, "The sync stream").
 */
export const logNameOf = (route: Pick<Route, 'path' | 'operationId' | 'generation'>): string =>
  streamAreas[route.path] ? `${streamAreas[route.path]}/${functionName(route)}` : functionName(route);

/** The nested stack's construct id for an area: `asset` → `AssetRoutes`. */
export const areaStackId = (area: string): string => `${pascal(area)}Routes`;

export interface RouteStackProps {
  routes: readonly Route[];
  api: HttpApi;
  table: ITableV2;
  originals: IBucket;
  linkSecret: ISecret;
  mediaFunctionArn: string;
  /** The transcode function's ARN, for the routes that queue video conversion (none with `-c transcoding=off`). */
  transcodeFunctionArn?: string | undefined;
  /** The realtime socket's management API, for the routes that tell apps of a change. */
  realtimeEndpoint: string;
  roles: FunctionRoles;
  logGroupPrefix: string;
  hashingConcurrency?: number;
  tracing: boolean;
  /** The web build's `index.html`, given to the web routes (`webRoutes`) with their bundles. */
  webIndex?: string | undefined;
  /** What CloudFront sends a streaming route's function URL in `x-origin-verify`, so only it reaches the function. */
  originVerify: string;
  licensePublicKeys?: { server?: string; client?: string };
  /** The generation of the web app deployed, for the paths both generations share (infra/cdk/api-function.ts). */
  webGeneration: 'v1' | 'v3';
  /** The deploy-time OAuth settings' secret (`-c oauth=cognito`), for the routes that read them (`OAUTH_SECRET_ARN`). */
  oauthSecretArn?: string;
  /** The Immich ML service's auth header secret (`-c mlAuthSecretArn`), for the routes that run models. */
  mlAuthSecretArn?: string | undefined;
}

/** A streaming route's function URL, for the distribution (infra/cdk/web-distribution.ts). */
export interface StreamOrigin {
  path: string;
  url: FunctionUrl;
}

/**
 * One area's functions, integrations and routes, as a nested stack: each route costs five
 * resources (function, log group, integration, route, invoke permission), and CloudFormation
 * allows 500 per stack, so one stack per area keeps every stack far from the limit however many
 * of Immich's operations are added (docs/deployment.md, "Stack layout"). The API, table, bucket,
 * secret and roles stay in the main stack; CDK passes their references in as parameters.
 */
export class RouteStack extends NestedStack {
  /** The area's streaming routes, each served by its function URL through CloudFront. */
  readonly streams: StreamOrigin[] = [];

  constructor(scope: Construct, id: string, props: RouteStackProps) {
    super(scope, id, { description: `Immich API routes: ${id}` });
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Authorization is Immich’s own: session tokens, API keys and shared-link keys in headers, cookies or the query, checked by each function against the table (an API Gateway authorizer could not, without a second lookup); the public routes (ping, login, sign-up) are public in Immich too',
    });
    if (!props.tracing) {
      Validations.of(this).acknowledge({
        id: 'Serverless-LambdaTracing',
        reason:
          'Opt-in (-c tracing=true): X-Ray samples the first request of every second, which at a personal server’s rate is nearly every request, about $1 a month beyond the free tier for 10,000 requests a day; the request log and metrics cover the rest',
      });
    }
    Validations.of(this).acknowledge({
      id: 'Serverless-LambdaDLQ',
      reason:
        'API Gateway invokes these functions synchronously and gets every error back; a dead-letter queue only receives failed asynchronous invocations',
    });
    // A function's log group is `<id>Logs` (infra/cdk/api-function.ts): a route whose own id is one
    // (v3's getWorkflowLogs beside getWorkflow) takes `<id>Function` instead.
    const logGroupIds = new Set(props.routes.map((route) => `${pascal(functionName(route))}Logs`));
    for (const route of props.routes) {
      const base = pascal(functionName(route));
      const id = logGroupIds.has(base) ? `${base}Function` : base;
      const fn = new ApiFunction(this, id, {
        route,
        table: props.table,
        originals: props.originals,
        linkSecret: props.linkSecret,
        mediaFunctionArn: props.mediaFunctionArn,
        transcodeFunctionArn: props.transcodeFunctionArn,
        realtimeEndpoint: props.realtimeEndpoint,
        role: props.roles.roleFor(route),
        logGroupPrefix: props.logGroupPrefix,
        logName: logNameOf(route),
        ...(props.hashingConcurrency ? { hashingConcurrency: props.hashingConcurrency } : {}),
        tracing: props.tracing,
        ...(props.webIndex && webRoutes.includes(route) ? { webIndex: props.webIndex } : {}),
        ...(route.stream ? { originVerify: props.originVerify } : {}),
        ...(route.licenseKeys && props.licensePublicKeys ? { licensePublicKeys: props.licensePublicKeys } : {}),
        webGeneration: props.webGeneration,
        ...(props.mlAuthSecretArn ? { mlAuthSecretArn: props.mlAuthSecretArn } : {}),
      });
      // Only the ARN: the value is read at the cold start (docs/deployment.md, "Sign in with Cognito").
      if (props.oauthSecretArn && readsOAuthSettings(route)) fn.addEnvironment('OAUTH_SECRET_ARN', props.oauthSecretArn);
      if (route.stream) {
        // API Gateway buffers an answer (6 MB at most): a streamed one goes out through a function URL in
        // RESPONSE_STREAM mode, behind the distribution (docs/deployment.md, "The sync stream").
        const url = fn.addFunctionUrl({ authType: FunctionUrlAuthType.NONE, invokeMode: InvokeMode.RESPONSE_STREAM });
        this.streams.push({ path: route.path, url });
        continue;
      }
      const integration = new HttpLambdaIntegration(`${id}Integration`, fn);
      const keys =
        route.path === '$default'
          ? [HttpRouteKey.with('/{proxy+}', HttpMethod.ANY), HttpRouteKey.with('/', HttpMethod.ANY)]
          : [
              HttpRouteKey.with(route.path, HttpMethod[route.method]),
              ...(route.head ? [HttpRouteKey.with(route.path, HttpMethod.HEAD)] : []),
            ];
      keys.forEach((routeKey, index) => {
        new HttpRoute(this, `${id}Route${index === 0 ? '' : index + 1}`, { httpApi: props.api, routeKey, integration });
      });
    }
  }
}
