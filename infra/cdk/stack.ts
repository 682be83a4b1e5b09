import { resolve } from 'node:path';
import { Aws, CfnOutput, Duration, Fn, Lazy, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { type CfnStage, HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { AttributeType, Billing, type ITableV2, ProjectionType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, type IBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { metricsNamespace } from '#shared/core/log.ts';
import { table as tableDefinition } from '#shared/db/table.ts';
import { type Route, routes, webRoutes } from '../routes.ts';
import { isV3WebBuild } from '../web-app.ts';
import { CognitoProvider, oauthMode } from './cognito.ts';
import { DeploymentMark } from './deployment-mark.ts';
import { FunctionRoles } from './function-roles.ts';
import { Ingress, largeUploadsMode } from './ingress.ts';
import { mlAuthSecretArn } from './machine-learning.ts';
import { MediaFunction } from './media-function.ts';
import { NightlyFunction } from './nightly-function.ts';
import { Realtime, realtimeStage } from './realtime.ts';
import { areaOf, areaStackId, RouteStack, type StreamOrigin } from './route-stack.ts';
import { TranscodeFunction, transcodingEnabled } from './transcode-function.ts';
import { WebDistribution } from './web-distribution.ts';

/**
 * The whole deployment: one table, one originals bucket, one HTTP API, and one function per row of
 * the route table, in a nested stack per area of the API.
 */
export class ImmichStack extends Stack {
  readonly table: ITableV2;
  readonly originals: IBucket;
  readonly api: HttpApi;

  /**
   * The Region's first zone as CloudFormation names it at deploy time (`Fn::GetAZs`), never looked
   * up: with an account and Region known, CDK would ask EC2 for the zones during synth (and write
   * cdk.context.json), and synth must stay offline. The ingress's VPC is the one reader.
   */
  override get availabilityZones(): string[] {
    return [Fn.select(0, Fn.getAzs())];
  }

  constructor(scope: Construct, id: string, props: StackProps & { routes?: readonly Route[]; webDir?: string | undefined } = {}) {
    super(scope, id, props);

    // Deploying again onto a library kept by an earlier `npm run destroy`: the retained table,
    // bucket and secret are imported by name instead of created (docs/deployment.md, "After deploying").
    const existing = {
      table: this.node.tryGetContext('existingTableName') as string | undefined,
      bucket: this.node.tryGetContext('existingBucketName') as string | undefined,
      secret: this.node.tryGetContext('existingLinkSecretArn') as string | undefined,
    };

    this.table = existing.table
      ? TableV2.fromTableName(this, 'Table', existing.table)
      : new TableV2(this, 'Table', {
          partitionKey: { name: tableDefinition.partitionKey, type: AttributeType.STRING },
          sortKey: { name: tableDefinition.sortKey, type: AttributeType.STRING },
          billing: Billing.onDemand(),
          pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
          timeToLiveAttribute: tableDefinition.ttlAttribute,
          globalSecondaryIndexes: tableDefinition.indexes.map((index) => ({
            indexName: index.name,
            partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
            sortKey: { name: index.sortKey, type: AttributeType.STRING },
            ...('include' in index ? { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.include] } : {}),
          })),
          // RETAIN: deleting the stack must never delete someone's library; and no console click or
          // stray API call can delete the table either.
          removalPolicy: RemovalPolicy.RETAIN,
          deletionProtection: true,
        });

    // The originals: private, encrypted, versioned, and like the table kept when the stack goes.
    this.originals = existing.bucket
      ? Bucket.fromBucketName(this, 'Originals', existing.bucket)
      : new Bucket(this, 'Originals', {
          blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
          encryption: BucketEncryption.S3_MANAGED,
          enforceSSL: true,
          versioned: true,
          objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
          removalPolicy: RemovalPolicy.RETAIN,
          // A photo deleted for good leaves a noncurrent version behind a delete marker: versioning
          // keeps it one day (an accident can still be undone), then it goes, and is no longer billed.
          lifecycleRules: [
            {
              id: 'expire-deleted-originals',
              noncurrentVersionExpiration: Duration.days(1),
              abortIncompleteMultipartUploadAfter: Duration.days(1),
            },
            { id: 'remove-expired-delete-markers', expiredObjectDeleteMarker: true },
            // Archives made for POST /download/archive are fetched once, through a short-lived URL.
            { id: 'expire-download-archives', prefix: 'downloads/', expiration: Duration.days(1) },
          ],
        });

    Validations.of(this.originals).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'The bucket is private and reached only by the functions, each request of which is in the API access log and the function log (route, caller, status); S3 server access logs would need a second bucket and log every request again',
    });

    // Shared-link keys are derived from this secret (shared/core/crypto.ts): it must outlive the
    // stack like the table that holds the keys' hashes, or existing links stop matching their keys.
    const linkSecret = existing.secret
      ? Secret.fromSecretCompleteArn(this, 'SharedLinkSecret', existing.secret)
      : new Secret(this, 'SharedLinkSecret', {
          description: 'Derives shared-link keys (HMAC); replacing it breaks every existing link',
          generateSecretString: { passwordLength: 64, excludePunctuation: true },
          removalPolicy: RemovalPolicy.RETAIN,
        });
    Validations.of(linkSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Not rotated on purpose: every shared link’s key is derived from this secret, so rotating it would break every link ever shared',
    });

    this.api = new HttpApi(this, 'Api', { description: 'Immich v1.100-compatible media library API' });

    // A personal server: a flood (or a runaway client) is refused by API Gateway before it can
    // run up the bill. Rate and burst are context values (`cdk deploy -c throttleRate=100`).
    const stage = this.api.defaultStage?.node.defaultChild as CfnStage | undefined;
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    if (stage) {
      stage.defaultRouteSettings = {
        throttlingRateLimit: Number(this.node.tryGetContext('throttleRate') ?? 50),
        throttlingBurstLimit: Number(this.node.tryGetContext('throttleBurst') ?? 100),
      };
      // One line per request: no headers, no query string, no body (so no credential) is logged.
      stage.accessLogSettings = {
        destinationArn: accessLogs.logGroupArn,
        format: JSON.stringify({
          requestId: '$context.requestId',
          time: '$context.requestTime',
          route: '$context.routeKey',
          status: '$context.status',
          latencyMs: '$context.responseLatency',
          integrationLatencyMs: '$context.integrationLatency',
          bytes: '$context.responseLength',
          sourceIp: '$context.identity.sourceIp',
          error: '$context.integrationErrorMessage',
        }),
      };
    }

    // Opt-in: a new AWS account may run only 10 functions at once, and reserving any concurrency
    // there fails the deploy. Where the account allows it, `-c hashingConcurrency=5` caps the
    // password-hashing routes open to guessing (sign-in, shared-link passwords, PIN codes) so a
    // flood of attempts cannot run up the bill or run many guesses at once.
    const hashingConcurrency = Number(this.node.tryGetContext('hashingConcurrency') ?? 0) || undefined;
    // X-Ray tracing of every function, opt-in (`-c tracing=true`; docs/deployment.md, "cdk-nag").
    const tracing = String(this.node.tryGetContext('tracing') ?? 'false') === 'true';
    // Routes in one nested stack per area, on shared roles per access class: room for every one
    // of Immich's operations (docs/deployment.md, "Stack layout").
    const logGroupPrefix = `/immich/${this.stackName}/`;
    // Previews of every uploaded original, made in the background (infra/cdk/media-function.ts).
    // The Immich ML service's auth header secret, when the deployer gave one (docs/deployment.md, "Smart search and OCR").
    const mlAuth = mlAuthSecretArn(this);
    const media = new MediaFunction(this, 'Media', {
      table: this.table,
      originals: this.originals,
      logGroupPrefix,
      tracing,
      mlAuthSecretArn: mlAuth,
    });
    // Videos encoded as Immich's ffmpeg settings say, long ones through MediaConvert
    // (infra/cdk/transcode-function.ts); `-c transcoding=off` leaves it out and videos play as their originals.
    const transcode = transcodingEnabled(this)
      ? new TranscodeFunction(this, 'Transcode', { table: this.table, originals: this.originals, logGroupPrefix, tracing })
      : undefined;
    // The media function queues a video's conversion once its poster is made (and a motion photo's video part's).
    if (transcode) {
      media.fn.addEnvironment('TRANSCODE_FUNCTION', transcode.fn.functionArn);
      media.role.addToPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [transcode.fn.functionArn] }));
    }
    // Immich's nightly tasks (memories), on an hourly schedule (infra/cdk/nightly-function.ts).
    const nightly = new NightlyFunction(this, 'Nightly', { table: this.table, originals: this.originals, logGroupPrefix, tracing });
    // Immich's realtime socket: an API Gateway WebSocket API (infra/cdk/realtime.ts), answered in
    // the shapes of the web app deployed (docs/immich-compatibility.md, "Realtime").
    const webGeneration = props.webDir && isV3WebBuild(props.webDir) ? 'v3' : 'v1';
    const realtime = new Realtime(this, 'Realtime', { table: this.table, logGroupPrefix, tracing, webGeneration });
    // The media function tells an owner's apps of their previews, edits and people's thumbnails.
    media.fn.addEnvironment('REALTIME_ENDPOINT', realtime.endpoint);
    realtime.grantPost(media.role);
    // The nightly clean-ups tell them of the trash's expired photos (`on_asset_delete`) and of a
    // user removed for good (`on_user_delete`), as Immich's deletion jobs do.
    nightly.fn.addEnvironment('REALTIME_ENDPOINT', realtime.endpoint);
    realtime.grantPost(nightly.role);
    // The stack's own OAuth provider, when asked (`-c oauth=cognito`; infra/cdk/cognito.ts): its
    // callback URLs name the distribution, made below, hence the lazy origin.
    let webUrl: string | undefined;
    const cognito =
      oauthMode(this) === 'cognito'
        ? new CognitoProvider(this, 'OAuth', {
            webUrl: Lazy.string({
              produce: () => {
                if (!webUrl) throw new Error('The distribution is made before synthesis');
                return webUrl;
              },
            }),
          })
        : undefined;
    const roles = new FunctionRoles(this, 'FunctionRoles', {
      table: this.table,
      originals: this.originals,
      linkSecret,
      mediaFunction: media.fn,
      transcodeFunction: transcode?.fn,
      realtime,
      logGroupPrefix,
      tracing,
      ...(cognito ? { oauthSecret: cognito.secret } : {}),
      mlAuthSecretArn: mlAuth,
    });
    // The stack's own id (a UUID no one outside the account knows): CloudFront sends it to the
    // streaming routes' function URLs, which answer nothing without it (docs/deployment.md).
    const originVerify = Fn.select(2, Fn.split('/', Aws.STACK_ID));
    // Product keys verify only under the public keys the deployer gives (docs/immich-compatibility.md, "Product keys").
    const licensePublicKeys = {
      ...(this.node.tryGetContext('licensePublicKeyServer') ? { server: String(this.node.tryGetContext('licensePublicKeyServer')) } : {}),
      ...(this.node.tryGetContext('licensePublicKeyClient') ? { client: String(this.node.tryGetContext('licensePublicKeyClient')) } : {}),
    };
    const streams: StreamOrigin[] = [];
    const routeStacks: RouteStack[] = [];
    const areas = new Map<string, Route[]>();
    for (const route of props.routes ?? [...routes, ...(props.webDir ? webRoutes : [])])
      areas.set(areaOf(route), [...(areas.get(areaOf(route)) ?? []), route]);
    for (const [area, rows] of areas) {
      const nested = new RouteStack(this, areaStackId(area), {
        routes: rows,
        api: this.api,
        table: this.table,
        originals: this.originals,
        linkSecret,
        mediaFunctionArn: media.fn.functionArn,
        transcodeFunctionArn: transcode?.fn.functionArn,
        realtimeEndpoint: realtime.endpoint,
        roles,
        logGroupPrefix,
        ...(hashingConcurrency ? { hashingConcurrency } : {}),
        tracing,
        ...(props.webDir ? { webIndex: resolve(props.webDir, 'index.html') } : {}),
        originVerify,
        webGeneration,
        licensePublicKeys,
        ...(cognito ? { oauthSecretArn: cognito.secret.secretArn } : {}),
        mlAuthSecretArn: mlAuth,
      });
      routeStacks.push(nested);
      streams.push(...nested.streams);
      // The roles' policies exist before any function can run with them: each role the area's routes
      // use, with its policy (not every role: the streaming routes' stack is a distribution origin,
      // and a role reading originals names the bucket, whose CORS rule names the distribution).
      for (const role of new Set(rows.map((route) => roles.roleFor(route)))) nested.node.addDependency(role);
    }

    // Alarms: API 5xx, answered 500s (the functions' own metric: a handled error still counts),
    // and throttled Lambda invocations. With `-c alarmEmail=you@example.com` they also send mail.
    const alarms = new Topic(this, 'Alarms', { displayName: 'Immich serverless alarms', enforceSSL: true });
    const email = this.node.tryGetContext('alarmEmail');
    if (typeof email === 'string' && email) alarms.addSubscription(new EmailSubscription(email));
    const watch = (id: string, metric: Metric, description: string): void => {
      const alarm = new Alarm(this, id, {
        metric,
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      });
      alarm.addAlarmAction(new SnsAction(alarms));
    };
    const fiveMinutes = { period: Duration.minutes(5), statistic: 'Sum' };
    watch('ApiServerErrors', this.api.metricServerError(fiveMinutes), 'The API answered 5xx (including API Gateway errors and timeouts)');
    watch(
      'FunctionServerErrors',
      new Metric({ namespace: metricsNamespace, metricName: 'serverErrors', ...fiveMinutes }),
      'A function answered 500',
    );
    watch(
      'FunctionThrottles',
      new Metric({ namespace: 'AWS/Lambda', metricName: 'Throttles', ...fiveMinutes }),
      'Lambda throttled invocations',
    );
    watch(
      'MediaDeadLetters',
      media.deadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      'An upload’s previews failed three times; the event waits in the dead-letter queue',
    );
    if (transcode)
      watch(
        'TranscodeDeadLetters',
        transcode.deadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
        'A video’s conversion failed three times (or MediaConvert’s end of it could not be delivered); the event waits in the dead-letter queue',
      );
    watch(
      'NightlyDeadLetters',
      nightly.deadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      'The nightly tasks failed three times; the event waits in the dead-letter queue',
    );

    // The stock clients' large uploads, received by an instance behind the distribution
    // (infra/cdk/ingress.ts, docs/large-uploads.md); `-c largeUploads=off` leaves it out.
    const largeUploads = largeUploadsMode(this);
    const ingress =
      largeUploads === 'off'
        ? undefined
        : new Ingress(this, 'Ingress', {
            table: this.table,
            originals: this.originals,
            linkSecret,
            mediaFunction: media.fn,
            roles,
            logGroupPrefix,
            originVerify,
            alarms,
            market: largeUploads,
            availabilityZone: this.node.tryGetContext('ingressAvailabilityZone') as string | undefined,
          });

    // Immich's web app and the API on one origin, behind CloudFront (docs/web-app.md).
    const web = new WebDistribution(this, 'Web', {
      ingress: ingress?.instance,
      api: this.api,
      realtime: { api: realtime.api, stage: realtimeStage },
      streams,
      originVerify,
      webDir: props.webDir,
      domainName: this.node.tryGetContext('domainName') as string | undefined,
      certificateArn: this.node.tryGetContext('certificateArn') as string | undefined,
    });
    webUrl = web.url;
    // The web app's photo viewer and downloads fetch originals with XHR, which follows the API's
    // redirect to a presigned URL of this bucket: S3 must let the app's origin read the answer.
    // (A retained bucket given by context keeps its own CORS rules: docs/web-app.md.)
    // With the ingress, the rule cannot name the distribution's own domain: the distribution
    // reaches the ingress's instance, whose environment names this bucket, so CloudFormation
    // would find a cycle. It names CloudFront's domains instead (or the custom domain, which is
    // known before the deploy). A presigned URL is a bearer token the API gives only its owner, so
    // which page may read its answer in a browser guards nothing that knowing the URL does not.
    if (this.originals instanceof Bucket) {
      const domainName = this.node.tryGetContext('domainName') as string | undefined;
      this.originals.addCorsRule({
        allowedMethods: [HttpMethods.GET, HttpMethods.HEAD],
        allowedOrigins: [ingress ? (domainName ? `https://${domainName}` : 'https://*.cloudfront.net') : web.url],
        allowedHeaders: ['*'],
        exposedHeaders: ['content-length', 'content-range', 'content-type', 'content-disposition', 'etag', 'accept-ranges'],
        maxAge: 3600,
      });
    }
    // Once the deploy has put every function's new code in place, their generation, which a sync
    // learns album sync markers under (infra/cdk/deployment-mark.ts).
    new DeploymentMark(this, 'DeploymentMark', {
      table: this.table,
      after: [...routeStacks, media, nightly, realtime, ...(transcode ? [transcode] : []), ...(ingress ? [ingress] : [])],
    });
    new CfnOutput(this, 'ApiUrl', { value: `${web.url}/api`, description: 'Point Immich clients here (or at WebUrl)' });
    new CfnOutput(this, 'DirectApiUrl', { value: `${this.api.apiEndpoint}/api`, description: 'The HTTP API itself, without CloudFront' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'OriginalsBucket', { value: this.originals.bucketName });
  }
}
