import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import type { Construct } from 'constructs';

/**
 * What the functions an event invokes (not a route: the media function, the nightly tasks) have
 * alike: a role of their own that writes to their log group and reaches the table, a dead-letter
 * queue for the events that failed three times, and the cdk-nag acknowledgments those need.
 */

export interface EventFunctionRoleProps {
  table: ITableV2;
  logGroupPrefix: string;
  description: string;
  /** The DynamoDB actions on the table and its indexes. */
  tableActions: string[];
  /** More statements, each with what its wildcard resource covers (for cdk-nag). */
  statements?: { statement: PolicyStatement; covers?: string }[];
}

export const eventFunctionRole = (scope: Construct, props: EventFunctionRoleProps): Role => {
  const { region, account } = Stack.of(scope);
  const role = new Role(scope, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description: props.description });
  const logGroups = `arn:aws:logs:${region}:${account}:log-group:${props.logGroupPrefix}*`;
  const indexes = `${props.table.tableArn}/index/*`;
  role.addToPolicy(new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroups] }));
  // A function that never reads the table (the realtime greeter) gets no statement for it.
  if (props.tableActions.length > 0)
    role.addToPolicy(new PolicyStatement({ actions: props.tableActions, resources: [props.table.tableArn, indexes] }));
  const wildcards: [string, string][] = [
    [logGroups, 'its own log group and the streams Lambda names in it'],
    ...(props.tableActions.length > 0 ? [[indexes, 'the global secondary indexes of the one table'] as [string, string]] : []),
  ];
  for (const { statement, covers } of props.statements ?? []) {
    role.addToPolicy(statement);
    if (covers) for (const resource of statement.resources) wildcards.push([resource, covers]);
  }
  for (const [resource, what] of wildcards) {
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${flattenCfnReference(Stack.of(scope).resolve(resource))}]`,
      reason: `The wildcard covers only ${what}`,
    });
  }
  return role;
};

/** Where an event function's failed events end up (kept 14 days, with their error). */
export const deadLetterQueue = (scope: Construct, whose: string): Queue => {
  const queue = new Queue(scope, 'DeadLetters', {
    retentionPeriod: Duration.days(14),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
  for (const rule of ['AwsSolutions-SQS3', 'Serverless-SQSRedrivePolicy']) {
    Validations.of(queue).acknowledge({ id: rule, reason: `This queue is itself where ${whose} failed events end up` });
  }
  return queue;
};

/** The acknowledgments every event function needs: its on-failure destination, and tracing's. */
export const acknowledgeEventFunction = (fn: IFunction, role: Role, tracing: boolean): void => {
  Validations.of(fn).acknowledge({
    id: 'Serverless-LambdaDLQ',
    reason: 'Failed events go to an on-failure destination (the DeadLetters queue), which also records the error',
  });
  if (tracing) {
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'Only X-Ray’s PutTraceSegments and PutTelemetryRecords (added by active tracing), which have no resource-level permissions',
    });
  } else {
    Validations.of(fn).acknowledge({
      id: 'Serverless-LambdaTracing',
      reason: 'Opt-in with the API functions (-c tracing=true; docs/deployment.md)',
    });
  }
};
