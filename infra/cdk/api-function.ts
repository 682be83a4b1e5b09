import { Duration, RemovalPolicy, Size } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import {
  bodyLimitBytes,
  defaultMemoryMb,
  deployedUploadLimitMb,
  functionName,
  functionTimeoutSeconds,
  mlMemoryMb,
  type Route,
  readsModels,
  runsModels,
} from '../routes.ts';
import { mlEnvironment } from './machine-learning.ts';
import { routeCode } from './route-bundles.ts';

export interface ApiFunctionProps {
  route: Route;
  table: ITableV2;
  originals: IBucket;
  /** The shared-link secret, for routes with `secrets` (its ARN only: the value is read at run time). */
  linkSecret: ISecret;
  /** The media function's ARN, for routes with `mediaJobs`. */
  mediaFunctionArn: string;
  /** The transcode function's ARN, for routes with `transcodeJobs` (none when the stack leaves transcoding out). */
  transcodeFunctionArn?: string | undefined;
  /** The realtime socket's management API (`REALTIME_ENDPOINT`), for routes with `realtime`. */
  realtimeEndpoint: string;
  /** The role of the route's access class (infra/cdk/function-roles.ts). */
  role: IRole;
  /** The function's log group is `<logGroupPrefix><logName>`, where its role may write. */
  logGroupPrefix: string;
  /** Its name under the prefix: the kebab operation id unless given (infra/cdk/route-stack.ts `logNameOf`). */
  logName?: string;
  /** Reserved concurrency of the public password-hashing routes, when the deployer sets one. */
  hashingConcurrency?: number;
  /** Active X-Ray tracing (`-c tracing=true`). */
  tracing?: boolean;
  /** A web build's `index.html`, copied beside the bundle (the share page's template, `WEB_INDEX`). */
  webIndex?: string;
  /** A streaming route's check that a request came through CloudFront (`ORIGIN_VERIFY`). */
  originVerify?: string;
  /** The product keys' public keys (`-c licensePublicKeyServer=… -c licensePublicKeyClient=…`), for routes with `licenseKeys`. */
  licensePublicKeys?: { server?: string; client?: string };
  /**
   * The generation of the web app deployed (`WEB_GENERATION`), for the paths both generations
   * share: a browser's request there is answered in its shapes (shared/http/generation.ts).
   */
  webGeneration?: 'v1' | 'v3';
  /** The Immich ML service's auth header secret (`-c mlAuthSecretArn`), for routes that run models. */
  mlAuthSecretArn?: string | undefined;
}

/**
 * A route's environment, from its row: what its function gets, and what the ingress gets for the
 * upload routes it receives large bodies for (infra/cdk/ingress.ts), so the two never differ.
 */
export const routeEnvironment = (
  route: Route,
  {
    table,
    originals,
    linkSecret,
    mediaFunctionArn,
    transcodeFunctionArn,
    realtimeEndpoint,
    webIndex,
    originVerify,
    licensePublicKeys,
    webGeneration,
    mlAuthSecretArn,
  }: Pick<
    ApiFunctionProps,
    | 'table'
    | 'originals'
    | 'linkSecret'
    | 'mediaFunctionArn'
    | 'transcodeFunctionArn'
    | 'realtimeEndpoint'
    | 'webIndex'
    | 'originVerify'
    | 'licensePublicKeys'
    | 'webGeneration'
    | 'mlAuthSecretArn'
  >,
): Record<string, string> => ({
  ...(route.data === 'none' ? {} : { TABLE_NAME: table.tableName }),
  // The route's body limit, checked before parsing and authentication (the upload route
  // checks its multipart body against MAX_UPLOAD_MB as it reads it).
  ...(route.body === 'upload' ? {} : { MAX_BODY_BYTES: String(bodyLimitBytes(route, deployedUploadLimitMb)) }),
  ...(route.store ? { ORIGINALS_BUCKET: originals.bucketName, MAX_UPLOAD_MB: String(deployedUploadLimitMb) } : {}),
  // Only the ARN: the value is read from Secrets Manager at run time (shared/storage/link-secret.ts),
  // so it is not in the function's configuration for anyone allowed to read that.
  ...(route.secrets ? { SHARED_LINK_SECRET_ARN: linkSecret.secretArn } : {}),
  ...(route.mediaJobs ? { MEDIA_FUNCTION: mediaFunctionArn } : {}),
  ...(route.transcodeJobs && transcodeFunctionArn ? { TRANSCODE_FUNCTION: transcodeFunctionArn } : {}),
  ...(route.realtime ? { REALTIME_ENDPOINT: realtimeEndpoint } : {}),
  // Beside the bundle (the function reads it relative to LAMBDA_TASK_ROOT), copied below.
  ...(webIndex ? { WEB_INDEX: 'index.html' } : {}),
  ...(originVerify ? { ORIGIN_VERIFY: originVerify } : {}),
  ...(route.licenseKeys && licensePublicKeys?.server ? { LICENSE_PUBLIC_KEY_SERVER: licensePublicKeys.server } : {}),
  ...(route.licenseKeys && licensePublicKeys?.client ? { LICENSE_PUBLIC_KEY_CLIENT: licensePublicKeys.client } : {}),
  ...(route.v3 && webGeneration ? { WEB_GENERATION: webGeneration } : {}),
  // A function that runs models: where the deployer's CLIP models are, and the ML service's auth secret (its ARN only).
  ...(runsModels(route) ? mlEnvironment(originals, mlAuthSecretArn) : {}),
  // A function that only checks that a model is there (the features routes): the bucket alone.
  ...(!runsModels(route) && readsModels(route) ? mlEnvironment(originals, undefined) : {}),
});

