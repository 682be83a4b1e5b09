/**
 * Function URLs (AWS::Lambda::Url) of the deployed functions, as Lambda serves them: payload
 * format 2.0 events (route key `$default`), and for RESPONSE_STREAM mode the answer's status,
 * headers and bytes as the function writes them. The CloudFront edge (start.ts) sends a streaming
 * route's requests here with the distribution's origin header; the URL itself is public, as deployed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toApiGatewayEvent } from '../http-event.ts';
import { readBody } from '../read-body.ts';
import type { DeployedFunctionUrl, Deployment } from './assembly.ts';
import type { FunctionPool } from './lambda-pool.ts';

/** A function URL's largest request (Lambda's synchronous invocation payload). */
const maxRequestBytes = 6_291_456;

const fail = (res: ServerResponse, status: number, message: string): void => {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ Message: message }));
};

/** Serves one request through a function URL; `headers` are added to the request (CloudFront's origin headers). */
export const serveFunctionUrl = async (
  deployment: Deployment,
  url: DeployedFunctionUrl,
  pool: FunctionPool,
  req: IncomingMessage,
  res: ServerResponse,
  headers: Record<string, string> = {},
): Promise<void> => {
  const body = await readBody(req, maxRequestBytes);
  if (body === 'too-large') return fail(res, 413, 'Request must be smaller than 6291456 bytes for the InvokeWithResponseStream operation');
  const event = toApiGatewayEvent(
    {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: { ...req.headers, ...headers },
      body,
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
    },
    { routeKey: '$default' },
  );
  const name = pool.fn.id.split('/').pop() ?? pool.fn.id;
  const context = {
    callbackWaitsForEmptyEventLoop: true,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${deployment.region}:${deployment.account}:function:${name}`,
    memoryLimitInMB: String(pool.fn.memoryMb),
    awsRequestId: event.requestContext.requestId,
    logGroupName: `/local/${name}`,
    logStreamName: 'local',
  };
  if (url.invokeMode !== 'RESPONSE_STREAM') return fail(res, 502, 'Only RESPONSE_STREAM function URLs are served locally');
  const outcome = await pool.invoke(event, context, {
    prelude: (prelude) => {
      const { statusCode = 200, headers: answer = {} } = prelude as { statusCode?: number; headers?: Record<string, string> };
      res.writeHead(statusCode, answer);
    },
    chunk: (bytes) =>
      new Promise<void>((resolve) => {
        if (!res.headersSent) res.writeHead(200, { 'content-type': 'application/octet-stream' });
        // A client gone is no reason to hold the function: what it writes then goes nowhere, as deployed.
        if (res.destroyed || res.write(bytes)) resolve();
        else {
          res.once('drain', () => resolve());
          res.once('close', () => resolve());
        }
      }),
  });
  if (!outcome.ok) return fail(res, 502, outcome.message);
  if (!res.headersSent) res.writeHead(200);
  res.end();
};
