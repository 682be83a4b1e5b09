import { describe, expect, it } from 'vitest';
import {
  dynamoDbAuthorizations,
  executeApiAuthorizations,
  isAllowed,
  s3Authorizations,
  secretsManagerAuthorizations,
} from '#infra/local/deployed/iam.ts';

const table = 'arn:aws:dynamodb:us-east-1:000000000000:table/immich';
const tableArn = (name: string) => `arn:aws:dynamodb:us-east-1:000000000000:table/${name}`;

describe('IAM evaluation (as AWS evaluates identity policies)', () => {
  const statements = [
    { Effect: 'Allow' as const, Action: ['dynamodb:GetItem', 'dynamodb:Query'], Resource: [table, `${table}/index/*`] },
    { Effect: 'Allow' as const, Action: ['s3:Put*'], Resource: ['arn:aws:s3:::originals/*'] },
    { Effect: 'Deny' as const, Action: ['s3:PutObject'], Resource: ['arn:aws:s3:::originals/private/*'] },
  ];

  it('allows only a listed action on a listed resource; wildcards in both, actions case-insensitive', () => {
    expect(isAllowed(statements, { action: 'dynamodb:GetItem', resource: table })).toBe(true);
    expect(isAllowed(statements, { action: 'DynamoDB:getitem', resource: table })).toBe(true);
    expect(isAllowed(statements, { action: 'dynamodb:Query', resource: `${table}/index/gsi1` })).toBe(true);
    expect(isAllowed(statements, { action: 'dynamodb:Scan', resource: table })).toBe(false);
    expect(isAllowed(statements, { action: 'dynamodb:GetItem', resource: `${table}-other` })).toBe(false);
    expect(isAllowed(statements, { action: 'dynamodb:GetItem', resource: tableArn('Immich') })).toBe(false);
    expect(isAllowed(statements, { action: 's3:PutObject', resource: 'arn:aws:s3:::originals/upload/a/b.jpg' })).toBe(true);
    expect(isAllowed(statements, { action: 's3:GetObject', resource: 'arn:aws:s3:::originals/upload/a/b.jpg' })).toBe(false);
  });

  it('evaluates a statement’s DynamoDB conditions: a read-only role may update session items’ use attributes only', () => {
    const readOnly = [
      { Effect: 'Allow' as const, Action: ['dynamodb:GetItem'], Resource: [table] },
      {
        Effect: 'Allow' as const,
        Action: ['dynamodb:UpdateItem'],
        Resource: [table],
        Condition: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['SESSION#*'] },
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'pinExpiresAt'] },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
        },
      },
    ];
    const update = (request: Record<string, unknown>) => {
      const [needed] = dynamoDbAuthorizations('UpdateItem', { TableName: 'immich', ...request }, tableArn);
      return isAllowed(readOnly, needed ?? { action: '', resource: '' });
    };
    const session = { Key: { pk: { S: 'SESSION#abc' }, sk: { S: 'SESSION' } } };
    expect(
      update({
        ...session,
        UpdateExpression: 'SET pinExpiresAt = :to',
        ConditionExpression: 'pinExpiresAt = :from AND attribute_exists(pk)',
      }),
    ).toBe(true);
    expect(update({ ...session, UpdateExpression: 'SET #p = :to', ExpressionAttributeNames: { '#p': 'pinExpiresAt' } })).toBe(true);
    // Another attribute of the session (what authenticating trusts), another item, or the item sent back: refused.
    expect(update({ ...session, UpdateExpression: 'SET isAdmin = :yes' })).toBe(false);
    expect(update({ ...session, UpdateExpression: 'SET #a = :yes', ExpressionAttributeNames: { '#a': 'isAdmin' } })).toBe(false);
    expect(update({ ...session, UpdateExpression: 'SET pinExpiresAt = :to, userId = :u' })).toBe(false);
    expect(update({ Key: { pk: { S: 'USER#abc' }, sk: { S: 'USER' } }, UpdateExpression: 'SET pinExpiresAt = :to' })).toBe(false);
    expect(update({ ...session, UpdateExpression: 'SET pinExpiresAt = :to', ReturnValues: 'ALL_NEW' })).toBe(false);
    // In a transaction too, item by item.
    const [inTransaction] = dynamoDbAuthorizations(
      'TransactWriteItems',
      { TransactItems: [{ Update: { TableName: 'immich', ...session, UpdateExpression: 'SET isAdmin = :yes' } }] },
      tableArn,
    );
    expect(isAllowed(readOnly, inTransaction ?? { action: '', resource: '' })).toBe(false);
  });

  it('evaluates StringEquals as IAM does: the request’s key must be there and equal one of the values (the transcode function’s PassRole)', () => {
    const role = 'arn:aws:iam::000000000000:role/MediaConvertRole';
    const passRole = [
      {
        Effect: 'Allow' as const,
        Action: ['iam:PassRole'],
        Resource: [role],
        Condition: { StringEquals: { 'iam:PassedToService': ['mediaconvert.amazonaws.com'] } },
      },
    ];
    const pass = (context?: Record<string, string[]>) =>
      isAllowed(passRole, { action: 'iam:PassRole', resource: role, ...(context ? { context } : {}) });
    expect(pass({ 'iam:PassedToService': ['mediaconvert.amazonaws.com'] })).toBe(true);
    expect(pass({ 'iam:PassedToService': ['lambda.amazonaws.com'] })).toBe(false);
    expect(pass()).toBe(false);
  });

  it('evaluates StringLike on a listing’s s3:prefix: the functions that run models list models/ and nothing else', () => {
    const models = [
      {
        Effect: 'Allow' as const,
        Action: ['s3:ListBucket'],
        Resource: ['arn:aws:s3:::originals'],
        Condition: { StringLike: { 's3:prefix': ['models/*'] } },
      },
    ];
    const list = (query: string) =>
      s3Authorizations('GET', new URL(`http://s3.local/originals?list-type=2${query}`)).every((needed) => isAllowed(models, needed));
    expect(list('&prefix=models/clip/ViT-B-32__openai/textual/model.onnx')).toBe(true);
    expect(list('&prefix=upload/')).toBe(false);
    // A listing of the whole bucket names no prefix: IAM's StringLike fails on a missing key.
    expect(list('')).toBe(false);
  });

  it('lets an explicit Deny win over an Allow', () => {
    expect(isAllowed(statements, { action: 's3:PutObject', resource: 'arn:aws:s3:::originals/private/x' })).toBe(false);
  });
});

