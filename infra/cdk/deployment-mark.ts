import { createHash } from 'node:crypto';
import { Lazy, Stack } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import { Construct, type IConstruct } from 'constructs';
import * as keys from '#shared/db/item-keys.ts';
import { acknowledgeSdkCallHandler } from './sdk-call-handler.ts';

/**
 * The generation of the stack's functions: a hash of every function's code (its asset's key) in
 * the stack and its nested stacks, so it changes exactly when a deploy replaces some function's code.
 */
const functionsGeneration = (stack: Stack): string => {
  const codes = stack.node
    .findAll()
    .filter((construct): construct is CfnFunction => construct instanceof CfnFunction)
    .map((fn) => `${fn.node.path}=${JSON.stringify(Stack.of(fn).resolve(fn.code))}`)
    .sort();
  return createHash('sha256').update(codes.join('\n')).digest('hex').slice(0, 16);
};

/**
 * Writes the functions' generation to the table (`SYSTEM` / `DEPLOYMENT`) once every function of
 * the deploy is in place (`after`: what holds them), by CDK's deploy-time SDK call (a PutItem, so
 * without the `seenAt` a sync records). While CloudFormation replaces the functions, and for the
 * runs they had begun, old ones still serve: an album written by one that moves no album sync marker
 * must not be skipped by a marker a new sync learnt meanwhile, so a sync trusts only a marker
 * learnt under the generation it reads, learnt once the old runs are over (docs/data-model.md,
 * "Album summaries").
 */
export class DeploymentMark extends Construct {
  constructor(scope: Construct, id: string, props: { table: ITableV2; after: readonly IConstruct[] }) {
    super(scope, id);
    const stack = Stack.of(this);
    const key = keys.deployment();
    const write = new AwsCustomResource(this, 'Generation', {
      resourceType: 'Custom::DeploymentGeneration',
      // On create and on every update that changes the generation (CloudFormation updates the
      // resource only when its properties change).
      onUpdate: {
        service: 'DynamoDB',
        action: 'PutItem',
        parameters: {
          TableName: props.table.tableName,
          Item: {
            pk: { S: key.pk },
            sk: { S: key.sk },
            type: { S: 'deployment' },
            generation: { S: Lazy.string({ produce: () => functionsGeneration(stack) }) },
          },
        },
        physicalResourceId: PhysicalResourceId.of('deployment-generation'),
      },
      // Gone with the resource (its first deploy rolled back, or the stack deleted; the table is
      // kept): a later deploy of the same code writes its generation afresh, to be seen anew.
      onDelete: {
        service: 'DynamoDB',
        action: 'DeleteItem',
        parameters: { TableName: props.table.tableName, Key: { pk: { S: key.pk }, sk: { S: key.sk } } },
      },
      policy: AwsCustomResourcePolicy.fromSdkCalls({ resources: [props.table.tableArn] }),
      installLatestAwsSdk: false,
      memorySize: 256,
    });
    for (const construct of props.after) write.node.addDependency(construct);
    acknowledgeSdkCallHandler(this, 'the functions’ generation, written to the table after a deploy');
  }
}
