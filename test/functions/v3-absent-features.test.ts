import { beforeAll, describe, expect, it } from 'vitest';
import { handler as listDatabaseBackups } from '#functions/v3/database-backup/list-database-backups.ts';
import { handler as getIntegrityReportSummary } from '#functions/v3/integrity/get-integrity-report-summary.ts';
import { handler as searchPluginMethods } from '#functions/v3/plugin/search-plugin-methods.ts';
import { handler as searchPluginTemplates } from '#functions/v3/plugin/search-plugin-templates.ts';
import { handler as getWorkflowTriggers } from '#functions/v3/workflow/get-workflow-triggers.ts';
import { handler as searchWorkflows } from '#functions/v3/workflow/search-workflows.ts';
import { bearer, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

describe('what this server has none of, as an Immich with none answers (v3)', () => {
  it('answers the admin no database backups and an empty integrity report; a user 403', async () => {
    const admin = bearer(accounts.admin.accessToken);
    expect(await invoke(listDatabaseBackups, { path: '/api/admin/database-backups', headers: admin })).toMatchObject({
      status: 200,
      body: { backups: [] },
    });
    expect((await invoke(getIntegrityReportSummary, { path: '/api/admin/integrity/summary', headers: admin })).body).toEqual({
      checksum_mismatch: 0,
      missing_file: 0,
      untracked_file: 0,
    });
    const user = bearer(accounts.user1.accessToken);
    expect((await invoke(listDatabaseBackups, { path: '/api/admin/database-backups', headers: user })).status).toBe(403);
    expect((await invoke(getIntegrityReportSummary, { path: '/api/admin/integrity/summary', headers: user })).status).toBe(403);
  });

  it('answers no workflows, triggers or plugins to a signed-in user, and 401 to no one', async () => {
    const user = bearer(accounts.user1.accessToken);
    for (const [handler, path] of [
      [searchWorkflows, '/api/workflows'],
      [getWorkflowTriggers, '/api/workflows/triggers'],
      [searchPluginMethods, '/api/plugins/methods'],
      [searchPluginTemplates, '/api/plugins/templates'],
    ] as const) {
      expect(await invoke(handler, { path, query: { enabled: 'true' }, headers: user }), path).toMatchObject({ status: 200, body: [] });
      expect((await invoke(handler, { path })).status, path).toBe(401);
    }
  });
});
