import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { currentUsage, log, metricsNamespace } from '../core/log.ts';

const callerOf = (event: APIGatewayProxyEventV2 & { auth?: unknown }): string | undefined => {
  const auth = event.auth;
  if (typeof auth !== 'object' || auth === null || !('user' in auth)) return undefined;
  const user = auth.user;
  return typeof user === 'object' && user !== null && 'id' in user && typeof user.id === 'string' ? user.id : undefined;
};

/**
 * One structured line per request: route, status, latency, request id (from the log context),
 * the caller's id, what it consumed of DynamoDB (calls, read and write units), and never a header,
 * query string, body or token. The same line is a metric in CloudWatch's embedded metric format:
 * requests, server errors (answered 500s included), latency and DynamoDB usage, by route and
 * status class and in total, with no agent and no extra call.
 */
export const logRequest = (event: APIGatewayProxyEventV2, status: number, latencyMs: number): void =>
  logAccess(event.routeKey, callerOf(event), status, latencyMs);

/** The same line for a request served outside Lambda (the ingress, infra/ingress/): its route key and caller's id. */
export const logAccess = (route: string, callerId: string | undefined, status: number, latencyMs: number): void => {
  const usage = currentUsage() ?? { dynamoCalls: 0, dynamoReadUnits: 0, dynamoWriteUnits: 0 };
  log.info('request', {
    route,
    status,
    statusClass: `${Math.floor(status / 100)}xx`,
    latencyMs: Math.round(latencyMs * 100) / 100,
    ...(callerId ? { callerId } : {}),
    requests: 1,
    serverErrors: status >= 500 ? 1 : 0,
    ...usage,
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [
        {
          Namespace: metricsNamespace,
          Dimensions: [['route', 'statusClass'], []],
          Metrics: [
            { Name: 'requests', Unit: 'Count' },
            { Name: 'serverErrors', Unit: 'Count' },
            { Name: 'latencyMs', Unit: 'Milliseconds' },
            { Name: 'dynamoCalls', Unit: 'Count' },
            { Name: 'dynamoReadUnits', Unit: 'Count' },
            { Name: 'dynamoWriteUnits', Unit: 'Count' },
          ],
        },
      ],
    },
  });
};
