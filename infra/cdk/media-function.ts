import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Duration, RemovalPolicy, Size, Stack, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { S3EventSourceV2 } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { EventType, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { eventFunctions } from '../routes.ts';
import { lambdaBinaryPath } from '../tools/lambda-binaries.ts';
import { copyBeside, lambdaBundling, lazyModuleFiles, libheifFiles, mediaExternalModules, realtimeClientFiles } from './bundling.ts';
import { acknowledgeEventFunction, deadLetterQueue, eventFunctionRole } from './event-function.ts';
import { grantModels, mlEnvironment } from './machine-learning.ts';

const root = join(import.meta.dirname, '..', '..');

export interface MediaFunctionProps {
  table: ITableV2;
  originals: IBucket;
  /** Function log groups are named under this prefix (`/immich/<stack>/`). */
  logGroupPrefix: string;
  /** Active X-Ray tracing, as for the API functions (`-c tracing=true`). */
  tracing: boolean;
  /** The Immich ML service's auth header secret (`-c mlAuthSecretArn`), which the smart-search and OCR steps send. */
  mlAuthSecretArn?: string | undefined;
}

/**
 * The media function (functions/media/generate-media.ts): the originals bucket invokes it,
 * asynchronously, for every object created under `upload/`; it makes the previews and the
 * thumbhash. Lambda retries a failed event twice, then the event goes to a dead-letter queue
 * (kept 14 days) instead of being lost. Its codecs ship as files beside the bundle: wasm-vips
 * (WebAssembly, the same build as on any other machine) and ffmpeg's linux-arm64 build for video
 * posters, both from node_modules, with nothing to fetch at synth.
 */
export class MediaFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly role: Role;
  readonly deadLetters: Queue;

  constructor(scope: Construct, id: string, { table, originals, logGroupPrefix, tracing, mlAuthSecretArn }: MediaFunctionProps) {
    super(scope, id);
    const ffmpeg = lambdaBinaryPath('ffmpeg');
    if (!existsSync(ffmpeg)) throw new Error(`No linux-arm64 ffmpeg at ${ffmpeg}: run \`npm run lambda-binaries\` (npm ci runs it)`);
    for (const { from } of lazyModuleFiles(['places']))
      if (!existsSync(from)) throw new Error(`No places index at ${from}: run \`npm run places-index\` (npm ci runs it)`);
    for (const { from } of lazyModuleFiles(['faces']))
      if (!existsSync(from)) throw new Error(`No face model at ${from}: run \`npm run faces-bundle\` (npm ci runs it)`);
    const [spec] = eventFunctions;
    const role = eventFunctionRole(this, {
      table,
      logGroupPrefix,
      description: 'Immich media function',
      // BatchGetItem: the people whose faces are on the asset, for their thumbnails. Places
      // (docs/places.md): a transaction moves the place facet counters, BatchWriteItem the postings.
      tableActions: [
        'dynamodb:GetItem',
        'dynamodb:BatchGetItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
        'dynamodb:ConditionCheckItem',
        'dynamodb:PutItem',
        'dynamodb:DeleteItem',
        'dynamodb:BatchWriteItem',
      ],
      statements: [
        {
          // Reads originals, writes and (when the asset went meanwhile) removes its previews.
          statement: new PolicyStatement({
            actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
            resources: [originals.arnForObjects('*')],
          }),
          covers: 'the objects of the originals bucket (originals read, previews written)',
        },
      ],
    });
    // The CLIP model under models/ (its objects are readable with the rest above) and the ML service's auth secret.
    grantModels(role, originals, mlAuthSecretArn, true);
    this.role = role;
    this.deadLetters = deadLetterQueue(this, 'the media function’s');

    this.fn = new NodejsFunction(this, 'Function', {
      entry: join(root, spec.entry),
      handler: 'handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      // libvips in WebAssembly holds a 12-MP photo a few times over (docs/benchmarks.md, "Media"). CPU
      // comes with memory: at 3,584 MB Lambda gives two vCPUs (at 2,048 MB, 1.2), which libvips'
      // threads and the HEIC decoder's workers use (shared/media/heic.ts), so a photo takes about
      // half the time for about the same GB-seconds.
      memorySize: 3584,
      // A video's poster is made from a copy of it in /tmp (never in memory): room for the largest
      // upload session's file (4 GiB, docs/large-uploads.md), and the time to copy it. A CLIP model's
      // visual half is copied there too (about 350 MB for ViT-B-32), once per environment.
      ephemeralStorageSize: Size.gibibytes(5),
      timeout: Duration.minutes(5),
      role,
      description: 'Immich media: previews, thumbhash, video posters, places and faces of each uploaded original',
      environment: { TABLE_NAME: table.tableName, ORIGINALS_BUCKET: originals.bucketName, ...mlEnvironment(originals, mlAuthSecretArn) },
      // A failed event (with its error) goes to the queue after Lambda's two retries.
      onFailure: new SqsDestination(this.deadLetters),
      retryAttempts: 2,
      tracing: tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      maxEventAge: Duration.hours(1),
      depsLockFilePath: join(root, 'package-lock.json'),
      projectRoot: root,
      logGroup: new LogGroup(this, 'Logs', {
        logGroupName: `${logGroupPrefix}generate-media`,
        retention: RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
      bundling: lambdaBundling({
        externalModules: mediaExternalModules,
        // ffmpeg is the linux-arm64 build fetched at install (infra/tools/lambda-binaries.ts).
        commandHooks: copyBeside([
          { from: join(root, 'node_modules', 'wasm-vips'), to: join('node_modules', 'wasm-vips') },
          ...libheifFiles.map((file) => ({
            from: join(root, 'node_modules', 'libheif-js', file),
            to: join('node_modules', 'libheif-js', file),
          })),
          { from: ffmpeg, to: join('bin', 'ffmpeg') },
          // The reverse-geocoding index, built at install, and the country outlines (docs/places.md), read by the places step;
          // the face model's runtime, built at install, read when faces are looked for (docs/faces.md); the
          // metadata readers, read when the metadata job reads a file's keywords again (shared/services/media/metadata-refresh.service.ts).
          // And what runs the smart-search and OCR steps' models (onnxruntime's linux-arm64 build, the
          // tokenizer, PP-OCRv4's weights: docs/deployment.md, "Smart search and OCR").
          ...lazyModuleFiles(['places', 'countries', 'faces', 'metadata', 'ml']),
          // And the management API's client, loaded to tell an owner's open apps of their previews (docs/deployment.md, "Realtime").
          ...realtimeClientFiles(),
        ]),
      }),
    });
    this.fn.addEventSource(new S3EventSourceV2(originals, { events: [EventType.OBJECT_CREATED], filters: [{ prefix: 'upload/' }] }));
    acknowledgeEventFunction(this.fn, role, tracing);
    // CDK's own handler that writes the bucket's notification configuration at deploy time.
    const notifications = Stack.of(this).node.children.find((child) => child.node.id.startsWith('BucketNotificationsHandler'));
    if (notifications) {
      Validations.of(notifications).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: 'CDK’s custom resource that sets the bucket’s notifications at deploy time; it runs only then',
      });
    }
  }
}
