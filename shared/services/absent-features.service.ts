/**
 * What an Immich without these answers, for the pages of the v3 web app that read them on load
 * (docs/immich-compatibility.md, "What this server has none of"): no database backups (the table
 * is DynamoDB's, with its own point-in-time recovery), no integrity report (no integrity job has
 * run), no plugins (so workflows have no steps: workflow.service.ts), no external libraries, no
 * maintenance mode. What acts on one answers as Immich does when it does not exist, and what
 * would make one is refused with the reason.
 */
import { Invalid } from '../core/errors.ts';

/** GET /admin/database-backups. */
export const listDatabaseBackups = (): { backups: never[] } => ({ backups: [] });

/** GET /admin/integrity/summary: no report has entries. */
export const integrityReportSummary = (): { checksum_mismatch: number; missing_file: number; untracked_file: number } => ({
  checksum_mismatch: 0,
  missing_file: 0,
  untracked_file: 0,
});

/** GET /plugins/methods, GET /plugins/templates: none. */
export const noneHere = (): never[] => [];

/**
 * External libraries (folders on the server's disk that Immich scans) do not exist here: a Lambda
 * function has no such disk, and every photo comes from an upload. Creating one is refused with
 * that reason; any library asked for by id is Immich's answer for one that does not exist.
 */
export const refuseLibrary = (): never => {
  throw new Invalid('External libraries are not available on this server: its photos come from uploads, with no folder to scan');
};

/** GET, PUT, DELETE /libraries/:id, its validate and scan: Immich's `findOrFail`. */
export const libraryNotFound = (): never => {
  throw new Invalid('Library not found');
};

/** GET /libraries/:id/statistics: Immich's own wording there. */
export const libraryStatisticsNotFound = (id: string): never => {
  throw new Invalid(`Library ${id} not found`);
};

/**
 * Maintenance mode (Immich restarts into a separate app to restore its Postgres database) does not
 * exist here: the table is DynamoDB's, restored with its point-in-time recovery. The server is never
 * in it, so its status and login answer as Immich's outside it; entering it is refused with the reason.
 */
export const maintenanceStatus = (): { active: false; action: 'end' } => ({ active: false, action: 'end' });

/** POST /admin/maintenance/login outside maintenance mode: Immich's answer. */
export const maintenanceLogin = (): never => {
  throw new Invalid('Not in maintenance mode');
};

export const noMaintenanceMode = (): never => {
  throw new Invalid('Maintenance mode is not available on this server: its database is DynamoDB, restored with point-in-time recovery');
};

/** POST /admin/maintenance: `end` is nothing to do (as Immich's outside it); anything else is refused. */
export const setMaintenanceMode = (action: string): void => {
  if (action !== 'end') noMaintenanceMode();
};

/** GET /admin/maintenance/detect-install: a look at the local folders a restore would reuse; none exist here. */
export const detectPriorInstall = (): never => noMaintenanceMode();

/** DELETE /admin/database-backups: Immich's check of each name; no backup file exists to remove. */
export const deleteDatabaseBackups = (names: readonly string[]): void => {
  if (names.some((name) => !/^[\w.-]+\.sql(?:\.gz)?$/.test(name))) throw new Invalid('Invalid backup name!');
};

/** GET /admin/integrity/report?type=: no integrity job has run, so no report has items. */
export const integrityReport = (): { items: never[] } => ({ items: [] });

/** DELETE /admin/integrity/report/:id: there is no item to delete. */
export const integrityReportItemNotFound = (): never => {
  throw new Invalid('Integrity report item not found');
};
