import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Duration, RemovalPolicy, Size, Stack, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import { Construct } from 'constructs';
import { eventFunctions } from '../routes.ts';
import { lambdaBinaryPath } from '../tools/lambda-binaries.ts';
import { copyBeside, lambdaBundling, mediaConvertClientFiles } from './bundling.ts';
import { acknowledgeEventFunction, deadLetterQueue, eventFunctionRole } from './event-function.ts';

const root = join(import.meta.dirname, '..', '..');

/** The transcode function's row of `eventFunctions` (infra/routes.ts). */
const transcodeEntry = (): string => {
  const spec = eventFunctions.find((fn) => fn.name === 'transcodeVideo');
  if (!spec) throw new Error('No transcodeVideo in eventFunctions');
  return spec.entry;
};

/**
 * The longest video the function encodes itself, in seconds (`-c transcodeLambdaMaxSeconds=N`);
 * longer ones go to MediaConvert. 600 s (ten minutes of video) by default: a little under the
 * bench's crossover for a 4K HDR phone video at 10,240 MB (660 s, modelled from this machine's
 * encode: docs/benchmarks.md, "Video transcoding"), as a Lambda run of it has not been measured.
 */
export const defaultTranscodeLambdaMaxSeconds = 600;

/** `-c transcoding=off` leaves the transcode function, its MediaConvert role and its rule out (videos play as their originals). */
export const transcodingEnabled = (scope: Construct): boolean => String(scope.node.tryGetContext('transcoding') ?? 'on') !== 'off';

export interface TranscodeFunctionProps {
  table: ITableV2;
  originals: IBucket;
  /** Function log groups are named under this prefix (`/immich/<stack>/`). */
  logGroupPrefix: string;
  /** Active X-Ray tracing, as for the API functions (`-c tracing=true`). */
  tracing: boolean;
}

/**
 * The transcode function (functions/media/transcode-video.ts): Immich's video conversion, as
 * Immich decides it from the `ffmpeg` settings (docs/immich-compatibility.md, "Video"). The media
 * function and the job routes invoke it asynchronously with `{ jobs }`; it encodes with ffmpeg in
 * /tmp (the linux-arm64 builds of ffmpeg and ffprobe beside its bundle, in `bin/`) a video up to
 * `TRANSCODE_LAMBDA_MAX_SECONDS` long, and hands a longer one to AWS Elemental MediaConvert (S3 to
 * S3, with a role of its own); MediaConvert's "job state change" comes back to it through an
 * EventBridge rule that matches only this stack's jobs. A failed event is retried twice, then waits
 * in a dead-letter queue, as the media function's.
 */
