import { log } from '../core/log.ts';
import { claimNightlySlot } from '../db/system.repository.ts';
import { getConfig } from './config.reader.ts';
import { cleanupMemories, generateMemories } from './memory.service.ts';
import { recordRun } from './queue-runs.ts';
import { deleteEmptyTags } from './tag-cleanup.ts';

/**
 * Immich's nightly tasks, as far as this server has them (docs/immich-compatibility.md, "Memories"
 * and "Tags"): at `nightlyTasks.startTime` (UTC), the memory and empty-tag clean-ups when
 * `databaseCleanup` is on, then the "on this day" memories when `generateMemories` is on.
 * Deployed, a schedule invokes the function every hour (infra/cdk/nightly-function.ts); locally
 * the server does (infra/local/main.ts). Each tick works out the slot that was last due and claims
 * it, so the tasks run once per night, at most an hour after their time, whatever the ticks do.
 */

const dayMs = 86_400_000;

/** The last instant at `HH:MM` UTC not after `now`. */
export const nightlySlot = (now: Date, startTime: string): string => {
  const [hours = 0, minutes = 0] = startTime.split(':').map(Number);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hours, minutes);
  return new Date(today <= now.getTime() ? today : today - dayMs).toISOString();
};

export interface NightlyOutcome {
  slot: string;
  ran: boolean;
  memories?: { days: string[]; memories: number };
  cleanup?: { removed: number };
  tags?: { removed: number };
}

export const runNightlyTasks = async (now: Date): Promise<NightlyOutcome> => {
  // Read fresh, as Immich's (withCache: false): a change of the start time counts at the next tick.
  const config = await getConfig();
  const slot = nightlySlot(now, config.nightlyTasks.startTime);
  if (!(await claimNightlySlot(slot))) return { slot, ran: false };
  // A night's run is the background tasks' queue's job (the jobs page counts it).
  return recordRun('backgroundTask', async () => {
    const outcome: NightlyOutcome = { slot, ran: true };
    if (config.nightlyTasks.databaseCleanup) {
      outcome.cleanup = await cleanupMemories(now);
      outcome.tags = await deleteEmptyTags();
    }
    if (config.nightlyTasks.generateMemories) outcome.memories = await generateMemories(now);
    log.info('nightly tasks', { ...outcome });
    return outcome;
  });
};
