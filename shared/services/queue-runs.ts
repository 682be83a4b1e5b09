import { log } from '../core/log.ts';
import type { QueueRun } from '../db/queue-run.repository.ts';
import * as queueRunRepo from '../db/queue-run.repository.ts';
import type { QueueName } from '../model/queue.ts';

/**
 * Runs one job of a queue and counts it for the jobs page (shared/services/queue.service.ts):
 * its start, then its end, finished or failed. Counting never fails the job: a write that does
 * not land is logged.
 */
export const recordRun = async <T>(queue: QueueName, job: () => Promise<T>): Promise<T> => {
  let run: QueueRun | undefined;
  try {
    run = await queueRunRepo.startRun(queue);
  } catch (error) {
    log.warn('A queue run was not counted', { queue, error: String(error) });
  }
  const end = async (outcome: 'finished' | 'failed') => {
    if (run)
      await queueRunRepo
        .endRun(run, outcome)
        .catch((error) => log.warn('A queue run end was not counted', { queue, error: String(error) }));
  };
  try {
    const result = await job();
    await end('finished');
    return result;
  } catch (error) {
    await end('failed');
    throw error;
  }
};
