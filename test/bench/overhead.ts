import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { handler as pingServer } from '#functions/server-info/ping-server.ts';
import { toApiGatewayEvent } from '#infra/local/http-event.ts';
import { median, table } from './stats.ts';

const context = { awsRequestId: 'bench', getRemainingTimeInMillis: () => 30_000 } as Context;

/** Mean µs per call of a warm handler, over `calls` calls, in `rounds` rounds (median round). */
export const perCallMicros = async (
  handler: (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>,
  event: APIGatewayProxyEventV2,
  calls = 20_000,
  rounds = 5,
): Promise<number> => {
  for (let i = 0; i < 2_000; i++) await handler(event, context); // warm up the JIT
  const results: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await handler(event, context);
    results.push(Number(process.hrtime.bigint() - start) / 1_000 / calls);
  }
  return median(results);
};

export const overheadSection = {
  name: 'overhead',
  async run(): Promise<string> {
    process.env.LOG_LEVEL = 'silent';
    const ping = toApiGatewayEvent({ method: 'GET', url: '/api/server-info/ping' }, { routeKey: 'GET /api/server-info/ping' });
    const stack = await perCallMicros(pingServer as never, ping);
    return [
      'Warm per-request cost of the shared middy stack (request id, error mapping, JSON response) around a handler that does no I/O; budget 15 µs.',
      '',
      table(['what', 'µs per request'], [['ping through the full stack', stack.toFixed(2)]]),
    ].join('\n');
  },
};
