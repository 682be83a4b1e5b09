import * as keys from '../item-keys.ts';
import { updateWrite, type Write } from '../transact.ts';
import { type BucketSlot, counterNames } from './bucket.ts';

/**
 * One UpdateItem per month touched, adding to the month's and the day's counter of each slot.
 * Composed into the transactions that create, change and delete assets, so the counts never
 * drift from the assets.
 */
/** Moves a count between slots of one owner: `from` loses one, `to` gains one (either may be absent). */
export const move = (ownerId: string, from: BucketSlot | undefined, to: BucketSlot | undefined): Write[] => moveAll(ownerId, [[from, to]]);
/** Several moves of one owner's counts in one transaction: one UpdateItem per month, whatever the moves. */
export const moveAll = (ownerId: string, moves: readonly (readonly [BucketSlot | undefined, BucketSlot | undefined])[]): Write[] => {
  const deltas = new Map<string, Map<string, number>>();
  const add = (slot: BucketSlot | undefined, delta: number) => {
    if (!slot) return;
    const month = deltas.get(slot.month) ?? new Map<string, number>();
    for (const name of counterNames(slot)) month.set(name, (month.get(name) ?? 0) + delta);
    deltas.set(slot.month, month);
  };
  for (const [from, to] of moves) {
    add(from, -1);
    add(to, 1);
  }
  return [...deltas].flatMap(([month, counters]) => {
    const changed = [...counters].filter(([, delta]) => delta !== 0);
    if (changed.length === 0) return [];
    const names = Object.fromEntries(changed.map(([name], index) => [`#c${index}`, name]));
    const values = Object.fromEntries(changed.map(([, delta], index) => [`:c${index}`, delta]));
    return [
      updateWrite(
        keys.timeBuckets(ownerId, month),
        `SET #type = :type ADD ${changed.map((_, index) => `#c${index} :c${index}`).join(', ')}`,
        {
          names: { ...names, '#type': 'type' },
          values: { ...values, ':type': 'timeBuckets' },
        },
      ),
    ];
  });
};
