/**
 * Immich's job queues (v3's `QueueName`; v1.100's `JobName` are the first twelve), and what this
 * server runs in them: its media function (previews and person thumbnails, Immich's
 * thumbnailGeneration) and its nightly tasks (Immich's backgroundTask). The rest have no work
 * here (docs/immich-compatibility.md, "Jobs and queues").
 */
export const queueNames = [
  'thumbnailGeneration',
  'metadataExtraction',
  'videoConversion',
  'faceDetection',
  'facialRecognition',
  'smartSearch',
  'duplicateDetection',
  'backgroundTask',
  'storageTemplateMigration',
  'migration',
  'search',
  'sidecar',
  'library',
  'notifications',
  'backupDatabase',
  'ocr',
  'workflow',
  'integrityCheck',
  'editor',
] as const;
export type QueueName = (typeof queueNames)[number];

/** The queues v3 added since v1.100. */
const sinceV1: readonly QueueName[] = [
  'duplicateDetection',
  'notifications',
  'backupDatabase',
  'ocr',
  'workflow',
  'integrityCheck',
  'editor',
];

/** v1.100's twelve queues (`AllJobStatusResponseDto`), in v3's order. */
export const queueNamesV1: readonly QueueName[] = queueNames.filter((name) => !sinceV1.includes(name));

/** The queues this server runs work in, and the longest a run may take (its function's timeout). */
export const queueRunLimitMs: Partial<Record<QueueName, number>> = {
  thumbnailGeneration: 5 * 60_000,
  metadataExtraction: 5 * 60_000,
  backgroundTask: 15 * 60_000,
  // The transcode function's runs (docs/media.md, "Transcoding").
  videoConversion: 15 * 60_000,
};

/** Immich's job counts of a queue. */
export interface QueueStatistics {
  active: number;
  completed: number;
  delayed: number;
  failed: number;
  paused: number;
  waiting: number;
}

export interface QueueStatus {
  name: QueueName;
  isPaused: boolean;
  statistics: QueueStatistics;
}

/** Immich's queue commands (v3's `QueueCommand`, v1.100's `JobCommand`). */
export const queueCommands = ['start', 'pause', 'resume', 'empty', 'clear-failed'] as const;
export type QueueCommand = (typeof queueCommands)[number];
