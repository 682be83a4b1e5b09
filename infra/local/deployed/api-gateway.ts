/**
 * API Gateway's HTTP API in front of the deployed functions, as it behaves in AWS: routes from the
 * template, payload format 2.0 events, a 10 MB request limit answered before any function runs,
 * Lambda's 6 MB invocation payload limit both ways, and API Gateway's own bodies for each failure
 * (a function that throws, crashes or passes its timeout → 500 `Internal Server Error`).
 */
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { RoutedMethod } from '../../routes.ts';
import { toApiGatewayEvent } from '../http-event.ts';
import { readBody } from '../read-body.ts';
import { createRouteMatcher } from '../route-matcher.ts';
import type { Deployment } from './assembly.ts';
import type { FunctionPool } from './lambda-pool.ts';

/** HTTP API's largest request (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html). */
export const apiGatewayMaxBodyBytes = 10 * 1024 * 1024;
/** Lambda's largest synchronous invocation request and response ("6 MB", as its errors count them). */
export const lambdaMaxRequestBytes = 6_291_456;
export const lambdaMaxResponseBytes = 6_291_556;

const answer = (res: ServerResponse, status: number, message: string, requestId: string): void => {
  const body = JSON.stringify({ message });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'apigw-requestid': requestId });
  res.end(body);
};

const isStructured = (result: unknown): result is APIGatewayProxyStructuredResultV2 =>
  typeof result === 'object' && result !== null && 'statusCode' in result;

export interface ApiGatewayOptions {
  deployment: Deployment;
  pools: ReadonlyMap<string, FunctionPool>;
  /** Told of every failed invocation (the server prints them, as CloudWatch would hold them). */
  onFailure?: (functionId: string, message: string) => void;
  /**
   * What answers before the API, as CloudFront does deployed (the web app, the upload routes'
   * function: start.ts); true when it answered. It may change the request's url and headers first.
   */
  edge?: (req: IncomingMessage, res: ServerResponse, path: string) => boolean | Promise<boolean>;
}

export const createApiGateway = ({ deployment, pools, onFailure, edge }: ApiGatewayOptions): Server => {
  const rows = deployment.routes.map((route) => {
    const [method = 'ANY', path = '/'] = route.routeKey.split(' ');
    return { method: method as RoutedMethod, path, functionId: route.functionId };
  });
  const match = createRouteMatcher(rows);

  return createServer(async (req, res) => {
    if (await edge?.(req, res, (req.url ?? '/').split('?')[0] ?? '/')) return;
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const found = match(method, url.split('?')[0] ?? '/');
    const pool = found && pools.get(found.route.functionId);
    if (!found || !pool) return answer(res, 404, 'Not Found', '');
    const declared = Number(req.headers['content-length']);
    const body = Number.isFinite(declared) && declared > apiGatewayMaxBodyBytes ? 'too-large' : await readBody(req, apiGatewayMaxBodyBytes);
    if (body === 'too-large') {
      res.setHeader('connection', 'close');
      return answer(res, 413, 'Request Entity Too Large', '');
    }
    const event = toApiGatewayEvent(
      { method, url, headers: req.headers, body, sourceIp: req.socket.remoteAddress ?? '127.0.0.1' },
      { routeKey: found.routeKey, pathParameters: found.pathParameters },
    );
    const { requestId } = event.requestContext;
    if (Buffer.byteLength(JSON.stringify(event)) > lambdaMaxRequestBytes) return answer(res, 413, 'Request Entity Too Large', requestId);
    const { fn } = pool;
    const name = fn.id.split('/').pop() ?? fn.id;
    const outcome = await pool.invoke(event, {
      callbackWaitsForEmptyEventLoop: true,
      functionName: name,
      functionVersion: '$LATEST',
      invokedFunctionArn: `arn:aws:lambda:${deployment.region}:${deployment.account}:function:${name}`,
      memoryLimitInMB: String(fn.memoryMb),
      awsRequestId: requestId,
      logGroupName: `/local/${name}`,
      logStreamName: 'local',
    });
    if (!outcome.ok) {
      onFailure?.(fn.id, outcome.message);
      return answer(res, 500, 'Internal Server Error', requestId);
    }
    if (Buffer.byteLength(JSON.stringify(outcome.result) ?? '') > lambdaMaxResponseBytes) {
      onFailure?.(fn.id, 'Response payload size exceeded maximum allowed payload size (6291556 bytes).');
      return answer(res, 500, 'Internal Server Error', requestId);
    }
    // Payload format 2.0: a result without statusCode is a JSON body with 200.
    const result = isStructured(outcome.result)
      ? outcome.result
      : { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(outcome.result) };
    const headers: OutgoingHttpHeaders = { 'apigw-requestid': requestId };
    for (const [header, value] of Object.entries(result.headers ?? {})) headers[header.toLowerCase()] = String(value);
    if (result.cookies?.length) headers['set-cookie'] = result.cookies;
    const payload = result.body === undefined ? '' : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
    res.writeHead(result.statusCode ?? 200, headers);
    res.end(payload);
  });
};