/**
 * One Lambda function for one route, with every house default in one place: Node 24 on arm64,
 * ESM bundle (AWS SDK included, so its version is ours; every route's built in one esbuild run:
 * infra/cdk/route-bundles.ts), its own log group with a retention, and the role of its access
 * class (exactly the table, bucket and secret access its route row declares).
 */
export class ApiFunction extends LambdaFunction {
  constructor(
    scope: Construct,
    id: string,
    {
      route,
      table,
      originals,
      linkSecret,
      mediaFunctionArn,
      transcodeFunctionArn,
      realtimeEndpoint,
      role,
      logGroupPrefix,
      logName,
      hashingConcurrency,
      tracing,
      webIndex,
      originVerify,
      licensePublicKeys,
      webGeneration,
      mlAuthSecretArn,
    }: ApiFunctionProps,
  ) {
    const name = functionName(route);
    super(scope, id, {
      // The bundle, with what its row copies beside it: the modules it loads on first use, the
      // management API's client of a route that tells apps of a change, a web build's index.html.
      code: routeCode(scope, route, webIndex),
      handler: 'index.handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      // A function that runs models has room for one (infra/routes.ts `mlMemoryMb`) and for its copy in /tmp
      // (a CLIP text model is about 250 MB; SigLIP2's about 1.1 GB: docs/deployment.md, "Smart search and OCR").
      memorySize: runsModels(route) ? Math.max(route.memory ?? 0, mlMemoryMb) : (route.memory ?? defaultMemoryMb),
      ...(runsModels(route) ? { ephemeralStorageSize: Size.gibibytes(2) } : {}),
      // API Gateway waits 30 s for an answer; a streamed one (a first sync of a large library) may take minutes.
      timeout: Duration.seconds(functionTimeoutSeconds(route)),
      role,
      // X-Ray, when asked: each invocation's init and duration in a trace (docs/deployment.md, "cdk-nag").
      tracing: tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      ...(route.publicHashing && hashingConcurrency ? { reservedConcurrentExecutions: hashingConcurrency } : {}),
      // `Immich API pingServer (GET /api/server-info/ping)`; a v3 operation `Immich API v3:pingServer (…)`.
      description: `Immich API ${route.generation ? `${route.generation}:` : ''}${route.operationId} (${route.method} ${route.path})`,
      environment: routeEnvironment(route, {
        table,
        originals,
        linkSecret,
        mediaFunctionArn,
        transcodeFunctionArn,
        realtimeEndpoint,
        ...(webIndex ? { webIndex } : {}),
        ...(originVerify ? { originVerify } : {}),
        ...(licensePublicKeys ? { licensePublicKeys } : {}),
        ...(webGeneration ? { webGeneration } : {}),
        ...(mlAuthSecretArn ? { mlAuthSecretArn } : {}),
      }),
      logGroup: new LogGroup(scope, `${id}Logs`, {
        logGroupName: `${logGroupPrefix}${logName ?? name}`,
        retention: RetentionDays.ONE_MONTH,
        // Logs are operational, not the library: they go with the stack.
        removalPolicy: RemovalPolicy.DESTROY,
      }),
    });
    this.node.addMetadata('route', `${route.method} ${route.path} (${name})`);
  }
}
