import { join } from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { eventFunctions } from '../routes.ts';
import { copyBeside, lambdaBundling, realtimeClientFiles } from './bundling.ts';
import { acknowledgeEventFunction, deadLetterQueue, eventFunctionRole } from './event-function.ts';

const root = join(import.meta.dirname, '..', '..');

export interface NightlyFunctionProps {
  table: ITableV2;
  /** The originals bucket: the trash's expired assets and purged users' files are deleted from it. */
  originals: IBucket;
  /** Function log groups are named under this prefix (`/immich/<stack>/`). */
  logGroupPrefix: string;
  /** Active X-Ray tracing, as for the API functions (`-c tracing=true`). */
  tracing: boolean;
}

/**
 * The nightly tasks' function (functions/nightly/run-nightly-tasks.ts): an EventBridge schedule
 * invokes it every hour, and it runs Immich's nightly tasks once per night at the configured
 * `nightlyTasks.startTime` (UTC), so changing that time in the settings needs no deploy. A run
 * that fails is retried twice by Lambda, then its event (with the error) waits in a dead-letter
 * queue; the next hour's tick finds the night's run claimed, so nothing runs twice.
 */
export class NightlyFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly role: IRole;
  readonly deadLetters: Queue;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, { table, originals, logGroupPrefix, tracing }: NightlyFunctionProps) {
    super(scope, id);
    const spec = eventFunctions.find((fn) => fn.name === 'runNightlyTasks');
    if (!spec) throw new Error('No runNightlyTasks in eventFunctions');
    const role = eventFunctionRole(this, {
      table,
      logGroupPrefix,
      description: 'Immich nightly tasks',
      // Reads users, timelines and memories; writes memories, and deletes expired trash and purged
      // users' libraries (transactions of puts, updates and deletes, as the API's deletions).
      tableActions: [
        'dynamodb:GetItem',
        'dynamodb:BatchGetItem',
        'dynamodb:Query',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:DeleteItem',
        'dynamodb:BatchWriteItem',
        'dynamodb:ConditionCheckItem',
      ],
      statements: [
        {
          // As DELETE /asset with force: the exact versions an upload wrote, previews, profile
          // images; a purged user's open upload sessions are aborted.
          statement: new PolicyStatement({
            actions: ['s3:DeleteObject', 's3:DeleteObjectVersion', 's3:AbortMultipartUpload'],
            resources: [originals.arnForObjects('*')],
          }),
          covers: 'the objects of the originals bucket (deleted files, aborted upload sessions)',
        },
      ],
    });
    this.deadLetters = deadLetterQueue(this, 'the nightly function’s');

    this.fn = new NodejsFunction(this, 'Function', {
      entry: join(root, spec.entry),
      handler: 'handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      // Every user's memories of up to seven days on the first night: room for a large server. The
      // trash and user purge stops three minutes before this and goes on at the next tick.
      timeout: Duration.minutes(15),
      role,
      description: 'Immich nightly tasks: "on this day" memories, the clean-ups, the trash emptied and deleted users removed',
      environment: { TABLE_NAME: table.tableName, ORIGINALS_BUCKET: originals.bucketName },
      onFailure: new SqsDestination(this.deadLetters),
      retryAttempts: 2,
      tracing: tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      maxEventAge: Duration.hours(1),
      depsLockFilePath: join(root, 'package-lock.json'),
      projectRoot: root,
      logGroup: new LogGroup(this, 'Logs', {
        logGroupName: `${logGroupPrefix}run-nightly-tasks`,
        retention: RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
      // The management API's client, loaded to tell the apps of what the clean-ups deleted (docs/deployment.md, "Realtime").
      bundling: lambdaBundling({ commandHooks: copyBeside(realtimeClientFiles()) }),
    });
    this.role = role;
    acknowledgeEventFunction(this.fn, role, tracing);

    // Every hour: the function itself decides whether the night's tasks are due (the configured time).
    this.schedule = new Rule(this, 'Schedule', {
      description: 'Immich nightly tasks: a tick every hour; the tasks run once, at nightlyTasks.startTime',
      schedule: Schedule.rate(Duration.hours(1)),
      // A tick EventBridge could not deliver (Lambda throttled it) waits in the same queue.
      targets: [new LambdaFunction(this.fn, { retryAttempts: 2, maxEventAge: Duration.hours(1), deadLetterQueue: this.deadLetters })],
    });
  }
}
