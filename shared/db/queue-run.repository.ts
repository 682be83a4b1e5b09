/**
 * What the queues' runs leave for the jobs page (docs/data-model.md, "Queues"): per queue, per
 * five-minute slot of their start, counters of runs started, finished and failed, spread over four
 * shards so that many concurrent runs do not all write one item. A run writes its start and its
 * end to its start's slot (UpdateItem ADD: no read, no condition), so a run killed before its end
 * counts as active only while its slot is within the queue's time limit. Apart from the reads
 * (queue.repository.ts), so the media function bundles only these writes.
 */
import * as keys from './item-keys.ts';
import { updateWrite, writeOne } from './transact.ts';

const slotMs = 5 * 60_000;
const shards = 4;
/** Slots are kept two days (TTL); the page counts a day of them. */
const keepSeconds = 2 * 86_400;

/** The start of the five-minute slot an instant falls in, as an ISO string. */
export const slotOf = (ms: number): string => new Date(Math.floor(ms / slotMs) * slotMs).toISOString();

/** A run's counters, written where it started. */
export interface QueueRun {
  queue: string;
  slot: string;
  shard: number;
}

const add = (run: QueueRun, counts: Record<string, number>) =>
  writeOne(
    updateWrite(
      keys.queueSlot(run.queue, run.slot, run.shard),
      `SET #type = :type, #ttl = if_not_exists(#ttl, :ttl) ADD ${Object.keys(counts)
        .map((name) => `#${name} :${name}`)
        .join(', ')}`,
      {
        names: { '#type': 'type', '#ttl': 'ttl', ...Object.fromEntries(Object.keys(counts).map((name) => [`#${name}`, name])) },
        values: {
          ':type': 'queueSlot',
          ':ttl': Math.ceil(Date.parse(run.slot) / 1000) + keepSeconds,
          ...Object.fromEntries(Object.entries(counts).map(([name, value]) => [`:${name}`, value])),
        },
      },
    ),
  );

/** Counts a run's start (one UpdateItem); returns where its end is to be counted. */
export const startRun = async (queue: string, now = Date.now()): Promise<QueueRun> => {
  const run = { queue, slot: slotOf(now), shard: Math.floor(Math.random() * shards) };
  await add(run, { started: 1 });
  return run;
};

/** Counts a run's end, finished or failed (one UpdateItem). */
export const endRun = (run: QueueRun, outcome: 'finished' | 'failed'): Promise<void> => add(run, { [outcome]: 1 });
