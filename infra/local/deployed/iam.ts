/**
 * IAM as AWS evaluates a function's identity policies, for what the functions call: an action
 * on a resource is allowed when an Allow statement matches both and no Deny does; `*` and `?`
 * are wildcards (matching across `:` and `/` as in IAM), actions compare case-insensitively.
 * The request classifiers say which actions on which resources an AWS API call needs, as the
 * service authorizes it (a DynamoDB transaction is authorized per item, a Query on an index
 * against `table/<name>/index/<index>`, an S3 object by `arn:aws:s3:::<bucket>/<key>`).
 */
/** A statement of a role's policy, as the template holds it (infra/local/deployed/assembly.ts reads it). */
export interface PolicyStatement {
  Effect: 'Allow' | 'Deny';
  Action: string[];
  Resource: string[];
  /** Operator → condition key → values (only the operators evaluated here: `evaluatedOperators`). */
  Condition?: Record<string, Record<string, string[]>>;
}

export interface Authorization {
  action: string;
  resource: string;
  /** The request's condition keys (`dynamodb:LeadingKeys`, `dynamodb:Attributes`…), where the call has them. */
  context?: Record<string, string[]>;
}

const pattern = (glob: string, flags = ''): RegExp =>
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    flags,
  );

/**
 * The condition operators evaluated here, as IAM evaluates them: `ForAllValues:` holds when every
 * value of the request's key matches one of the statement's (so also when the key is absent or
 * empty); `…IfExists` holds when the key is absent, else as the operator without it; the plain
 * operator needs the key.
 */
const operators: Record<string, (values: string[] | undefined, allowed: string[]) => boolean> = {
  'ForAllValues:StringLike': (values, allowed) => (values ?? []).every((value) => allowed.some((glob) => pattern(glob).test(value))),
  'ForAllValues:StringEquals': (values, allowed) => (values ?? []).every((value) => allowed.includes(value)),
  // The functions that run models may list only `models/` (`s3:prefix`: infra/cdk/machine-learning.ts).
  StringLike: (values, allowed) => values?.some((value) => allowed.some((glob) => pattern(glob).test(value))) ?? false,
  StringEqualsIfExists: (values, allowed) => values === undefined || values.some((value) => allowed.includes(value)),
  // The transcode function's iam:PassRole (`iam:PassedToService`): false when the request has no such key, as IAM's.
  StringEquals: (values, allowed) => values?.some((value) => allowed.includes(value)) ?? false,
};

/** What a statement's Condition may use: anything else is refused when the template is read (assembly.ts). */
export const evaluatedOperators: ReadonlySet<string> = new Set(Object.keys(operators));

const conditionHolds = (statement: PolicyStatement, context: Authorization['context']): boolean =>
  Object.entries(statement.Condition ?? {}).every(([operator, entries]) =>
    Object.entries(entries).every(([key, allowed]) => operators[operator]?.(context?.[key], allowed) ?? false),
  );

const matches = (statement: PolicyStatement, { action, resource, context }: Authorization): boolean =>
  statement.Action.some((glob) => pattern(glob, 'i').test(action)) &&
  statement.Resource.some((glob) => pattern(glob).test(resource)) &&
  conditionHolds(statement, context);

/** Whether the statements allow the action on the resource. */
export const isAllowed = (statements: readonly PolicyStatement[], request: Authorization): boolean =>
  statements.some((s) => s.Effect === 'Allow' && matches(s, request)) &&
  !statements.some((s) => s.Effect === 'Deny' && matches(s, request));

type Body = Record<string, unknown>;

const expressionWords = new Set(['SET', 'REMOVE', 'ADD', 'DELETE', 'AND', 'OR', 'NOT', 'BETWEEN', 'IN']);

/**
 * DynamoDB's condition keys of a request on one item: the partition key's value (`dynamodb:LeadingKeys`),
 * the top-level attributes it names (`dynamodb:Attributes`: its key's, its update's and its
 * condition's, placeholders resolved; function names left out) and `dynamodb:ReturnValues` if sent.
 */
