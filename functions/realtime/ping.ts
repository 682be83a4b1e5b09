/**
 * The heartbeat: an EventBridge schedule invokes it every few minutes (infra/cdk/realtime.ts), and
 * it pings every open connection (shared/realtime/heartbeat.ts). With none, one Query.
 */
import { log, withLogContext } from '#shared/core/log.ts';
import { pingConnections } from '#shared/realtime/heartbeat.ts';

export const handler = async (): Promise<{ pinged: number; gone: number }> =>
  withLogContext({}, async () => {
    const result = await pingConnections();
    log.info('realtime', { route: 'ping', ...result });
    return result;
  });
