/**
 * The nightly tasks' function: not an API route. Deployed, an EventBridge schedule invokes it
 * every hour (infra/cdk/nightly-function.ts); locally the server does. Its event's `time` is the
 * tick's instant (a scheduled event carries it), so a run is about the time it was due, also
 * when Lambda retries it later (shared/services/nightly-tasks.service.ts). Each tick first runs
 * the table's one-time migrations until they are done (shared/services/sync/migration.ts, then
 * entry-owners.ts): so the first tick after a deploy, and the one `npm start` gives at start,
 * migrate the table (the entry owners once a deploy's old functions are done).
 */
import { log, withLogContext } from '#shared/core/log.ts';
import { collectEvents } from '#shared/realtime/outbox.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { type NightlyOutcome, runNightlyTasks } from '#shared/services/nightly-tasks.service.ts';
import { learnEntryOwners } from '#shared/services/sync/entry-owners.ts';
import { migrateChangeIds } from '#shared/services/sync/migration.ts';

/** What the function reads of an EventBridge scheduled event. */
export interface ScheduledEvent {
  time?: string;
}

/** What it reads of Lambda's context: how long the invocation may still run. */
export interface NightlyContext {
  getRemainingTimeInMillis?: () => number;
}

// No deletion starts in the invocation's last three minutes: one under way (a photo, a video's
// files) then ends well within Lambda's limit, and the next tick goes on from there.
const marginMs = 3 * 60_000;

/**
 * Runs `work`, then tells the apps concerned of the events it raised (on_asset_delete,
 * on_user_delete: docs/immich-compatibility.md, "Realtime"), as the API's routes do after theirs;
 * also when it failed part way, as what it deleted before is gone.
 */
const publishing = async <T>(work: () => Promise<T>): Promise<T> => {
  const { result, events } = await collectEvents(async () => {
    try {
      return { ok: true as const, value: await work() };
    } catch (error) {
      return { ok: false as const, error };
    }
  });
  await publish(events);
  if (!result.ok) throw result.error;
  return result.value;
};

export const handler = async (event: ScheduledEvent, context?: NightlyContext): Promise<NightlyOutcome> =>
  withLogContext({}, async () => {
    const time = event.time ? new Date(event.time) : new Date();
    const remaining = context?.getRemainingTimeInMillis?.();
    const deadline = remaining === undefined ? undefined : Date.now() + remaining - marginMs;
    // One item read once the table is migrated; a migration cut short goes on at the next tick.
    const migration = await migrateChangeIds(deadline);
    if (migration !== 'done-before') log.info('migration', { changeIds: migration });
    // Then the albums' entries' owners (shared/services/sync/entry-owners.ts), once the change ids are done.
    if (migration !== 'unfinished') {
      const owners = await learnEntryOwners(deadline);
      if (owners !== 'done-before') log.info('migration', { entryOwners: owners });
    }
    // Each batch of the run (a page of deletions, a user's shares) is told as it ends, within the
    // invocation's budget, not all at its end (docs/data-model.md, "Nightly clean-up").
    return publishing(() =>
      runNightlyTasks(Number.isNaN(time.getTime()) ? new Date() : time, {
        ...(deadline === undefined ? {} : { deadline }),
        batch: publishing,
      }),
    );
  });
