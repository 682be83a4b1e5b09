/**
 * The AWS endpoint the deployed functions reach when served locally (`npm run start:deployed`):
 * every DynamoDB, S3 and Secrets Manager call a function makes comes here first, is checked
 * against that function's IAM policy from the template (the caller is known by the access key id
 * it signs with, one per function, as a role session is in AWS), and is then passed to DynamoDB
 * Local or the S3-compatible server, or answered (the one secret). A call the policy does not
 * allow gets the service's `AccessDenied` answer, as in AWS.
 */
import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import type { DeployedFunction, Deployment } from './assembly.ts';
import {
  type Authorization,
  dynamoDbAuthorizations,
  executeApiAuthorizations,
  isAllowed,
  lambdaAuthorizations,
  logsAuthorizations,
  s3Authorizations,
  secretsManagerAuthorizations,
} from './iam.ts';
import { multipartAnswer } from './s3-multipart.ts';

/** Who signs a call: a function, or the ingress (its instance profile's role), by id and role. */
export type AwsCaller = Pick<DeployedFunction, 'id' | 'roleArn'>;

export interface AwsGatewayOptions {
  deployment: Deployment;
  /** Access key id → the function (or the ingress) signing with it. */
  callers: ReadonlyMap<string, AwsCaller>;
  dynamoDb: { endpoint: string; accessKeyId: string };
  /** s3rver, and the folder it keeps its data in (its unfinished multipart uploads: s3-multipart.ts). */
  s3: { endpoint: string; accessKeyId: string; directory: string };
  secret: { arn: string; value: string };
  /** The OAuth settings' secret of a `-c oauth=cognito` template, when it has one (its value read at each call). */
  oauthSecret?: { arn: string; value: () => string };
  /**
   * An asynchronous Lambda invocation (`InvocationType: Event`) of the function with this ARN;
   * false when no such function is served.
   */
  invokeAsync?: (functionArn: string, payload: Buffer) => boolean;
  /** Told of every refused call (the server prints them). */
  onDenied?: (caller: AwsCaller, denied: Authorization) => void;
  /** The WebSocket API's management API (PostToConnection…), once its caller is allowed (infra/local/websocket-api.ts). */
  manageConnection?: (
    method: string,
    path: string,
    body: Buffer,
  ) => { status: number; headers: Record<string, string>; body: string } | undefined;
}

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** `AWS4-HMAC-SHA256 Credential=<key>/<date>/<region>/<service>/aws4_request, …` (or the same in a presigned URL). */
const credentialOf = (req: IncomingMessage, url: URL): { accessKeyId: string; service: string } | undefined => {
  const credential = /Credential=([^,\s]+)/.exec(req.headers.authorization ?? '')?.[1] ?? url.searchParams.get('X-Amz-Credential') ?? '';
  const [accessKeyId, , , service] = credential.split('/');
  return accessKeyId && service ? { accessKeyId, service } : undefined;
};

const json = (res: ServerResponse, status: number, body: unknown, errorType?: string): void => {
  res.writeHead(status, {
    'content-type': 'application/x-amz-json-1.1',
    'x-amzn-requestid': randomUUID(),
    ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
  });
  res.end(JSON.stringify(body));
};

const xmlError = (res: ServerResponse, status: number, code: string, message: string): void => {
  res.writeHead(status, { 'content-type': 'application/xml', 'x-amz-request-id': randomUUID() });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`)}</Message></Error>`,
  );
};