describe('what each AWS call needs', () => {
  it('DynamoDB: a transaction per item and kind, a batch per table, a Query on an index against the index', () => {
    expect(
      dynamoDbAuthorizations(
        'TransactWriteItems',
        {
          TransactItems: [
            { Put: { TableName: 'immich' } },
            { ConditionCheck: { TableName: 'immich' } },
            { Delete: { TableName: 'other' } },
          ],
        },
        tableArn,
      ),
    ).toEqual([
      { action: 'dynamodb:PutItem', resource: table },
      { action: 'dynamodb:ConditionCheckItem', resource: table },
      { action: 'dynamodb:DeleteItem', resource: tableArn('other') },
    ]);
    expect(dynamoDbAuthorizations('BatchGetItem', { RequestItems: { immich: {} } }, tableArn)).toEqual([
      { action: 'dynamodb:BatchGetItem', resource: table },
    ]);
    expect(dynamoDbAuthorizations('Query', { TableName: 'immich', IndexName: 'gsi2' }, tableArn)).toEqual([
      { action: 'dynamodb:Query', resource: `${table}/index/gsi2` },
    ]);
  });

  it('S3 (path style): objects by key, exact versions and multipart steps, bucket listings', () => {
    const url = (path: string) => new URL(path, 'http://s3.local');
    expect(s3Authorizations('PUT', url('/originals/upload/a%20b.jpg'))).toEqual([
      { action: 's3:PutObject', resource: 'arn:aws:s3:::originals/upload/a b.jpg' },
    ]);
    expect(s3Authorizations('DELETE', url('/originals/k?versionId=v1'))).toEqual([
      { action: 's3:DeleteObjectVersion', resource: 'arn:aws:s3:::originals/k' },
    ]);
    expect(s3Authorizations('DELETE', url('/originals/k'))).toEqual([{ action: 's3:DeleteObject', resource: 'arn:aws:s3:::originals/k' }]);
    expect(s3Authorizations('DELETE', url('/originals/k?uploadId=u'))).toEqual([
      { action: 's3:AbortMultipartUpload', resource: 'arn:aws:s3:::originals/k' },
    ]);
    expect(s3Authorizations('GET', url('/originals/k?versionId=v1'))).toEqual([
      { action: 's3:GetObjectVersion', resource: 'arn:aws:s3:::originals/k' },
    ]);
    expect(s3Authorizations('GET', url('/originals?versions'))).toEqual([
      { action: 's3:ListBucketVersions', resource: 'arn:aws:s3:::originals' },
    ]);
  });

  it('S3 tags: their own actions, and a PutObject or CreateMultipartUpload with x-amz-tagging needs PutObjectTagging too', () => {
    const url = (path: string) => new URL(path, 'http://s3.local');
    const object = 'arn:aws:s3:::originals/k';
    expect(s3Authorizations('PUT', url('/originals/k?tagging'))).toEqual([{ action: 's3:PutObjectTagging', resource: object }]);
    expect(s3Authorizations('DELETE', url('/originals/k?tagging'))).toEqual([{ action: 's3:DeleteObjectTagging', resource: object }]);
    expect(s3Authorizations('GET', url('/originals/k?tagging&versionId=v'))).toEqual([
      { action: 's3:GetObjectVersionTagging', resource: object },
    ]);
    expect(s3Authorizations('POST', url('/originals/k?uploads'), { 'x-amz-tagging': 'ingress=pending' })).toEqual([
      { action: 's3:PutObject', resource: object },
      { action: 's3:PutObjectTagging', resource: object },
    ]);
    // With the listing's prefix (`s3:prefix`, a condition key of every listing).
    expect(s3Authorizations('GET', url('/originals?uploads&prefix=upload/'))).toEqual([
      { action: 's3:ListBucketMultipartUploads', resource: 'arn:aws:s3:::originals', context: { 's3:prefix': ['upload/'] } },
    ]);
  });

  it('Secrets Manager: the secret by its id', () => {
    expect(secretsManagerAuthorizations('GetSecretValue', { SecretId: 'arn:s' })).toEqual([
      { action: 'secretsmanager:GetSecretValue', resource: 'arn:s' },
    ]);
  });
});

