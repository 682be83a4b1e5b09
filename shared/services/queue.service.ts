import { Invalid } from '../core/errors.ts';
import * as queueRepo from '../db/queue.repository.ts';
import { type QueueCommand, type QueueName, type QueueStatus, queueNames, queueRunLimitMs } from '../model/queue.ts';

/**
 * Immich's jobs page over this server's queues (docs/immich-compatibility.md, "Jobs and queues").
 * Lambda runs every job as its event arrives, so nothing waits, is delayed or is paused here: a
 * queue's counts are its runs of the last day (shared/db/queue.repository.ts), active while a run
 * started within its function's time limit has not ended.
 */

const day = 86_400_000;
const idle = { active: 0, completed: 0, delayed: 0, failed: 0, paused: 0, waiting: 0 };

/** One queue's status (a Query of its last day's slots and a GetItem of its state; nothing for a queue without work here). */
export const getQueueStatus = async (name: QueueName, now = Date.now()): Promise<QueueStatus> => {
  const limit = queueRunLimitMs[name];
  if (!limit) return { name, isPaused: false, statistics: { ...idle } };
  const [slots, cleared] = await Promise.all([queueRepo.queueSlots(name, queueRepo.slotOf(now - day)), queueRepo.failuresClearedAt(name)]);
  // A run lasts at most its time limit: only slots that recent can still have one running.
  const recent = queueRepo.slotOf(now - limit);
  const statistics = { ...idle };
  for (const slot of slots) {
    statistics.completed += slot.finished;
    if (!cleared || slot.slot > cleared) statistics.failed += slot.failed;
    if (slot.slot >= recent) statistics.active += Math.max(0, slot.started - slot.finished - slot.failed);
  }
  return { name, isPaused: false, statistics };
};

/** GET /queues (and the legacy GET /jobs): every queue, in Immich's order. */
export const getQueueStatuses = (now = Date.now()): Promise<QueueStatus[]> =>
  Promise.all(queueNames.map((name) => getQueueStatus(name, now)));

/**
 * A queue command (PUT /jobs/:name, and PUT /queues/:name's pause): `clear-failed` clears the
 * failures; `start` while a run is active is Immich's 400; the rest change nothing here, and are
 * answered with the queue's status as Immich answers them: nothing waits to be started, held or
 * dropped (a failed event waits in the media function's dead-letter queue, redriven by an operator).
 */
export const runQueueCommand = async (name: QueueName, command: QueueCommand): Promise<QueueStatus> => {
  // The status is read once, after what the command changes.
  if (command === 'clear-failed') await queueRepo.clearFailures(name);
  const status = await getQueueStatus(name);
  if (command === 'start' && status.statistics.active > 0) throw new Invalid('Job is already running');
  return status;
};

/** PUT /queues/:name `{isPaused}`: Immich's refusal for the background tasks; otherwise as the command. */
export const updateQueue = (name: QueueName, isPaused: boolean | undefined): Promise<QueueStatus> => {
  if (isPaused === true && name === 'backgroundTask') throw new Invalid('The BackgroundTask queue cannot be paused');
  return runQueueCommand(name, isPaused === undefined ? 'empty' : isPaused ? 'pause' : 'resume');
};

/** DELETE /queues/:name/jobs `{failed}`: nothing waits to be dropped; with `failed`, the failures are cleared. */
export const emptyQueue = async (name: QueueName, failed: boolean | undefined): Promise<void> => {
  if (failed) await queueRepo.clearFailures(name);
};
