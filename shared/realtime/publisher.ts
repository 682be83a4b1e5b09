import { log } from '../core/log.ts';
import { deleteConnection, listConnections, listUserConnections } from '../db/connection.repository.ts';
import type { ConnectionRecord, LiveEvent } from '../model/realtime.ts';
import { managementApi } from './management.ts';
import { payloads } from './payloads.ts';

/** Who an event is for (Immich's rooms: a user's, a session's, or everyone). */
type Audience = { users: readonly string[] } | { session: { userId: string; sessionHash: string } } | 'everyone';

const audienceOf = (event: LiveEvent): Audience => {
  switch (event.kind) {
    case 'asset-uploaded':
    case 'asset-edited':
    case 'asset-updated':
    case 'asset-deleted':
    case 'person-thumbnail':
      return { users: [event.ownerId] };
    case 'assets-trashed':
    case 'assets-restored':
    case 'stacks-changed':
      return { users: [event.userId] };
    case 'album-changed':
      return { users: event.userIds };
    case 'session-ended':
      return { session: { userId: event.userId, sessionHash: event.sessionHash } };
    case 'config-changed':
    case 'user-deleted':
      return 'everyone';
  }
};

const reaches = (audience: Audience, connection: ConnectionRecord): boolean => {
  if (audience === 'everyone') return true;
  if ('users' in audience) return audience.users.includes(connection.userId);
  return connection.sessionHash === audience.session.sessionHash;
};

/** The users whose connections the events need, or everyone's. */
const connectionsFor = async (audiences: readonly Audience[]): Promise<ConnectionRecord[]> => {
  if (audiences.includes('everyone')) return listConnections();
  const users = audiences.flatMap((audience) =>
    audience === 'everyone' ? [] : 'users' in audience ? audience.users : [audience.session.userId],
  );
  return listUserConnections(users);
};

/**
 * Tells the connections concerned of the events an operation raised, once it succeeded (the
 * handler factory, shared/http/pipeline.ts, and the media function's entry call it): one Query
 * of the users' connections (or of all, for a broadcast); with none, nothing else happens, and
 * the management API's client is never loaded. Each connection gets each event in its
 * generation's shape, in the order raised. A connection that is gone (410) is deleted. Never
 * throws: what was done is done, and an app that missed an event catches up on its next sync.
 */
export const publish = async (events: readonly LiveEvent[]): Promise<void> => {
  if (events.length === 0) return;
  try {
    const audiences = events.map(audienceOf);
    const connections = await connectionsFor(audiences);
    if (connections.length === 0) return;
    const api = await managementApi();
    if (!api) {
      log.warn('Realtime events with no management API to send them (REALTIME_ENDPOINT unset)', { events: events.length });
      return;
    }
    const framesOf = payloads();
    const gone = new Set<string>();
    for (const [index, event] of events.entries()) {
      const audience = audiences[index] ?? 'everyone';
      await Promise.all(
        connections
          .filter((connection) => reaches(audience, connection) && !gone.has(connection.connectionId))
          .map(async (connection) => {
            try {
              for (const frame of await framesOf(event, connection.generation)) {
                if ((await api.post(connection.connectionId, frame)) === 'gone') {
                  gone.add(connection.connectionId);
                  return;
                }
              }
            } catch (error) {
              // One connection's failure is not the others'.
              log.warn('A realtime event was not sent', { kind: event.kind, error: String(error) });
            }
          }),
      );
    }
    await Promise.all([...gone].map((connectionId) => deleteConnection(connectionId)));
  } catch (error) {
    log.error('Realtime events were not sent', { events: events.length, error: String(error) });
  }
};
