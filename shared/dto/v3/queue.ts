/**
 * Immich v3.2's jobs and queues (`@immich/sdk` 3.2.2: QueueName, QueueCommandDto, QueueUpdateDto,
 * QueueDeleteDto, QueueJobStatus, JobCreateDto, ManualJobName, AssetJobsDto, AssetJobName), and
 * their answers; v1.100's `JobCommandDto` and `AllJobStatusResponseDto` are the same shapes.
 */
import * as v from 'valibot';
import { limits } from '../../model/limits.ts';
import { type QueueName, type QueueStatistics, type QueueStatus, queueCommands, queueNames } from '../../model/queue.ts';
import { dto } from '../common.ts';
import { boolean, object, picklist, uuidsUpTo } from './common.ts';

const queueName = picklist(queueNames);

export const QueueNameParams = dto({ name: queueName });

export const QueueCommandDto = object({ command: picklist(queueCommands), force: v.optional(boolean) });

export const QueueUpdateDto = object({ isPaused: v.optional(boolean) });

export const QueueDeleteDto = object({ failed: v.optional(boolean) });

const queueJobStatuses = ['active', 'failed', 'completed', 'delayed', 'waiting', 'paused'] as const;
export const QueueJobSearchDto = object({
  status: v.optional(v.union([picklist(queueJobStatuses), v.array(picklist(queueJobStatuses))])),
});

const manualJobNames = [
  'person-cleanup',
  'tag-cleanup',
  'user-cleanup',
  'memory-cleanup',
  'memory-create',
  'backup-database',
  'integrity-missing-files',
  'integrity-untracked-files',
  'integrity-checksum-mismatch',
  'integrity-missing-files-refresh',
  'integrity-untracked-files-refresh',
  'integrity-checksum-mismatch-refresh',
  'integrity-missing-files-delete-all',
  'integrity-untracked-files-delete-all',
  'integrity-checksum-mismatch-delete-all',
] as const;
export const JobCreateDto = object({ name: picklist(manualJobNames) });

/** v3's asset jobs; v1.100's are the same but `refresh-faces`. */
export const AssetJobsDto = object({
  assetIds: uuidsUpTo(limits.bulkAssets),
  name: picklist(['refresh-faces', 'refresh-metadata', 'regenerate-thumbnail', 'transcode-video'] as const),
});

export interface QueueResponseDto {
  name: QueueName;
  isPaused: boolean;
  statistics: QueueStatistics;
}

export const mapQueue = (status: QueueStatus): QueueResponseDto => ({
  name: status.name,
  isPaused: status.isPaused,
  statistics: status.statistics,
});

/** The legacy shape (v1.100's `JobStatusDto`, v3's `QueueResponseLegacyDto`). */
export interface QueueResponseLegacyDto {
  jobCounts: QueueStatistics;
  queueStatus: { isActive: boolean; isPaused: boolean };
}

export const mapQueueLegacy = (status: QueueStatus): QueueResponseLegacyDto => ({
  jobCounts: status.statistics,
  queueStatus: { isActive: status.statistics.active > 0, isPaused: status.isPaused },
});

/** GET /jobs: every queue by name (v1.100 reads its twelve of v3's nineteen). */
export const mapQueuesLegacy = (statuses: readonly QueueStatus[]): Record<string, QueueResponseLegacyDto> =>
  Object.fromEntries(statuses.map((status) => [status.name, mapQueueLegacy(status)]));
