import { newChangeId } from '../changes.ts';
import * as keys from '../item-keys.ts';
import { putWrite, type Write } from '../transact.ts';

/**
 * How long a deletion is kept for the sync stream: Immich's audit cleanup keeps 31 days, and a
 * session that last completed a sync longer ago than 30 days is told to start again (SyncResetV1).
 */
const deletionRetentionDays = 31;

export const record = (scope: string, data: Record<string, string>): Write => {
  const deleteId = newChangeId();
  return putWrite({
    ...keys.deletion(scope, deleteId),
    type: 'deletion',
    deleteId,
    ...data,
    // DynamoDB's TTL removes it after the retention (the stream's reads skip an expired one meanwhile).
    ttl: Math.ceil(Date.now() / 1000) + deletionRetentionDays * 86_400,
  });
};