export class TranscodeFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly role: Role;
  readonly mediaConvertRole: Role;
  readonly deadLetters: Queue;
  readonly completions: Rule;

  constructor(scope: Construct, id: string, { table, originals, logGroupPrefix, tracing }: TranscodeFunctionProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const ffmpeg = lambdaBinaryPath('ffmpeg');
    if (!existsSync(ffmpeg)) throw new Error(`No linux-arm64 ffmpeg at ${ffmpeg}: run \`npm run lambda-binaries\` (npm ci runs it)`);
    const ffprobe = lambdaBinaryPath('ffprobe');
    if (!existsSync(ffprobe)) throw new Error(`No linux-arm64 ffprobe at ${ffprobe}: run \`npm run lambda-binaries\` (npm ci runs it)`);

    // What MediaConvert may do when it runs this stack's jobs: read the originals, write the encoded
    // versions beside the previews; assumed only by MediaConvert, for jobs of this account and Region.
    this.mediaConvertRole = new Role(this, 'MediaConvertRole', {
      assumedBy: new ServicePrincipal('mediaconvert.amazonaws.com').withConditions({
        StringEquals: { 'aws:SourceAccount': stack.account },
        ArnLike: { 'aws:SourceArn': `arn:${stack.partition}:mediaconvert:${stack.region}:${stack.account}:*` },
      }),
      description: 'AWS Elemental MediaConvert: reads Immich originals, writes their encoded versions',
      inlinePolicies: {
        Transcode: new PolicyDocument({
          statements: [
            new PolicyStatement({ actions: ['s3:GetObject'], resources: [originals.arnForObjects('upload/*')] }),
            new PolicyStatement({ actions: ['s3:PutObject'], resources: [originals.arnForObjects('thumbs/*')] }),
          ],
        }),
      },
    });
    for (const [resource, what] of [
      [originals.arnForObjects('upload/*'), 'the originals (read by the jobs it runs)'],
      [originals.arnForObjects('thumbs/*'), 'what is made of the originals (the encoded versions it writes)'],
      [`arn:${stack.partition}:mediaconvert:${stack.region}:${stack.account}:*`, 'MediaConvert’s jobs in this account and Region'],
    ] as const) {
      Validations.of(this.mediaConvertRole).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${flattenCfnReference(stack.resolve(resource))}]`,
        reason: `The wildcard covers only ${what}`,
      });
    }

    // The account's default on-demand queue: CreateJob is authorized on the queue a job goes to.
    const defaultQueue = `arn:${stack.partition}:mediaconvert:${stack.region}:${stack.account}:queues/Default`;
    this.role = eventFunctionRole(this, {
      table,
      logGroupPrefix,
      description: 'Immich transcode function',
      // The asset, the settings and the owner read; the asset's encoded version recorded (or removed).
      tableActions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem'],
      statements: [
        {
          // The originals read (a motion photo's video part is an original too).
          statement: new PolicyStatement({ actions: ['s3:GetObject'], resources: [originals.arnForObjects('upload/*')] }),
          covers: 'the originals, read to be encoded',
        },
        {
          // The encoded versions written, and removed when no longer wanted or when the asset went meanwhile.
          statement: new PolicyStatement({
            actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
            resources: [originals.arnForObjects('thumbs/*')],
          }),
          covers: 'what is made of the originals (the encoded versions beside the previews)',
        },
        { statement: new PolicyStatement({ actions: ['mediaconvert:CreateJob'], resources: [defaultQueue] }) },
        {
          // Only to MediaConvert: the role cannot be handed to any other service.
          statement: new PolicyStatement({
            actions: ['iam:PassRole'],
            resources: [this.mediaConvertRole.roleArn],
            conditions: { StringEquals: { 'iam:PassedToService': 'mediaconvert.amazonaws.com' } },
          }),
        },
      ],
    });
    this.deadLetters = deadLetterQueue(this, 'the transcode function’s');

    const maxSeconds = Number(this.node.tryGetContext('transcodeLambdaMaxSeconds') ?? defaultTranscodeLambdaMaxSeconds);
    if (!Number.isFinite(maxSeconds) || maxSeconds <= 0)
      throw new Error(`-c transcodeLambdaMaxSeconds=${maxSeconds}: a number of seconds above 0`);
    // Opt-in, as hashingConcurrency: a new account may run only 10 functions at once, and reserving any fails its deploy.
    const concurrency = Number(this.node.tryGetContext('transcodeConcurrency') ?? 0) || undefined;

    this.fn = new NodejsFunction(this, 'Function', {
      entry: join(root, transcodeEntry()),
      handler: 'handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      // Lambda's most: six vCPUs, which ffmpeg's decoder and x264's threads use (docs/benchmarks.md).
      memorySize: 10_240,
      timeout: Duration.minutes(15),
      // The original (a 4K phone video is ~375 MB a minute) and its encoded version, side by side in /tmp.
      ephemeralStorageSize: Size.gibibytes(10),
      role: this.role,
      description: 'Immich transcode: videos encoded as Immich’s ffmpeg settings say, long ones through MediaConvert',
      environment: {
        TABLE_NAME: table.tableName,
        ORIGINALS_BUCKET: originals.bucketName,
        MEDIACONVERT_ROLE_ARN: this.mediaConvertRole.roleArn,
        TRANSCODE_LAMBDA_MAX_SECONDS: String(maxSeconds),
        STACK_NAME: stack.stackName,
      },
      ...(concurrency ? { reservedConcurrentExecutions: concurrency } : {}),
      onFailure: new SqsDestination(this.deadLetters),
      retryAttempts: 2,
      tracing: tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      // A library's "all" run may queue many: an event waits up to six hours (Lambda's most) for its turn.
      maxEventAge: Duration.hours(6),
      depsLockFilePath: join(root, 'package-lock.json'),
      projectRoot: root,
      logGroup: new LogGroup(this, 'Logs', {
        logGroupName: `${logGroupPrefix}transcode-video`,
        retention: RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
      bundling: lambdaBundling({
        externalModules: ['@ffmpeg-installer/ffmpeg', '@ffprobe-installer/ffprobe'],
        commandHooks: copyBeside([
          { from: ffmpeg, to: join('bin', 'ffmpeg') },
          { from: ffprobe, to: join('bin', 'ffprobe') },
          // MediaConvert's client, loaded when a long video is submitted (infra/cdk/bundling.ts).
          ...mediaConvertClientFiles(),
        ]),
      }),
    });
    acknowledgeEventFunction(this.fn, this.role, tracing);

    // MediaConvert's end of a job of this stack (its name in the job's user metadata): finished or failed.
    this.completions = new Rule(this, 'MediaConvertJobs', {
      description: 'Immich transcode: this stack’s MediaConvert jobs, finished or failed',
      eventPattern: {
        source: ['aws.mediaconvert'],
        detailType: ['MediaConvert Job State Change'],
        detail: { status: ['COMPLETE', 'ERROR'], userMetadata: { stack: [stack.stackName] } },
      },
      targets: [new LambdaFunction(this.fn, { retryAttempts: 2, maxEventAge: Duration.hours(6), deadLetterQueue: this.deadLetters })],
    });
  }
}
