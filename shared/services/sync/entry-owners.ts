/**
 * The table's one-time learning of its albums' entries' owners (docs/data-model.md, "Earlier
 * shapes"): an album written before its summary item gathered them (shared/db/items/album-mark.ts)
 * has there only those of its later entries, so its users' apps would not get the changes of a
 * partner's photo an editor added before, or of a departed member's. The nightly function runs it
 * at its ticks, after the change ids migration (./migration.ts), until it is done, then the table
 * is marked and later ticks read that one item. It starts only once every function writes the
 * owners: a deploy's old functions may run on for Lambda's 15 minutes
 * (shared/db/album-sync.repository.ts, `deploymentState`). Resumable: each album is marked as it is
 * learnt. Every album is learnt, those created since the deploy too: while the deploy replaced the
 * functions, an old one could add entries (without their owners) to a new album.
 */
import * as albumSyncRepo from '../../db/album-sync.repository.ts';
import * as entryOwnersRepo from '../../db/entry-owners.repository.ts';
import type { MigrationOutcome } from './migration.ts';

/** As the change ids migration's, and `waiting`: a deploy's old functions may still be running. */
export type EntryOwnersOutcome = MigrationOutcome | 'waiting';

/** Learns every album's entries' owners unless the table is marked done; no user starts after `deadline` (epoch ms). */
export const learnEntryOwners = async (deadline = Number.POSITIVE_INFINITY): Promise<EntryOwnersOutcome> => {
  if (await entryOwnersRepo.entryOwnersLearnt()) return 'done-before';
  if (!(await albumSyncRepo.deploymentState()).learnable) return 'waiting';
  for (const userId of await entryOwnersRepo.userIds()) {
    for (const albumId of await entryOwnersRepo.albumsToLearn(userId)) {
      if (Date.now() > deadline) return 'unfinished';
      await entryOwnersRepo.learnAlbum(userId, albumId);
    }
  }
  await entryOwnersRepo.markEntryOwnersLearnt(new Date().toISOString());
  return 'migrated';
};
