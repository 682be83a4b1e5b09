import { type ConnectionRecord, ConnectionRecordSchema } from '../model/realtime.ts';
import { codec } from './codec.ts';
import * as indexKeys from './index-keys.ts';
import * as keys from './item-keys.ts';
import * as partitions from './partitions.ts';
import { queryAll } from './query.ts';
import { deleteWrite, putWrite, writeOne } from './transact.ts';

/**
 * Immich's realtime connections (docs/data-model.md, "Connections"): an item per open connection,
 * in its user's list (gsi2) and in the list of all (gsi1), so that an event reaches a user's
 * connections, and a broadcast or the heartbeat every connection, with a Query, never reading the whole table.
 */
const connectionCodec = codec('connection', ConnectionRecordSchema);

const now = (): number => Math.floor(Date.now() / 1000);

/** Live ones only: an item past its `ttl` may wait up to two days for DynamoDB to delete it. */
const live = (items: Record<string, unknown>[]): ConnectionRecord[] =>
  items.map(connectionCodec.read).filter((connection) => connection.ttl > now());

export const put = async (connection: ConnectionRecord): Promise<void> => {
  await writeOne(
    putWrite({
      ...keys.connection(connection.connectionId),
      ...indexKeys.connection(connection.userId, connection.connectedAt, connection.connectionId),
      type: 'connection',
      ...connection,
    }),
  );
};

export const remove = async (connectionId: string): Promise<void> => {
  await writeOne(deleteWrite(keys.connection(connectionId)));
};

/** The open connections of these users (one Query each, in parallel); expired ones are left for TTL. */
export const listUserConnections = async (userIds: readonly string[]): Promise<ConnectionRecord[]> =>
  (await Promise.all([...new Set(userIds)].map((userId) => queryAll(partitions.userConnections(userId))))).flatMap(live);

/** Every open connection, oldest first (a broadcast, the heartbeat). */
export const list = async (): Promise<ConnectionRecord[]> => live(await queryAll(partitions.connections()));
