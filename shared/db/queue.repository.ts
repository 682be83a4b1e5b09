/**
 * The jobs page's reads of the queues' counters (docs/data-model.md, "Queues"); the runs write
 * them through queue-run.repository.ts (kept apart so the media function bundles only its writes).
 */
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import * as partitions from './partitions.ts';
import { queryAll } from './query.ts';
import { updateWrite, writeOne } from './transact.ts';

export { slotOf } from './queue-run.repository.ts';

/** One slot's counts, its shards added up. */
export interface SlotCounts {
  slot: string;
  started: number;
  finished: number;
  failed: number;
}

/** The slots of a queue from `from` on (one Query of its partition's slots since then). */
export const queueSlots = async (queue: string, from: string): Promise<SlotCounts[]> => {
  const bySlot = new Map<string, SlotCounts>();
  // `STATE` sorts after every ISO date: the range leaves it out.
  for (const item of await queryAll(partitions.queueSlots(queue), { from, to: '9' })) {
    const slot = String(item.sk).split('#')[0] ?? '';
    const counts = bySlot.get(slot) ?? { slot, started: 0, finished: 0, failed: 0 };
    counts.started += Number(item.started ?? 0);
    counts.finished += Number(item.finished ?? 0);
    counts.failed += Number(item.failed ?? 0);
    bySlot.set(slot, counts);
  }
  return [...bySlot.values()];
};

/** When a queue's failures were last cleared (Immich's clear-failed), if ever. */
export const failuresClearedAt = async (queue: string): Promise<string | undefined> => {
  const item = await getItem(keys.queueState(queue));
  return typeof item?.failedClearedAt === 'string' ? item.failedClearedAt : undefined;
};

/** Clears a queue's failures: those of runs started before now no longer count. */
export const clearFailures = (queue: string, now = new Date().toISOString()): Promise<void> =>
  writeOne(
    updateWrite(keys.queueState(queue), 'SET #type = :type, failedClearedAt = :now', {
      names: { '#type': 'type' },
      values: { ':type': 'queueState', ':now': now },
    }),
  );
