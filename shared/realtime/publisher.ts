import { limiter } from '../core/concurrency.ts';
import { log } from '../core/log.ts';
import * as connectionRepo from '../db/connection.repository.ts';
import type { ConnectionRecord, LiveEvent } from '../model/realtime.ts';
import { managementApi } from './management.ts';
import { loadPayloads } from './payloads.ts';

/**
 * How much one publication may do (docs/deployment.md, "Realtime"): it runs before the request's
 * answer, which API Gateway waits 30 s for, so it is bounded in work and in time. Past either
 * bound the rest is dropped with a log line; an app that missed an event catches up on its next
 * sync, as after any reconnection.
 * - `maxEvents`: the events of one operation told at most (the first ones raised).
 * - `budgetMs`: the longest it publishes, from its start; a caller's `deadline` (the handler
 *   factory's, from Lambda's remaining time) can only make it shorter.
 * - `postsInFlight`: posts to the management API at once, over all connections.
 */
export const publishing = { maxEvents: 1_000, budgetMs: 5_000, postsInFlight: 16 } as const;

export interface PublishOptions {
  /** When to stop (epoch ms): what is not posted by then is dropped. */
  deadline?: number;
  /** The time budget from the start (ms), `publishing.budgetMs` unless given; a test of the event cap gives a long one. */
  budgetMs?: number;
}

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
    case 'notification':
      return { users: [event.notification.userId] };
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
  if (audiences.includes('everyone')) return connectionRepo.list();
  const users = audiences.flatMap((audience) =>
    audience === 'everyone' ? [] : 'users' in audience ? audience.users : [audience.session.userId],
  );
  return connectionRepo.listUserConnections(users);
};

/**
 * What an event's order is kept against on a connection: the events of one asset (or person) in
 * the order raised, and an event about no one thing (a stack, an album, a session, the
 * configuration, a user) after everything before it and before everything after it. Events about
 * different assets commute (1,000 `on_asset_delete` are told at once, not one after another).
 */
const subjectsOf = (event: LiveEvent): readonly string[] | 'all' => {
  switch (event.kind) {
    case 'asset-uploaded':
    case 'asset-edited':
    case 'asset-updated':
    case 'asset-deleted':
      return [`asset:${event.assetId}`];
    case 'assets-trashed':
    case 'assets-restored':
      return event.assetIds.map((id) => `asset:${id}`);
    case 'person-thumbnail':
      return [`person:${event.personId}`];
    default:
      return 'all';
  }
};

/**
 * One connection's frames in rounds: each frame in the first round after every earlier frame it
 * must follow (the same subject, or either about everything), so a round's frames may be posted at
 * once and the rounds one after another.
 */
export const roundsOf = (frames: readonly { frame: string; subjects: readonly string[] | 'all' }[]): string[][] => {
  const rounds: string[][] = [];
  const lastRound = new Map<string, number>();
  let latest = -1;
  let barrier = -1;
  for (const { frame, subjects } of frames) {
    const round =
      subjects === 'all' ? latest + 1 : subjects.reduce((after, subject) => Math.max(after, lastRound.get(subject) ?? -1), barrier) + 1;
    if (subjects === 'all') barrier = round;
    else for (const subject of subjects) lastRound.set(subject, round);
    latest = Math.max(latest, round);
    const posted = rounds[round] ?? [];
    posted.push(frame);
    rounds[round] = posted;
  }
  return rounds;
};

/**
 * Tells the connections concerned of the events an operation raised, once it succeeded (the
 * handler factory, shared/http/pipeline.ts, and the media and nightly functions call it): one
 * Query of the users' connections (or of all, for a broadcast); with none, nothing else happens,
 * and the management API's client is never loaded. What the events carry is loaded in batches,
 * once for all of them (shared/realtime/payloads.ts), then each connection gets each event in its
 * generation's shape, posted `publishing.postsInFlight` at a time, in the order raised where the
 * order matters (`subjectsOf`), within `publishing`'s bounds. A connection that is gone (410) is
 * deleted. Never throws: what was done is done, and an app that missed an event catches up on its
 * next sync.
 */
export const publish = async (events: readonly LiveEvent[], options: PublishOptions = {}): Promise<void> => {
  if (events.length === 0) return;
  const deadline = Math.min(options.deadline ?? Number.POSITIVE_INFINITY, Date.now() + (options.budgetMs ?? publishing.budgetMs));
  const late = (what: string): boolean => {
    if (Date.now() < deadline) return false;
    log.warn(`Realtime events were dropped (${what}); the apps catch up on their next sync`, { events: events.length });
    return true;
  };
  try {
    if (late('no time left to publish')) return;
    const kept = events.slice(0, publishing.maxEvents);
    if (kept.length < events.length)
      log.warn('Realtime events past the most one operation tells were dropped; the apps catch up on their next sync', {
        events: events.length,
        dropped: events.length - kept.length,
      });
    const audiences = kept.map(audienceOf);
    const connections = await connectionsFor(audiences);
    if (connections.length === 0) return;
    // Only the events someone is connected to be told of are loaded and built.
    const told = kept.flatMap((event, index) => {
      const audience = audiences[index] ?? 'everyone';
      const to = connections.filter((connection) => reaches(audience, connection));
      return to.length > 0 ? [{ event, to: new Set(to) }] : [];
    });
    if (told.length === 0) return;
    const api = await managementApi();
    if (!api) {
      log.warn('Realtime events with no management API to send them (REALTIME_ENDPOINT unset)', { events: told.length });
      return;
    }
    const framesOf = await loadPayloads(told.map(({ event }) => event));
    if (late('past the publishing deadline once loaded')) return;
    const post = limiter(publishing.postsInFlight);
    const gone = new Set<string>();
    let dropped = 0;
    await Promise.all(
      connections.map(async (connection) => {
        const rounds = roundsOf(
          told.flatMap(({ event, to }) =>
            to.has(connection) ? framesOf(event, connection.generation).map((frame) => ({ frame, subjects: subjectsOf(event) })) : [],
          ),
        );
        for (const round of rounds)
          await Promise.all(
            round.map((frame) =>
              post(async () => {
                if (gone.has(connection.connectionId)) return;
                if (Date.now() >= deadline) {
                  dropped++;
                  return;
                }
                try {
                  if ((await api.post(connection.connectionId, frame)) === 'gone') gone.add(connection.connectionId);
                } catch (error) {
                  // One post's failure is not the others'.
                  log.warn('A realtime event was not sent', { error: String(error) });
                }
              }),
            ),
          );
      }),
    );
    if (dropped > 0)
      log.warn('Realtime events past the publishing deadline were dropped; the apps catch up on their next sync', {
        events: told.length,
        droppedFrames: dropped,
      });
    await Promise.all([...gone].map((connectionId) => connectionRepo.remove(connectionId)));
  } catch (error) {
    log.error('Realtime events were not sent', { events: events.length, error: String(error) });
  }
};
