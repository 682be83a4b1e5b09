/**
 * Immich v3.2's maintenance, database-backup and integrity requests (`@immich/sdk` 3.2.2:
 * SetMaintenanceModeDto, MaintenanceLoginDto, DatabaseBackupDeleteDto, getIntegrityReport's query),
 * checked as Immich checks them before this server answers that it has none of them
 * (docs/immich-compatibility.md, "What this server has none of").
 */
import * as v from 'valibot';
import { limits } from '../../model/limits.ts';
import { dto } from '../common.ts';
import { coercedInteger, object, picklist, text } from './common.ts';

export const SetMaintenanceModeDto = object({
  action: picklist(['start', 'end', 'select_database_restore', 'restore_database'] as const),
  restoreBackupFilename: v.optional(text(limits.keyValue)),
});

export const MaintenanceLoginDto = object({ token: v.optional(text(limits.keyValue)) });

export const DatabaseBackupDeleteDto = object({ backups: v.array(text(limits.keyValue), '$property must be an array') });

export const IntegrityReportQuery = object({
  type: picklist(['untracked_file', 'missing_file', 'checksum_mismatch'] as const),
  cursor: v.optional(text(limits.keyValue)),
  limit: v.optional(coercedInteger(1)),
});

/** DELETE /admin/integrity/report/:id: a report item's id is a UUID v7 (any version is taken). */
export const IntegrityReportItemParams = dto({
  id: v.pipe(v.string(), v.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, '$property must be a UUID')),
});
