import { join } from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { bundling } from './bundling.ts';
import { bodyLimitBytes, defaultMemoryMb, deployedUploadLimitMb, kebab, type Route } from './routes.ts';

const root = join(import.meta.dirname, '..');

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
  delete: ['s3:DeleteObject', 's3:DeleteObjectVersion'],
};

export interface ApiFunctionProps {
  route: Route;
  table: ITableV2;
  originals: IBucket;
  /** The shared-link key secret, for routes with `secrets`. */
  linkSecret: ISecret;
  /** Reserved concurrency of the public password-hashing routes, when the deployer sets one. */
  hashingConcurrency?: number;
}

/**
 * One Lambda function for one route, with every house default in one place: Node 24 on arm64,
 * ESM bundle (AWS SDK included, so its version is ours), its own log group with a retention, and
 * exactly the table and originals-bucket access its route row declares.
 */
export class ApiFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, { route, table, originals, linkSecret, hashingConcurrency }: ApiFunctionProps) {
    const name = kebab(route.operationId);
    super(scope, id, {
      entry: join(root, route.entry),
      handler: 'handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: route.memory ?? defaultMemoryMb,
      timeout: Duration.seconds(29),
      ...(route.publicHashing && hashingConcurrency ? { reservedConcurrentExecutions: hashingConcurrency } : {}),
      description: `Immich API ${route.operationId} (${route.method} ${route.path})`,
      environment: {
        ...(route.data === 'none' ? {} : { TABLE_NAME: table.tableName }),
        // The route's body limit, checked before parsing and authentication (the upload route
        // checks its multipart body against MAX_UPLOAD_MB as it reads it).
        ...(route.body === 'upload' ? {} : { MAX_BODY_BYTES: String(bodyLimitBytes(route, deployedUploadLimitMb)) }),
        ...(route.store ? { ORIGINALS_BUCKET: originals.bucketName, MAX_UPLOAD_MB: String(deployedUploadLimitMb) } : {}),
        // A CloudFormation dynamic reference: the template holds `{{resolve:secretsmanager:…}}`,
        // never the value; Lambda keeps it in the function's (KMS-encrypted) environment.
        ...(route.secrets ? { SHARED_LINK_SECRET: linkSecret.secretValue.unsafeUnwrap() } : {}),
      },
      depsLockFilePath: join(root, 'package-lock.json'),
      projectRoot: root,
      logGroup: new LogGroup(scope, `${id}Logs`, {
        logGroupName: undefined,
        retention: RetentionDays.ONE_MONTH,
        // Logs are operational, not the library: they go with the stack.
        removalPolicy: RemovalPolicy.DESTROY,
      }),
      bundling: {
        format: OutputFormat.ESM,
        target: bundling.target,
        minify: bundling.minify,
        sourceMap: bundling.sourceMap,
        mainFields: [...bundling.mainFields],
        banner: bundling.banner,
        externalModules: [],
        bundleAwsSDK: true,
        esbuildArgs: { '--alias': Object.entries(bundling.alias).map(([from, to]) => `${from}=${to}`) },
      },
    });
    this.node.addMetadata('route', `${route.method} ${route.path} (${name})`);
    // Exactly the calls the repositories make: no Scan, no streams, no table management. A
    // transaction is authorized per item (PutItem, UpdateItem, DeleteItem, ConditionCheckItem).
    if (route.data !== 'none') {
      const actions = route.data === 'read' ? tableReads : [...tableReads, ...tableWrites];
      this.addToRolePolicy(new PolicyStatement({ actions, resources: [table.tableArn, `${table.tableArn}/index/*`] }));
    }
    const storeActions = route.store ? bucketActions[route.store] : [];
    if (storeActions.length > 0)
      this.addToRolePolicy(new PolicyStatement({ actions: storeActions, resources: [originals.arnForObjects('*')] }));
  }
}
