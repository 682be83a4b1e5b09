import { Stack } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { type IRole, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { Route } from './routes.ts';

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
};

/** What a route may touch, as a name: every route with the same access shares one role. */
export const accessClass = (route: Pick<Route, 'data' | 'store' | 'secrets'>): string =>
  [
    route.data === 'none' ? 'NoData' : route.data === 'read' ? 'ReadData' : 'WriteData',
    route.store && `${route.store}Originals`,
    route.secrets && 'LinkSecret',
  ]
    .filter(Boolean)
    .map((part) => String(part).charAt(0).toUpperCase() + String(part).slice(1))
    .join('');

export interface FunctionRolesProps {
  table: ITableV2;
  originals: IBucket;
  linkSecret: ISecret;
  /** Every function's log group is named under this prefix (`/immich/<stack>/`); roles may write only there. */
  logGroupPrefix: string;
}

/**
 * One IAM role per access class instead of one per function. The grants are derived from the
 * route row's access (`data`, `store`, `secrets`) alone, so two functions of one class had
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
  }

  roleFor(route: Route): IRole {
    const name = accessClass(route);
    const existing = this.roles.get(name);
    if (existing) return existing;
    const { table, originals, linkSecret, logGroupPrefix } = this.props;
    const { region, account } = Stack.of(this);
    const role = new Role(this, name, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Immich API functions with access ${name}`,
    });
    // Logs: only into the functions' own log groups (no CreateLogGroup: the stack makes them).
    role.addToPolicy(
      new PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [`arn:aws:logs:${region}:${account}:log-group:${logGroupPrefix}*`],
      }),
    );
    // Exactly the calls the repositories make: no Scan, no streams, no table management. A
    // transaction is authorized per item (PutItem, UpdateItem, DeleteItem, ConditionCheckItem).
    if (route.data !== 'none') {
      const actions = route.data === 'read' ? tableReads : [...tableReads, ...tableWrites];
      role.addToPolicy(new PolicyStatement({ actions, resources: [table.tableArn, `${table.tableArn}/index/*`] }));
    }
    if (route.store)
      role.addToPolicy(new PolicyStatement({ actions: bucketActions[route.store], resources: [originals.arnForObjects('*')] }));
    if (route.secrets)
      role.addToPolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [linkSecret.secretArn] }));
    this.roles.set(name, role);
    return role;
  }
}
