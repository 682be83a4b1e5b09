/**
 * The table's one-time migration to change ids (docs/data-model.md, "Earlier shapes"): libraries
 * stored before the sync stream's change ids get theirs, off the request path. The nightly function
 * runs it at its ticks until it is done (deployed, the first tick after a deploy, within the hour;
 * `npm start` and `start:deployed` give it a tick at start: docs/deployment.md), then the table is
 * marked migrated, and later ticks read that one item. Every user's own item is stamped, then each
 * user's library (`indexLibrary`: resumable, each write conditional on the item having none yet).
 */
import * as syncRepo from '../../db/sync.repository.ts';

/** `migrated`: this run finished it; `unfinished`: its time ran out, a later tick goes on; `done-before`: nothing to do. */
export type MigrationOutcome = 'migrated' | 'unfinished' | 'done-before';

/** Runs the migration unless the table is marked migrated; no library starts after `deadline` (epoch ms). */
export const migrateChangeIds = async (deadline = Number.POSITIVE_INFINITY): Promise<MigrationOutcome> => {
  if (await syncRepo.changeIdsMigrated()) return 'done-before';
  for (const userId of await syncRepo.indexUsers()) {
    if (Date.now() > deadline) return 'unfinished';
    await syncRepo.indexLibrary(userId);
  }
  await syncRepo.markChangeIdsMigrated(new Date().toISOString());
  return 'migrated';
};
