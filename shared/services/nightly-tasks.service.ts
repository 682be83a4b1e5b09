import { log } from '../core/log.ts';
import * as systemRepo from '../db/system.repository.ts';
import type { UserWithTrashState } from '../db/user.repository.ts';
import * as userRepo from '../db/user.repository.ts';
import type { SystemConfig } from '../model/config.ts';
import type { UserRecord } from '../model/user.ts';
import { getConfig } from './config.reader.ts';
import { cleanupMemories, generateMemories } from './memory.service.ts';
import { recordRun } from './queue-runs.ts';
import { deleteEmptyTags } from './tag/cleanup.ts';
import { deleteExpiredTrash } from './trash.service.ts';
import { purgeUser } from './user/purge.service.ts';
import { type BatchRunner, WorkBudget } from './work-budget.ts';

/**
 * Immich's nightly tasks, as far as this server has them (docs/immich-compatibility.md, "Memories",
 * "Tags" and "The trash and deleted users"): at `nightlyTasks.startTime` (UTC), when
 * `databaseCleanup` is on, the memory and empty-tag clean-ups; the "on this day" memories when
 * `generateMemories` is on; then, with the clean-up on, Immich's AssetDeleteCheck (the trash
 * emptied of what has been there `trash.days`) and UserDeleteCheck (users deleted
 * `user.deleteDelay` days before removed for good). Deployed, a schedule invokes the function
 * every hour (infra/cdk/nightly-function.ts); locally the server does (infra/local/main.ts). Each
 * tick works out the slot that was last due and claims it, so the tasks run once per night, at
 * most an hour after their time, whatever the ticks do.
 *
 * One invocation's budget (a Lambda lasts 15 minutes at most) is shared: the memories first (a
 * few Queries per user and day), then the purge with what is left. The claim marks both pending,
 * and what a night's run leaves of either the next ticks go on with, the memories as of the same
 * instant and the purge from the same night's cut-offs, until each is done (docs/data-model.md,
 * "Nightly clean-up"). Users deleted with `force` are removed at any tick, as Immich queues
 * their removal at once.
 */

const dayMs = 86_400_000;

/** The last instant at `HH:MM` UTC not after `now`. */
export const nightlySlot = (now: Date, startTime: string): string => {
  const [hours = 0, minutes = 0] = startTime.split(':').map(Number);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hours, minutes);
  return new Date(today <= now.getTime() ? today : today - dayMs).toISOString();
};

/** How much one invocation may delete: assets (of the trash and of purged users), and when to stop starting more. */
export interface NightlyBudget {
  /** At most this many assets deleted for good (default 20,000). */
  maxDeletions?: number;
  /** Epoch milliseconds after which no more deletions start (default: ten minutes from now). */
  deadline?: number;
  /** Runs each batch of the run's work (the nightly function's tells the apps of its events when it is done). */
  batch?: BatchRunner;
}

/** What a purge run deleted, and whether it left any for the next tick. */
export interface PurgeSummary {
  assets: number;
  users: number;
  done: boolean;
}

export interface NightlyOutcome {
  slot: string;
  ran: boolean;
  /** The "on this day" memories made (the night's, or a later tick going on with them), and whether the night's are done. */
  memories?: { days: string[]; memories: number; done: boolean };
  cleanup?: { removed: number };
  tags?: { removed: number };
  /** The trash emptied and deleted users removed (the night's, or a later tick going on with it). */
  purge?: PurgeSummary;
}

const defaultDeletions = 20_000;
const defaultMs = 10 * 60_000;

/**
 * Immich's UserDeleteCheck and AssetDeleteCheck as of the night `slot` (absent: only the users
 * removed with `force`): every user deleted more than `user.deleteDelay` days before it, or
 * `removing`, is purged; every other user's trash loses what has been there `trash.days` (0 when
 * the trash is off), while the budget lasts.
 */