describe('the WebSocket API’s management API (execute-api:ManageConnections)', () => {
  const where = { region: 'us-east-1', account: '000000000000', apiId: 'RealtimeApi1234' };
  it('names the connection, the stage and the method, as API Gateway authorizes a post', () => {
    expect(executeApiAuthorizations('POST', new URL('http://gw/live/@connections/L0SM9cOFvHcCIhw%3D'), where)).toEqual([
      {
        action: 'execute-api:ManageConnections',
        resource: 'arn:aws:execute-api:us-east-1:000000000000:RealtimeApi1234/live/POST/@connections/L0SM9cOFvHcCIhw%3D',
      },
    ]);
  });

  it('lets a grant of POST on the stage’s connections post, and never read or close one', () => {
    const grant = [
      {
        Effect: 'Allow' as const,
        Action: ['execute-api:ManageConnections'],
        Resource: ['arn:aws:execute-api:us-east-1:000000000000:RealtimeApi1234/live/POST/@connections/*'],
      },
    ];
    const needs = (method: string) => executeApiAuthorizations(method, new URL('http://gw/live/@connections/abc='), where)[0];
    expect(isAllowed(grant, needs('POST') ?? { action: '', resource: '' })).toBe(true);
    expect(isAllowed(grant, needs('GET') ?? { action: '', resource: '' })).toBe(false);
    expect(isAllowed(grant, needs('DELETE') ?? { action: '', resource: '' })).toBe(false);
    // Any other path is no management call at all.
    expect(executeApiAuthorizations('POST', new URL('http://gw/live/other'), where)[0]?.action).toBe('execute-api:Unknown');
  });
});
