import { inBatches } from '../core/concurrency.ts';
import { log } from '../core/log.ts';
import * as connectionRepo from '../db/connection.repository.ts';
import { pingPacket } from './engine-io.ts';
import { managementApi } from './management.ts';

/**
 * The heartbeat (Engine.IO's ping, which the client answers with a pong): every open connection,
 * on a schedule (infra/cdk/realtime.ts). It keeps Immich's web app from closing its socket (it
 * does when no ping comes within the interval its open packet advertised and the timeout after
 * it) and API Gateway from closing an idle one (10 minutes). A connection that is gone (410) is
 * deleted. With no connection it costs one Query.
 */
export const pingConnections = async (): Promise<{ pinged: number; gone: number }> => {
  const connections = await connectionRepo.list();
  if (connections.length === 0) return { pinged: 0, gone: 0 };
  const api = await managementApi();
  if (!api) throw new Error('No management API to ping the connections with (REALTIME_ENDPOINT)');
  let gone = 0;
  await inBatches(connections, 10, async (connection) => {
    try {
      if ((await api.post(connection.connectionId, pingPacket)) === 'sent') return;
      gone++;
      await connectionRepo.remove(connection.connectionId);
    } catch (error) {
      log.warn('A connection was not pinged', { error: String(error) });
    }
  });
  return { pinged: connections.length - gone, gone };
};
