import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteUserAdmin } from '#functions/v3/user-admin/delete-user-admin.ts';
import { handler as getUserAdmin } from '#functions/v3/user-admin/get-user-admin.ts';
import { handler as heatmapAdmin } from '#functions/v3/user-admin/get-user-calendar-heatmap-admin.ts';
import { handler as preferencesAdmin } from '#functions/v3/user-admin/get-user-preferences-admin.ts';
import { handler as sessionsAdmin } from '#functions/v3/user-admin/get-user-sessions-admin.ts';
import { handler as statisticsAdmin } from '#functions/v3/user-admin/get-user-statistics-admin.ts';
import { handler as updatePreferencesAdmin } from '#functions/v3/user-admin/update-user-preferences-admin.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto } from '../support/library.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const today = () => new Date().toISOString().slice(0, 10);

/** What the web app's admin page of a user asks for (web/src/routes/admin/users/[id]: its load and its heatmap). */
const adminPage = async (id: string) => {
  const headers = bearer(accounts.admin.accessToken);
  const read = (handler: typeof getUserAdmin, suffix: string, query: Record<string, string> = {}) =>
    invoke(handler, { path: `/api/admin/users/${id}${suffix}`, pathParameters: { id }, query, headers });
  return {
    user: await read(getUserAdmin, ''),
    preferences: await read(preferencesAdmin, '/preferences'),
    statistics: await read(statisticsAdmin, '/statistics'),
    sessions: await read(sessionsAdmin, '/sessions'),
    heatmap: await read(heatmapAdmin, '/calendar-heatmap', { type: 'Upload', from: today(), to: today() }),
  };
};

describe("a deleted user's admin page (GET /admin/users/{id} and its reads)", () => {
  it('answers every read of a user pending deletion, the calendar heatmap too', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Leaver');
    await addPhoto(user.accessToken, { color: [1, 0, 0] });
    const deleted = await invoke(deleteUserAdmin, {
      method: 'DELETE',
      path: `/api/admin/users/${user.userId}`,
      pathParameters: { id: user.userId },
      body: {},
      headers: bearer(accounts.admin.accessToken),
    });
    expect(deleted.body).toMatchObject({ status: 'deleted' });

    const page = await adminPage(user.userId);
    expect(page.user).toMatchObject({ status: 200, body: { id: user.userId, status: 'deleted' } });
    expect(page.preferences.status).toBe(200);
    expect(page.statistics).toMatchObject({ status: 200, body: { images: 1, videos: 0, total: 1 } });
    expect(page.sessions.status).toBe(200);
    expect(page.heatmap).toMatchObject({
      status: 200,
      body: { from: today(), to: today(), series: [{ date: today(), count: 1 }], totalCount: 1 },
    });

    // Their preferences are not changed while they are deleted (Immich's findOrFail without them).
    const change = await invoke(updatePreferencesAdmin, {
      method: 'PUT',
      path: `/api/admin/users/${user.userId}/preferences`,
      pathParameters: { id: user.userId },
      body: { memories: { enabled: false } },
      headers: bearer(accounts.admin.accessToken),
    });
    expect(change).toMatchObject({ status: 400, body: { message: 'User not found' } });
  });

  it('an id of no user: 400 User not found for the user, preferences and heatmap; no statistics nor sessions', async () => {
    const page = await adminPage(randomUUID());
    expect(page.user).toMatchObject({ status: 400, body: { message: 'User not found' } });
    expect(page.preferences).toMatchObject({ status: 400, body: { message: 'User not found' } });
    expect(page.heatmap).toMatchObject({ status: 400, body: { message: 'User not found' } });
    expect(page.statistics).toMatchObject({ status: 200, body: { images: 0, videos: 0, total: 0 } });
    expect(page.sessions).toMatchObject({ status: 200, body: [] });
  });
});
