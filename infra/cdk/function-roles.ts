import { Stack, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { type IRole, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import { Construct } from 'constructs';
import { type Route, runsModels } from '../routes.ts';
import { readsOAuthSettings } from './cognito.ts';
import { grantModels } from './machine-learning.ts';
import type { Realtime } from './realtime.ts';
import { sessionUseStatement } from './session-use.ts';

const tableReads = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
const tableWrites = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
];

/** S3 actions per kind of originals access (infra/routes.ts `store`). */
const bucketActions: Record<NonNullable<Route['store']>, string[]> = {
  read: ['s3:GetObject'],
  // A failed upload deletes the exact version it wrote, so nothing of it stays in the versioned bucket.
  put: ['s3:PutObject', 's3:DeleteObject', 's3:DeleteObjectVersion'],
  // A force delete removes the exact versions the upload wrote (no delete marker, nothing kept).
  delete: ['s3:DeleteObject', 's3:DeleteObjectVersion'],
  // POST /download/archive: reads originals, writes the zip as a multipart upload (aborted on failure).
  archive: ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload'],
  // Upload sessions: start a multipart upload and sign its parts (PutObject), list and complete
  // or abort it, read the object to check it, and remove a file that is not what was declared.
  session: [
    's3:PutObject',
    's3:GetObject',
    's3:ListMultipartUploadParts',
    's3:AbortMultipartUpload',
    's3:DeleteObject',
    's3:DeleteObjectVersion',
  ],
};

/** What a route may touch, as a name: every route with the same access shares one role. */
export const accessClass = (
  route: Pick<Route, 'data' | 'store' | 'secrets' | 'mediaJobs' | 'transcodeJobs' | 'realtime' | 'lazy'>,
): string =>
  [
    route.data === 'none' ? 'NoData' : route.data === 'read' ? 'ReadData' : 'WriteData',
    route.store && `${route.store}Originals`,
    route.secrets && 'LinkSecret',
    route.mediaJobs && 'MediaJobs',
    route.transcodeJobs && 'TranscodeJobs',
    route.realtime && 'Realtime',
    // Runs models (its row's `lazy` names `ml`): reads the models and the ML service's auth secret.
    runsModels(route) && 'MachineLearning',
  ]
    .filter(Boolean)
    .map((part) => String(part).charAt(0).toUpperCase() + String(part).slice(1))
    .join('');

export interface FunctionRolesProps {
  table: ITableV2;
  originals: IBucket;
  linkSecret: ISecret;
  /** The media function, which routes with `mediaJobs` invoke. */
  mediaFunction: IFunction;
  /** The transcode function, which routes with `transcodeJobs` invoke; none when the stack leaves transcoding out. */
  transcodeFunction?: IFunction | undefined;
  /** The realtime socket, whose connections routes with `realtime` post to. */
  realtime: Realtime;
  /** Every function's log group is named under this prefix (`/immich/<stack>/`); roles may write only there. */
  logGroupPrefix: string;
  /** Active X-Ray tracing: Lambda adds X-Ray's two actions (on `*`) to the roles. */
  tracing: boolean;
  /** The deploy-time OAuth settings (`-c oauth=cognito`), which the routes that read them may read. */
  oauthSecret?: ISecret;
  /** The Immich ML service's auth header secret (`-c mlAuthSecretArn`), which the routes that run models may read. */
  mlAuthSecretArn?: string | undefined;
}

/**
 * One IAM role per access class instead of one per function. The grants are derived from the
 * route row's access (`data`, `store`, `secrets`, `mediaJobs`) alone, so two functions of one class had
 * identical policies anyway: sharing the role loses no privilege, makes the whole permission
 * picture a handful of roles in the main stack, and saves two resources per route (the stack's
 * resource budget, docs/deployment.md).
 */
export class FunctionRoles extends Construct {
  private readonly roles = new Map<string, Role>();
  private readonly props: FunctionRolesProps;

  constructor(scope: Construct, id: string, props: FunctionRolesProps) {
    super(scope, id);
    this.props = props;
    if (props.tracing) {
      Validations.of(this).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'Only X-Ray’s PutTraceSegments and PutTelemetryRecords (added by active tracing), which have no resource-level permissions',
      });
    }
  }

  roleFor(route: Route): IRole {
    // The OAuth settings' readers (infra/cdk/cognito.ts) share roles of their own, so no other
    // function of their access class may read the client secret.
    const oauth = this.props.oauthSecret && readsOAuthSettings(route) ? this.props.oauthSecret : undefined;
    const name = `${accessClass(route)}${oauth ? 'OAuthSettings' : ''}`;
    const existing = this.roles.get(name);
    if (existing) return existing;
    const { originals, logGroupPrefix } = this.props;
    const { region, account } = Stack.of(this);
    const role = new Role(this, name, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Immich API functions with access ${name}`,
    });
    // Logs: only into the functions' own log groups (no CreateLogGroup: the stack makes them).
    const logGroups = `arn:aws:logs:${region}:${account}:log-group:${logGroupPrefix}*`;
    role.addToPolicy(new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroups] }));
    this.acknowledgeWildcard(
      role,
      logGroups,
      'the log groups of this stack’s functions (named /immich/<stack>/<operation>) and the streams Lambda names in them',
    );
    this.grantRouteAccess(role, route);
    if (route.store) {
      role.addToPolicy(new PolicyStatement({ actions: bucketActions[route.store], resources: [originals.arnForObjects('*')] }));
      this.acknowledgeWildcard(
        role,
        originals.arnForObjects('*'),
        'the objects of the originals bucket, whose keys are made per asset at upload',
      );
    }
    // PostToConnection on the socket's connections, nothing else of the WebSocket API.
    if (route.realtime) this.props.realtime.grantPost(role);
    if (runsModels(route)) grantModels(role, originals, this.props.mlAuthSecretArn, route.store === 'read');
    if (oauth) role.addToPolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [oauth.secretArn] }));
    this.roles.set(name, role);
    return role;
  }

  /**
   * A route's table, link-secret and media-job grants (not its logs, originals or socket) on a
   * role: its function's role, and the ingress's for the upload routes it receives large bodies
   * for (infra/cdk/ingress.ts), so both hold the same statements.
   */
  grantRouteAccess(role: Role, route: Pick<Route, 'data' | 'secrets' | 'mediaJobs' | 'transcodeJobs'>): void {
    const { table, linkSecret, mediaFunction, transcodeFunction } = this.props;
    // Exactly the calls the repositories make: no Scan, no streams, no table management. A
    // transaction is authorized per item (PutItem, UpdateItem, DeleteItem, ConditionCheckItem).
    if (route.data !== 'none') {
      const actions = route.data === 'read' ? tableReads : [...tableReads, ...tableWrites];
      role.addToPolicy(new PolicyStatement({ actions, resources: [table.tableArn, `${table.tableArn}/index/*`] }));
      this.acknowledgeWildcard(role, `${table.tableArn}/index/*`, 'the global secondary indexes of the one table (docs/data-model.md)');
    }
    // Authenticating with a session may update the session item itself (its PIN unlock kept, as
    // Immich does on any request: docs/immich-compatibility.md, "The locked folder"), so a
    // read-only function may too: UpdateItem of session items only, of their use's attributes only.
    if (route.data === 'read') role.addToPolicy(sessionUseStatement(table));
    if (route.secrets)
      role.addToPolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [linkSecret.secretArn] }));
    // That one function, unqualified (no version or alias is ever invoked).
    if (route.mediaJobs)
      role.addToPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [mediaFunction.functionArn] }));
    if (route.transcodeJobs && transcodeFunction)
      role.addToPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [transcodeFunction.functionArn] }));
  }

  /** Acknowledges cdk-nag's wildcard finding for exactly this resource (its finding id names it), with the reason. */
  acknowledgeWildcard(role: Role, resource: string, what: string): void {
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${flattenCfnReference(Stack.of(this).resolve(resource))}]`,
      reason: `The wildcard covers only ${what}`,
    });
  }
}
