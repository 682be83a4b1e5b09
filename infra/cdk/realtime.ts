import { join } from 'node:path';
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { WebSocketApi, WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration, WebSocketMockIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { type IRole, PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import { Construct } from 'constructs';
import * as keys from '#shared/db/item-keys.ts';
import { heartbeat } from '#shared/model/realtime.ts';
import { eventFunctions } from '../routes.ts';
import { copyBeside, lambdaBundling, realtimeClientFiles } from './bundling.ts';
import { eventFunctionRole } from './event-function.ts';
import { sessionUseStatement } from './session-use.ts';

const root = join(import.meta.dirname, '..', '..');

/** The stage's name: the management API's path and the distribution's origin path name it. */
export const realtimeStage = 'live';

export interface RealtimeProps {
  table: ITableV2;
  logGroupPrefix: string;
  tracing: boolean;
  /** The generation of the web app deployed (`v3` for a v3 build): a browser's socket is answered in its shapes. */
  webGeneration: 'v1' | 'v3';
}

/** `pingRealtime` → its row of `eventFunctions` (infra/routes.ts). */
const entryOf = (name: (typeof eventFunctions)[number]['name']): string => {
  const spec = eventFunctions.find((fn) => fn.name === name);
  if (!spec) throw new Error(`No ${name} in eventFunctions`);
  return join(root, spec.entry);
};

/**
 * Immich's realtime socket (docs/deployment.md, "Realtime"): an API Gateway WebSocket API, which
 * the distribution serves at `/api/socket.io/*` (infra/cdk/web-distribution.ts).
 * - `$connect`: a function that checks the upgrade's credentials as every route does and keeps
 *   the connection in the table (docs/data-model.md, "Connections"), then invokes the greeter
 *   asynchronously: API Gateway refuses posts to a connection until `$connect` has answered.
 * - The greeter says what Immich's server says first, once the connection is open (it tries).
 * - `$disconnect`: a function that deletes the connection's item.
 * - `$default`: a MOCK integration. What the client sends (its CONNECT, its pongs) needs no answer
 *   and no Lambda invocation.
 * - The heartbeat: an EventBridge schedule pings every connection every few minutes
 *   (`heartbeat`, shared/model/realtime.ts). That keeps the app's socket and API Gateway's idle
 *   timeout (10 minutes) satisfied.
 * The functions that tell apps of a change post to the connections through the management API
 * (`endpoint`, granted `execute-api:ManageConnections` by `grantPost`).
 */
export class Realtime extends Construct {
  readonly api: WebSocketApi;
  readonly stage: WebSocketStage;
  /** The management API's URL (`https://<api>.execute-api.<region>.amazonaws.com/<stage>`), `REALTIME_ENDPOINT`. */
  readonly endpoint: string;
  readonly schedule: Rule;
  readonly functions: Record<'connect' | 'disconnect' | 'greet' | 'ping', NodejsFunction>;

  constructor(scope: Construct, id: string, props: RealtimeProps) {
    super(scope, id);
    const { table, logGroupPrefix, tracing } = props;
    this.api = new WebSocketApi(this, 'Api', {
      apiName: `${Stack.of(this).stackName}-realtime`,
      description: 'Immich’s realtime socket (socket.io, WebSocket transport), at /api/socket.io/ through the distribution',
    });
    this.stage = new WebSocketStage(this, 'Stage', {
      webSocketApi: this.api,
      stageName: realtimeStage,
      autoDeploy: true,
      // A personal server: a runaway client is refused before it costs anything.
      throttle: { rateLimit: 50, burstLimit: 100 },
    });
    const { region, urlSuffix } = Stack.of(this);
    this.endpoint = `https://${this.api.apiId}.execute-api.${region}.${urlSuffix}/${realtimeStage}`;

    const fn = (
      name: 'connectRealtime' | 'disconnectRealtime' | 'greetRealtime' | 'pingRealtime',
      options: {
        id: string;
        description: string;
        memorySize: number;
        timeout: Duration;
        environment: Record<string, string>;
        tableActions: string[];
        /** Writes allowed on connection items only (`CONNECTION#…`, docs/data-model.md "Connections"). */
        connectionWrites?: string[];
        posts?: boolean;
        logName: string;
      },
    ): { fn: NodejsFunction; role: Role } => {
      const holder = new Construct(this, options.id);
      const role = eventFunctionRole(holder, {
        table,
        logGroupPrefix,
        description: `Immich realtime: ${options.description}`,
        tableActions: options.tableActions,
      });
      // A function anyone may reach before signing in writes connection items and nothing else.
      if (options.connectionWrites)
        role.addToPolicy(
          new PolicyStatement({
            actions: options.connectionWrites,
            resources: [table.tableArn],
            conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${keys.connection('').pk}*`] } },
          }),
        );
      const created = new NodejsFunction(holder, 'Function', {
        entry: entryOf(name),
        handler: 'handler',
        runtime: Runtime.NODEJS_24_X,
        architecture: Architecture.ARM_64,
        memorySize: options.memorySize,
        timeout: options.timeout,
        role,
        description: `Immich realtime: ${options.description}`,
        environment: options.environment,
        tracing: tracing ? Tracing.ACTIVE : Tracing.DISABLED,
        depsLockFilePath: join(root, 'package-lock.json'),
        projectRoot: root,
        logGroup: new LogGroup(holder, 'Logs', {
          logGroupName: `${logGroupPrefix}${options.logName}`,
          retention: RetentionDays.ONE_MONTH,
          removalPolicy: RemovalPolicy.DESTROY,
        }),
        // A function that posts carries the management API's client beside its bundle (loaded on its first post).
        bundling: lambdaBundling(options.posts ? { commandHooks: copyBeside(realtimeClientFiles()) } : {}),
      });
      if (tracing) {
        Validations.of(role).acknowledge({
          id: 'AwsSolutions-IAM5[Resource::*]',
          reason:
            'Only X-Ray’s PutTraceSegments and PutTelemetryRecords (added by active tracing), which have no resource-level permissions',
        });
      } else {
        Validations.of(created).acknowledge({
          id: 'Serverless-LambdaTracing',
          reason: 'Opt-in with the API functions (-c tracing=true; docs/deployment.md)',
        });
      }
      return { fn: created, role };
    };

    const greet = fn('greetRealtime', {
      id: 'Greeter',
      description: 'the greeter (what the server says first on a new connection)',
      // Mostly waiting: a greeting is about 60 ms of CPU and 62 MB here, the same GB-s at any
      // size, and a connection that never opens costs its waits (docs/benchmarks.md, "Realtime").
      memorySize: 256,
      timeout: Duration.seconds(30),
      environment: { REALTIME_ENDPOINT: this.endpoint },
      tableActions: [],
      posts: true,
      logName: 'realtime-greet',
    });
    const connect = fn('connectRealtime', {
      id: 'Connect',
      description: '$connect (credentials checked, the connection kept)',
      memorySize: 512,
      timeout: Duration.seconds(10),
      environment: { TABLE_NAME: table.tableName, GREETER_FUNCTION: greet.fn.functionArn, WEB_GENERATION: props.webGeneration },
      // The credentials' GetItem (a session, an API key, a link's key) and the connection's PutItem.
      tableActions: ['dynamodb:GetItem'],
      connectionWrites: ['dynamodb:PutItem'],
      logName: 'realtime-connect',
    });
    connect.role.addToPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [greet.fn.functionArn] }));
    // Its credentials' check is the routes': a session's use is recorded on it as a route records it.
    connect.role.addToPolicy(sessionUseStatement(table));
    const disconnect = fn('disconnectRealtime', {
      id: 'Disconnect',
      description: '$disconnect (the connection forgotten)',
      memorySize: 256,
      timeout: Duration.seconds(10),
      environment: { TABLE_NAME: table.tableName },
      tableActions: [],
      connectionWrites: ['dynamodb:DeleteItem'],
      logName: 'realtime-disconnect',
    });
    const ping = fn('pingRealtime', {
      id: 'Heartbeat',
      description: `the heartbeat (every connection pinged every ${heartbeat.pingEveryMinutes} minutes)`,
      memorySize: 256,
      timeout: Duration.seconds(60),
      environment: { TABLE_NAME: table.tableName, REALTIME_ENDPOINT: this.endpoint },
      // Every connection (gsi1), and the items of those that are gone.
      tableActions: ['dynamodb:Query'],
      connectionWrites: ['dynamodb:DeleteItem'],
      posts: true,
      logName: 'realtime-ping',
    });
    this.grantPost(greet.role, ['POST', 'DELETE']);
    this.grantPost(ping.role);
    this.functions = { connect: connect.fn, disconnect: disconnect.fn, greet: greet.fn, ping: ping.fn };

    // The greeter and the heartbeat are invoked asynchronously: a greeting retried would speak first
    // twice, and a missed heartbeat is made up by the next; neither is worth a retry or a queue.
    const worthNothingLater =
      'A greeting or a ping is worth nothing later: the app reconnects (it waits 20 s for a greeting) and the next tick pings again';
    for (const each of [greet.fn, ping.fn]) {
      each.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.minutes(1) });
      Validations.of(each).acknowledge(
        { id: 'Serverless-LambdaDLQ', reason: worthNothingLater },
        { id: 'Serverless-LambdaAsyncFailureDestination', reason: worthNothingLater },
      );
    }
    for (const each of [connect.fn, disconnect.fn]) {
      Validations.of(each).acknowledge({
        id: 'Serverless-LambdaDLQ',
        reason:
          'API Gateway invokes it synchronously and gets every error back; a dead-letter queue only receives failed asynchronous invocations',
      });
    }

    this.api.addRoute('$connect', { integration: new WebSocketLambdaIntegration('ConnectIntegration', connect.fn) });
    this.api.addRoute('$disconnect', { integration: new WebSocketLambdaIntegration('DisconnectIntegration', disconnect.fn) });
    this.api.addRoute('$default', {
      integration: new WebSocketMockIntegration('DefaultIntegration', {
        requestTemplates: { $default: '{"statusCode": 200}' },
        templateSelectionExpression: '\\$default',
      }),
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Authorization is Immich’s own: the upgrade’s session cookie, token or API key, checked by the $connect function with the routes’ code; a refused one is told so and closed, as Immich does',
    });

    this.schedule = new Rule(this, 'Schedule', {
      description: `Immich realtime heartbeat: every connection pinged every ${heartbeat.pingEveryMinutes} minutes`,
      schedule: Schedule.rate(Duration.minutes(heartbeat.pingEveryMinutes)),
      targets: [new LambdaFunction(ping.fn, { retryAttempts: 0, maxEventAge: Duration.minutes(1) })],
    });
    Validations.of(this.schedule).acknowledge({ id: 'Serverless-EventBusDLQ', reason: worthNothingLater });
    // Access logs of a WebSocket stage go through API Gateway's account-wide CloudWatch role
    // (AWS::ApiGateway::Account), which the stack would take over from anything else in the account.
    const logged =
      'API Gateway logs a WebSocket stage only through its account-wide CloudWatch role, which this stack will not take over; the $connect and $disconnect functions log every connection (route, outcome, user id), the greeter and the heartbeat theirs';
    Validations.of(this.stage).acknowledge(
      { id: 'AwsSolutions-APIG1', reason: logged },
      { id: 'Serverless-APIGWAccessLogging', reason: logged },
    );
  }

  /** Lets a role post to the connections (PostToConnection), and with `DELETE` close them. */
  grantPost(role: IRole, methods: readonly ('POST' | 'DELETE')[] = ['POST']): void {
    const { region, account } = Stack.of(this);
    const resources = methods.map(
      (method) =>
        `arn:${Stack.of(this).partition}:execute-api:${region}:${account}:${this.api.apiId}/${realtimeStage}/${method}/@connections/*`,
    );
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['execute-api:ManageConnections'], resources }));
    for (const resource of resources)
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${flattenCfnReference(Stack.of(this).resolve(resource))}]`,
        reason: 'The wildcard covers only the connections of this stack’s WebSocket API (their ids are API Gateway’s, one per open socket)',
      });
  }
}
