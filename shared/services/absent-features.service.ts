/**
 * What an Immich without these answers, for the pages of the v3 web app that read them on load
 * (docs/immich-compatibility.md, "What this server has none of"): no database backups (the table
 * is DynamoDB's, with its own point-in-time recovery), no integrity report (no integrity job has
 * run), no workflows and no plugins. Their writes are not served.
 */

/** GET /admin/database-backups. */
export const listDatabaseBackups = (): { backups: never[] } => ({ backups: [] });

/** GET /admin/integrity/summary: no report has entries. */
export const integrityReportSummary = (): { checksum_mismatch: number; missing_file: number; untracked_file: number } => ({
  checksum_mismatch: 0,
  missing_file: 0,
  untracked_file: 0,
});

/** GET /workflows, GET /workflows/triggers, GET /plugins/methods, GET /plugins/templates: none. */
export const noneHere = (): never[] => [];
