import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import * as keys from '#shared/db/item-keys.ts';
import { sessionUseAttributes } from '#shared/model/session.ts';

/**
 * What authenticating with a session may write, for a function that otherwise only reads the
 * table: UpdateItem of session items only, of their use's attributes only (the PIN unlock kept,
 * the device refreshed: docs/immich-compatibility.md, "Sessions and their devices").
 */
export const sessionUseStatement = (table: ITableV2): PolicyStatement =>
  new PolicyStatement({
    actions: ['dynamodb:UpdateItem'],
    resources: [table.tableArn],
    conditions: {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${keys.session('').pk}*`] },
      'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', ...sessionUseAttributes] },
      StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
    },
  });
