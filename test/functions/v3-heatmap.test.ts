import { beforeAll, describe, expect, it } from 'vitest';
import { handler as myHeatmap } from '#functions/v3/user/get-my-calendar-heatmap.ts';
import { handler as adminHeatmap } from '#functions/v3/user-admin/get-user-calendar-heatmap-admin.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, trash } from '../support/library.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const today = () => new Date().toISOString().slice(0, 10);

describe('the calendar heatmap (GET /users/me/calendar-heatmap, GET /admin/users/:id/calendar-heatmap)', () => {
  it('counts untrashed assets a day, by upload (the default) or by the day taken, over the days asked', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Heat');
    const token = user.accessToken;
    const taken = new Date('2024-01-02T10:00:00Z');
    const [a, , c] = [
      await addPhoto(token, { color: [1, 0, 0] }, taken),
      await addPhoto(token, { color: [0, 1, 0] }, taken),
      await addPhoto(token, { color: [0, 0, 1] }, new Date('2024-01-04T10:00:00Z')),
    ];
    expect((await trash(token, [c])).status).toBe(204);
    expect(a).toBeDefined();

    const mine = (query: Record<string, string> = {}) =>
      invoke(myHeatmap, { path: '/api/users/me/calendar-heatmap', query, headers: bearer(token) });
    const byUpload = await mine();
    expect(byUpload.status).toBe(200);
    // 52 weeks up to today, a day each.
    expect(byUpload.body.series).toHaveLength(364);
    expect(byUpload.body.to).toBe(today());
    expect(byUpload.body.series.at(-1)).toEqual({ date: today(), count: 2 });
    expect(byUpload.body.totalCount).toBe(2);

    const byTaken = await mine({ type: 'Taken', from: '2024-01-01', to: '2024-01-05' });
    expect(byTaken.body).toEqual({
      from: '2024-01-01',
      to: '2024-01-05',
      series: [
        { date: '2024-01-01', count: 0 },
        { date: '2024-01-02', count: 2 },
        { date: '2024-01-03', count: 0 },
        { date: '2024-01-04', count: 0 },
        { date: '2024-01-05', count: 0 },
      ],
      totalCount: 2,
    });
    expect((await mine({ from: '2024-02-01', to: '2024-01-01' })).status).toBe(400);
    expect((await mine({ type: 'Whenever' })).status).toBe(400);

    const admin = (id: string, token: string) =>
      invoke(adminHeatmap, {
        path: `/api/admin/users/${id}/calendar-heatmap`,
        pathParameters: { id },
        query: { type: 'Taken', from: '2024-01-02', to: '2024-01-02' },
        headers: bearer(token),
      });
    expect((await admin(user.userId, accounts.admin.accessToken)).body.totalCount).toBe(2);
    expect((await admin(user.userId, token)).status).toBe(403);
  });
});