/** Passes the request on unchanged but for the access key (DynamoDB Local and s3rver check no signature). */
const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, endpoint: string, accessKeyId: string): void => {
  const target = new URL(req.url ?? '/', endpoint);
  // A presigned URL carries the key in its query instead.
  const presigned = target.searchParams.get('X-Amz-Credential');
  if (presigned) target.searchParams.set('X-Amz-Credential', presigned.replace(/^[^/]+\//, `${accessKeyId}/`));
  const headers = { ...req.headers, host: target.host };
  if (headers.authorization) headers.authorization = headers.authorization.replace(/Credential=[^/]+\//, `Credential=${accessKeyId}/`);
  const upstream = httpRequest(target, { method: req.method, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    // An answer cut off upstream ends this response, never the process; a caller gone before the
    // end (ffmpeg reading a presigned URL drops a connection at each seek) ends the upstream read,
    // which would otherwise stay paused and hold s3rver open.
    pipeline(answer, res, () => undefined);
  });
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  upstream.on('error', (error) => {
    if (!res.headersSent) xmlError(res, 502, 'BadGateway', error.message);
    else res.destroy(error);
  });
  upstream.end(body);
};

export const createAwsGateway = (options: AwsGatewayOptions): Server => {
  const { deployment } = options;
  const tableArn = (name: string): string => `arn:aws:dynamodb:${deployment.region}:${deployment.account}:table/${name}`;

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://aws.local');
    const body = await readBody(req);
    const credential = credentialOf(req, url);
    const caller = credential && options.callers.get(credential.accessKeyId);
    if (!credential || !caller) {
      json(
        res,
        400,
        { __type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' },
        'UnrecognizedClientException',
      );
      return;
    }
    const target = String(req.headers['x-amz-target'] ?? '');
    const operation = target.slice(target.indexOf('.') + 1);
    const parsed = (): Record<string, unknown> => (body.length ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : {});
    const needed =
      credential.service === 'dynamodb'
        ? dynamoDbAuthorizations(operation, parsed(), tableArn)
        : credential.service === 's3'
          ? s3Authorizations(req.method ?? 'GET', url, req.headers)
          : credential.service === 'secretsmanager'
            ? secretsManagerAuthorizations(operation, parsed())
            : credential.service === 'lambda'
              ? lambdaAuthorizations(url, deployment)
              : credential.service === 'logs'
                ? logsAuthorizations(operation, parsed(), deployment)
                : credential.service === 'execute-api'
                  ? executeApiAuthorizations(req.method ?? 'GET', url, { ...deployment, apiId: deployment.webSocketApis[0]?.apiId })
                  : [{ action: `${credential.service}:${operation || req.method}`, resource: '*' }];
    const statements = deployment.policies.get(caller.roleArn) ?? [];
    const denied = needed.find((authorization) => !isAllowed(statements, authorization));
    if (denied) {
      options.onDenied?.(caller, denied);
      const roleName = caller.roleArn.split('/').pop();
      const message = `User: arn:aws:sts::${deployment.account}:assumed-role/${roleName}/${caller.id.split('/').pop()} is not authorized to perform: ${denied.action} on resource: ${denied.resource} because no identity-based policy allows the ${denied.action} action`;
      if (credential.service === 's3') xmlError(res, 403, 'AccessDenied', message);
      else if (credential.service === 'execute-api') json(res, 403, { message }, 'ForbiddenException');
      else json(res, 400, { __type: 'com.amazon.coral.service#AccessDeniedException', message, Message: message }, 'AccessDeniedException');
      return;
    }
    switch (credential.service) {
      case 'lambda': {
        const [authorization] = lambdaAuthorizations(url, deployment);
        const asynchronous = req.headers['x-amz-invocation-type'] === 'Event';
        if (!authorization || !asynchronous || !options.invokeAsync?.(authorization.resource, body)) {
          const message = asynchronous
            ? `Function not found: ${authorization?.resource ?? url.pathname}`
            : 'Only asynchronous invocations are served locally';
          json(res, 404, { Type: 'User', Message: message, message }, 'ResourceNotFoundException');
          return;
        }
        res.writeHead(202, { 'x-amzn-requestid': randomUUID() });
        res.end();
        return;
      }
      case 'execute-api': {
        const answer = options.manageConnection?.(req.method ?? 'GET', url.pathname, body);
        if (!answer) {
          json(res, 404, { message: 'Not Found' }, 'NotFoundException');
          return;
        }
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
        return;
      }
      case 'dynamodb':
        return forward(req, res, body, options.dynamoDb.endpoint, options.dynamoDb.accessKeyId);
      case 's3': {
        const answer = await multipartAnswer(options.s3.directory, req.method ?? 'GET', url, body, req.headers);
        if (!answer) return forward(req, res, body, options.s3.endpoint, options.s3.accessKeyId);
        res.writeHead(answer.status, { 'content-type': 'application/xml', 'x-amz-request-id': randomUUID() });
        res.end(answer.body);
        return;
      }
      case 'logs': {
        // The ingress ships its lines here (infra/ingress/); locally they are on its output already.
        if (operation !== 'CreateLogStream' && operation !== 'PutLogEvents') {
          json(
            res,
            400,
            { __type: 'UnknownOperationException', message: `logs:${operation} is not served locally` },
            'UnknownOperationException',
          );
          return;
        }
        json(res, 200, {});
        return;
      }
      case 'secretsmanager': {
        const { SecretId } = parsed();
        const secret =
          SecretId === options.secret.arn
            ? options.secret
            : options.oauthSecret && SecretId === options.oauthSecret.arn
              ? { arn: options.oauthSecret.arn, value: options.oauthSecret.value() }
              : undefined;
        if (operation !== 'GetSecretValue' || !secret) {
          json(
            res,
            400,
            { __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." },
            'ResourceNotFoundException',
          );
          return;
        }
        json(res, 200, {
          ARN: secret.arn,
          Name: secret.arn
            .split(':')
            .pop()
            ?.replace(/-\w{6}$/, ''),
          SecretString: secret.value,
          VersionId: 'local',
          VersionStages: ['AWSCURRENT'],
          CreatedDate: 0,
        });
        return;
      }
      default:
        json(
          res,
          400,
          { __type: 'UnknownOperationException', message: `${credential.service} is not served locally` },
          'UnknownOperationException',
        );
    }
  };

  return createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      // A request the gateway cannot read (a malformed body): the service's own 400.
      if (!res.headersSent) json(res, 400, { __type: 'SerializationException', message: String(error) }, 'SerializationException');
      else res.destroy();
    });
  });
};