const itemContext = (request: Body): Record<string, string[]> => {
  const key = (request.Key ?? {}) as Record<string, Record<string, unknown>>;
  const names = (request.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const expressions = [request.UpdateExpression, request.ConditionExpression].filter((each) => typeof each === 'string').join(' ');
  const named = [...expressions.replace(/:\w+/g, ' ').matchAll(/(?<![.\w#])(#\w+|[A-Za-z_]\w*)(\s*\()?/g)]
    .filter(([, word = '', call]) => !call && !expressionWords.has(word.toUpperCase()))
    .map(([, word = '']) => (word.startsWith('#') ? (names[word] ?? word) : word));
  const leading = key.pk ? Object.values(key.pk).map(String) : [];
  return {
    'dynamodb:LeadingKeys': leading,
    'dynamodb:Attributes': [...new Set([...Object.keys(key), ...named])],
    ...(typeof request.ReturnValues === 'string' ? { 'dynamodb:ReturnValues': [request.ReturnValues] } : {}),
  };
};

/** A DynamoDB call (`X-Amz-Target: DynamoDB_20120810.<Operation>`, JSON body) → what it needs. */
export const dynamoDbAuthorizations = (operation: string, body: Body, tableArn: (name: string) => string): Authorization[] => {
  const table = (name: unknown, index?: unknown): string => `${tableArn(String(name))}${index ? `/index/${String(index)}` : ''}`;
  switch (operation) {
    case 'BatchGetItem':
    case 'BatchWriteItem':
      return Object.keys((body.RequestItems as Body | undefined) ?? {}).map((name) => ({
        action: `dynamodb:${operation}`,
        resource: table(name),
      }));
    case 'TransactWriteItems':
    case 'TransactGetItems':
      return ((body.TransactItems as Body[] | undefined) ?? []).flatMap((item) =>
        Object.entries(item).map(([kind, part]) => ({
          action: `dynamodb:${{ Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem', Get: 'GetItem' }[kind] ?? kind}`,
          resource: table((part as Body).TableName),
          ...(kind === 'Update' ? { context: itemContext(part as Body) } : {}),
        })),
      );
    case 'Query':
    case 'Scan':
      return [{ action: `dynamodb:${operation}`, resource: table(body.TableName, body.IndexName) }];
    case 'UpdateItem':
      return [{ action: 'dynamodb:UpdateItem', resource: table(body.TableName), context: itemContext(body) }];
    default:
      return [{ action: `dynamodb:${operation}`, resource: table(body.TableName) }];
  }
};

/**
 * An S3 call in path style (`/<bucket>/<key>?…`) → what it needs. Tags are their own actions
 * (`?tagging`), and a PutObject or CreateMultipartUpload carrying `x-amz-tagging` needs
 * s3:PutObjectTagging as well (https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutObject.html).
 */
export const s3Authorizations = (method: string, url: URL, headers: Record<string, unknown> = {}): Authorization[] => {
  const [, bucket = '', ...rest] = url.pathname.split('/');
  const key = rest.map(decodeURIComponent).join('/');
  const object = `arn:aws:s3:::${bucket}/${key}`;
  const query = url.searchParams;
  if (!key) {
    if (method === 'POST' && query.has('delete')) return [{ action: 's3:DeleteObject', resource: `arn:aws:s3:::${bucket}/*` }];
    if (method === 'GET' || method === 'HEAD')
      return [
        {
          action: query.has('versions')
            ? 's3:ListBucketVersions'
            : query.has('uploads')
              ? 's3:ListBucketMultipartUploads'
              : 's3:ListBucket',
          resource: `arn:aws:s3:::${bucket}`,
          // A listing's prefix, for a policy that allows only some (`s3:prefix`); none when the listing names none.
          ...(query.has('prefix') ? { context: { 's3:prefix': [query.get('prefix') ?? ''] } } : {}),
        },
      ];
    return [
      {
        action: `s3:${method === 'PUT' ? 'CreateBucket' : method === 'DELETE' ? 'DeleteBucket' : method}`,
        resource: `arn:aws:s3:::${bucket}`,
      },
    ];
  }
  const versioned = query.has('versionId');
  if (query.has('tagging')) {
    const verb = method === 'PUT' ? 'Put' : method === 'DELETE' ? 'Delete' : 'Get';
    return [{ action: `s3:${verb}Object${versioned ? 'Version' : ''}Tagging`, resource: object }];
  }
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (query.has('uploadId')) return [{ action: 's3:ListMultipartUploadParts', resource: object }];
      return [{ action: versioned ? 's3:GetObjectVersion' : 's3:GetObject', resource: object }];
    case 'PUT':
    case 'POST':
      // PutObject, and the steps of a multipart upload (create, part, complete) are all PutObject.
      return [
        { action: 's3:PutObject', resource: object },
        ...(headers['x-amz-tagging'] !== undefined ? [{ action: 's3:PutObjectTagging', resource: object }] : []),
      ];
    case 'DELETE':
      if (query.has('uploadId')) return [{ action: 's3:AbortMultipartUpload', resource: object }];
      return [{ action: versioned ? 's3:DeleteObjectVersion' : 's3:DeleteObject', resource: object }];
    default:
      return [{ action: `s3:${method}`, resource: object }];
  }
};

/** Lambda's Invoke (`POST /2015-03-31/functions/<name or ARN>/invocations`): lambda:InvokeFunction on the function's ARN. */
export const lambdaAuthorizations = (url: URL, where: { region: string; account: string }): Authorization[] => {
  const name = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(url.pathname)?.[1];
  if (!name) return [{ action: 'lambda:Unknown', resource: url.pathname }];
  const decoded = decodeURIComponent(name);
  const arn = decoded.startsWith('arn:') ? decoded : `arn:aws:lambda:${where.region}:${where.account}:function:${decoded}`;
  return [{ action: 'lambda:InvokeFunction', resource: arn }];
};

/**
 * API Gateway's management API (`<METHOD> /<stage>/@connections/<id>`): execute-api:ManageConnections
 * on `arn:aws:execute-api:<region>:<account>:<api id>/<stage>/<METHOD>/@connections/<id>`. The API is
 * the one the endpoint names deployed (`<api id>.execute-api…`); here, the deployment's WebSocket API.
 */
export const executeApiAuthorizations = (
  method: string,
  url: URL,
  where: { region: string; account: string; apiId: string | undefined },
): Authorization[] => {
  const match = /^\/([^/]+)\/@connections\/([^/]+)$/.exec(url.pathname);
  if (!match || !where.apiId) return [{ action: 'execute-api:Unknown', resource: url.pathname }];
  return [
    {
      action: 'execute-api:ManageConnections',
      resource: `arn:aws:execute-api:${where.region}:${where.account}:${where.apiId}/${match[1]}/${method}/@connections/${match[2]}`,
    },
  ];
};

/**
 * A CloudWatch Logs call (`X-Amz-Target: Logs_20140328.<Operation>`): a stream's actions on
 * `arn:aws:logs:<region>:<account>:log-group:<group>:log-stream:<stream>`, others on the group.
 */
export const logsAuthorizations = (operation: string, body: Body, where: { region: string; account: string }): Authorization[] => {
  const group = `arn:aws:logs:${where.region}:${where.account}:log-group:${String(body.logGroupName ?? '')}`;
  return [
    {
      action: `logs:${operation}`,
      resource: body.logStreamName === undefined ? `${group}:*` : `${group}:log-stream:${String(body.logStreamName)}`,
    },
  ];
};

/** A Secrets Manager call (`X-Amz-Target: secretsmanager.<Operation>`) → what it needs. */
export const secretsManagerAuthorizations = (operation: string, body: Body): Authorization[] => [
  { action: `secretsmanager:${operation}`, resource: String(body.SecretId ?? '*') },
];
