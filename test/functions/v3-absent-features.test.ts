import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteDatabaseBackup } from '#functions/v3/database-backup/delete-database-backup.ts';
import { handler as listDatabaseBackups } from '#functions/v3/database-backup/list-database-backups.ts';
import { handler as startDatabaseRestoreFlow } from '#functions/v3/database-backup/start-database-restore-flow.ts';
import { handler as deleteIntegrityReport } from '#functions/v3/integrity/delete-integrity-report.ts';
import { handler as getIntegrityReport } from '#functions/v3/integrity/get-integrity-report.ts';
import { handler as getIntegrityReportSummary } from '#functions/v3/integrity/get-integrity-report-summary.ts';
import { handler as createLibrary } from '#functions/v3/library/create-library.ts';
import { handler as deleteLibrary } from '#functions/v3/library/delete-library.ts';
import { handler as getLibrary } from '#functions/v3/library/get-library.ts';
import { handler as getLibraryStatistics } from '#functions/v3/library/get-library-statistics.ts';
import { handler as scanLibrary } from '#functions/v3/library/scan-library.ts';
import { handler as updateLibrary } from '#functions/v3/library/update-library.ts';
import { handler as validateLibrary } from '#functions/v3/library/validate.ts';
import { handler as detectPriorInstall } from '#functions/v3/maintenance/detect-prior-install.ts';
import { handler as getMaintenanceStatus } from '#functions/v3/maintenance/get-maintenance-status.ts';
import { handler as maintenanceLogin } from '#functions/v3/maintenance/maintenance-login.ts';
import { handler as setMaintenanceMode } from '#functions/v3/maintenance/set-maintenance-mode.ts';
import { handler as searchPluginMethods } from '#functions/v3/plugin/search-plugin-methods.ts';
import { handler as searchPluginTemplates } from '#functions/v3/plugin/search-plugin-templates.ts';
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

  it('answers no plugins to a signed-in user, and 401 to no one', async () => {
    const user = bearer(accounts.user1.accessToken);
    for (const [handler, path] of [
      [searchPluginMethods, '/api/plugins/methods'],
      [searchPluginTemplates, '/api/plugins/templates'],
    ] as const) {
      expect(await invoke(handler, { path, query: { enabled: 'true' }, headers: user }), path).toMatchObject({ status: 200, body: [] });
      expect((await invoke(handler, { path })).status, path).toBe(401);
    }
  });
});

describe('external libraries, maintenance mode, backups and integrity reports: none exist here (v3)', () => {
  const id = '0f3c1d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

  it('refuses to create an external library, after Immich’s checks, and finds none by id', async () => {
    const admin = bearer(accounts.admin.accessToken);
    const create = (body: unknown, headers = admin) => invoke(createLibrary, { method: 'POST', path: '/api/libraries', headers, body });
    const refused = await create({ ownerId: accounts.admin.userId, importPaths: ['/photos'] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^External libraries are not available on this server/);
    expect((await create({ ownerId: 'nobody' })).body).toMatchObject({ message: 'Validation failed' });
    expect((await create({ ownerId: accounts.admin.userId, importPaths: ['/a', '/a'] })).status).toBe(400);
    expect((await create({ ownerId: accounts.admin.userId }, bearer(accounts.user1.accessToken))).status).toBe(403);

    const byId = { headers: admin, pathParameters: { id } };
    for (const [handler, method, path, body] of [
      [getLibrary, 'GET', `/api/libraries/${id}`, undefined],
      [updateLibrary, 'PUT', `/api/libraries/${id}`, { name: 'Photos' }],
      [deleteLibrary, 'DELETE', `/api/libraries/${id}`, undefined],
      [validateLibrary, 'POST', `/api/libraries/${id}/validate`, { importPaths: ['/photos'] }],
      [scanLibrary, 'POST', `/api/libraries/${id}/scan`, undefined],
    ] as const) {
      const reply = await invoke(handler, { ...byId, method, path, ...(body ? { body } : {}) });
      expect(reply, path).toMatchObject({ status: 400, body: { message: 'Library not found' } });
    }
    expect((await invoke(getLibraryStatistics, { ...byId, path: `/api/libraries/${id}/statistics` })).body).toMatchObject({
      message: `Library ${id} not found`,
    });
    expect((await invoke(getLibrary, { headers: admin, path: '/api/libraries/x', pathParameters: { id: 'x' } })).status).toBe(400);
  });

  it('is never in maintenance mode: its status and login answer as Immich’s outside it; entering it is refused', async () => {
    expect(await invoke(getMaintenanceStatus, { path: '/api/admin/maintenance/status' })).toMatchObject({
      status: 200,
      body: { active: false, action: 'end' },
    });
    expect(await invoke(maintenanceLogin, { method: 'POST', path: '/api/admin/maintenance/login', body: { token: 'x' } })).toMatchObject({
      status: 400,
      body: { message: 'Not in maintenance mode' },
    });
    const admin = bearer(accounts.admin.accessToken);
    const set = (action: string, headers = admin) =>
      invoke(setMaintenanceMode, { method: 'POST', path: '/api/admin/maintenance', headers, body: { action } });
    expect((await set('end')).status).toBe(201);
    const start = await set('start');
    expect(start.status).toBe(400);
    expect(start.body.message).toMatch(/^Maintenance mode is not available on this server/);
    expect((await set('pause')).body).toMatchObject({ message: 'Validation failed' });
    expect((await set('start', bearer(accounts.user1.accessToken))).status).toBe(403);
    expect((await invoke(detectPriorInstall, { path: '/api/admin/maintenance/detect-install', headers: admin })).status).toBe(400);
    // A restore starts only on a server without an admin; this one has one.
    expect(await invoke(startDatabaseRestoreFlow, { method: 'POST', path: '/api/admin/database-backups/start-restore' })).toMatchObject({
      status: 400,
      body: { message: 'The server already has an admin' },
    });
  });

  it('deletes no backup (checking each name as Immich does) and reports no integrity item', async () => {
    const admin = bearer(accounts.admin.accessToken);
    const remove = (backups: unknown) =>
      invoke(deleteDatabaseBackup, { method: 'DELETE', path: '/api/admin/database-backups', headers: admin, body: { backups } });
    expect((await remove(['immich-db-backup-20250729T114018-v1.136.0-pg14.17.sql.gz'])).status).toBe(200);
    expect(await remove(['../../etc/passwd'])).toMatchObject({ status: 400, body: { message: 'Invalid backup name!' } });
    const report = (query: Record<string, string>) =>
      invoke(getIntegrityReport, { path: '/api/admin/integrity/report', headers: admin, query });
    expect(await report({ type: 'missing_file', limit: '50' })).toMatchObject({ status: 200, body: { items: [] } });
    expect((await report({ type: 'lost' })).status).toBe(400);
    const item = '01890a5d-ac96-774b-bcce-b302099a8057';
    expect(
      await invoke(deleteIntegrityReport, {
        method: 'DELETE',
        path: `/api/admin/integrity/report/${item}`,
        headers: admin,
        pathParameters: { id: item },
      }),
    ).toMatchObject({ status: 400, body: { message: 'Integrity report item not found' } });
  });
});
