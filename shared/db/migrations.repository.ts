/**
 * The table's one-time data migrations done (`SYSTEM` / `MIGRATIONS`: docs/data-model.md, "Earlier
 * shapes"), one attribute each, holding when it was done: the change ids (shared/services/sync/migration.ts)
 * and the albums' entries' owners (shared/services/sync/entry-owners.ts).
 */
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import { updateWrite, writeOne } from './transact.ts';

export type Migration = 'changeIds' | 'entryOwners';

/** Whether a migration is done. */
export const migrationDone = async (migration: Migration): Promise<boolean> =>
  (await getItem(keys.migrations()))?.[migration] !== undefined;

/** Marks a migration done, at `at` (the migrations item, made by the first mark). */
export const markMigrationDone = async (migration: Migration, at: string): Promise<void> => {
  await writeOne(
    updateWrite(keys.migrations(), 'SET #type = :type, #migration = :at', {
      names: { '#type': 'type', '#migration': migration },
      values: { ':type': 'systemMetadata', ':at': at },
    }),
  );
};