const purge = async (
  config: SystemConfig,
  slot: string | undefined,
  budget: WorkBudget,
  users: UserWithTrashState[],
): Promise<PurgeSummary> => {
  const summary: PurgeSummary = { assets: 0, users: 0, done: true };
  const night = slot ? Date.parse(slot) : undefined;
  const deletedBefore = night === undefined ? undefined : new Date(night - config.user.deleteDelay * dayMs).toISOString();
  const trashDays = config.trash.enabled ? config.trash.days : 0;
  const trashedBefore = night === undefined ? undefined : new Date(night - trashDays * dayMs).toISOString();
  const due = users.filter(
    (user) => user.deletedAt !== null && (user.status === 'removing' || (deletedBefore !== undefined && user.deletedAt < deletedBefore)),
  );
  // One left unfinished (its budget spent, or an asset busy meanwhile) is the next run's; the others go on while the budget lasts.
  for (const user of due) {
    const outcome = await purgeUser(user.id, budget);
    summary.assets += outcome.assets;
    if (outcome.kind === 'purged') summary.users++;
    if (outcome.kind === 'unfinished') summary.done = false;
    if (budget.spent) return { ...summary, done: false };
  }
  if (trashedBefore === undefined) return summary;
  const purged = new Set(due.map((user) => user.id));
  for (const user of users.filter((each) => !purged.has(each.id))) {
    const trash = await deleteExpiredTrash(user, trashedBefore, budget);
    summary.assets += trash.removed;
    if (!trash.done) summary.done = false;
    if (budget.spent) return { ...summary, done: false };
  }
  return summary;
};

/** The night's memories as of `at`, while the budget's time lasts; their mark goes once they are done. */
const nightMemories = async (at: string, budget: WorkBudget): Promise<NonNullable<NightlyOutcome['memories']>> => {
  const made = await generateMemories(new Date(at), budget);
  if (made.done) await systemRepo.finishNightlyWork('memories', at);
  return made;
};

/** The purge (the night's from `slot`, or only the forced removals), its mark gone once it is done. */
const nightPurge = async (
  config: SystemConfig,
  slot: string | undefined,
  budget: WorkBudget,
  users: UserWithTrashState[],
): Promise<PurgeSummary> => {
  const summary = await purge(config, slot, budget, users);
  if (slot && summary.done) await systemRepo.finishNightlyWork('cleanup', slot);
  return summary;
};

const removing = (users: readonly UserRecord[]): boolean => users.some((user) => user.deletedAt !== null && user.status === 'removing');

export const runNightlyTasks = async (now: Date, limits: NightlyBudget = {}): Promise<NightlyOutcome> => {
  // Read fresh, as Immich's (withCache: false): a change of the start time counts at the next tick.
  const config = await getConfig();
  const slot = nightlySlot(now, config.nightlyTasks.startTime);
  const cleanupOn = config.nightlyTasks.databaseCleanup;
  const memoriesOn = config.nightlyTasks.generateMemories;
  const budget = new WorkBudget(limits.maxDeletions ?? defaultDeletions, limits.deadline ?? Date.now() + defaultMs, limits.batch);
  const memoriesAt = now.toISOString();
  if (
    (await systemRepo.claimNightlySlot(slot, { ...(cleanupOn ? { cleanup: slot } : {}), ...(memoriesOn ? { memories: memoriesAt } : {}) }))
      .ok
  ) {
    // A night's run is the background tasks' queue's job (the jobs page counts it).
    return recordRun('backgroundTask', async () => {
      const outcome: NightlyOutcome = { slot, ran: true };
      if (cleanupOn) {
        outcome.cleanup = await cleanupMemories(now);
        outcome.tags = await deleteEmptyTags();
      }
      // The memories before the purge: a long purge never leaves the night without them.
      if (memoriesOn) outcome.memories = await nightMemories(memoriesAt, budget);
      outcome.purge = await nightPurge(config, cleanupOn ? slot : undefined, budget, await userRepo.listWithTrashState());
      log.info('nightly tasks', { ...outcome });
      return outcome;
    });
  }
  // Between nights: the rest of a night's memories and purge (while each is still on), and forced removals.
  const pending = await systemRepo.pendingNightlyWork();
  const memories = memoriesOn ? pending.memories : undefined;
  const cleanup = cleanupOn ? pending.cleanup : undefined;
  const users = await userRepo.listWithTrashState();
  if (!memories && !cleanup && !removing(users)) return { slot, ran: false };
  return recordRun('backgroundTask', async () => {
    const outcome: NightlyOutcome = { slot, ran: false };
    if (memories) outcome.memories = await nightMemories(memories, budget);
    if (cleanup || removing(users)) outcome.purge = await nightPurge(config, cleanup, budget, users);
    log.info('nightly purge', { ...outcome });
    return outcome;
  });
};
