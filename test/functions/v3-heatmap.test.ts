import { beforeAll, describe, expect, it } from 'vitest';
import { handler as myHeatmap } from '#functions/v3/user/get-my-calendar-heatmap.ts';
import { handler as adminHeatmap } from '#functions/v3/user-admin/get-user-calendar-heatmap-admin.ts';
import { limits } from '#shared/model/limits.ts';
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

describe('the calendar heatmap’s range is bounded (issue 49, High 2)', () => {
  const days = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
  const addDays = (day: string, n: number) => new Date(Date.parse(day) + n * 86_400_000).toISOString().slice(0, 10);

  it('answers 400 in v3’s validation shape past the longest range, on both routes; at the longest a day each', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'HeatRange');
    const mine = (query: Record<string, string>) =>
      invoke(myHeatmap, { path: '/api/users/me/calendar-heatmap', query, headers: bearer(user.accessToken) });
    const admin = (query: Record<string, string>) =>
      invoke(adminHeatmap, {
        path: `/api/admin/users/${user.userId}/calendar-heatmap`,
        pathParameters: { id: user.userId },
        query,
        headers: bearer(accounts.admin.accessToken),
      });
    const tooLong = {
      message: 'Validation failed',
      errors: [{ path: ['from'], message: expect.stringContaining(`${limits.heatmapDays} days`) }],
    };

    // One day past the longest range, then the red team's request (117 MB before).
    const first = '2000-01-01';
    const last = addDays(first, limits.heatmapDays - 1);
    expect(days(first, last)).toBe(limits.heatmapDays);
    for (const query of [
      { from: first, to: addDays(last, 1) } as Record<string, string>,
      { from: '0001-01-01', to: '9999-12-31' },
      { from: '0001-01-01', to: '9999-12-31', type: 'Taken' },
    ]) {
      expect(await mine(query), JSON.stringify(query)).toMatchObject({ status: 400, body: tooLong });
      expect(await admin(query), JSON.stringify(query)).toMatchObject({ status: 400, body: tooLong });
    }
    // `from` alone runs to today: a `from` too long before today is the same 400.
    expect(await mine({ from: '0001-01-01' })).toMatchObject({ status: 400, body: tooLong });
    expect(await mine({ from: addDays(today(), -limits.heatmapDays) })).toMatchObject({ status: 400, body: tooLong });
    const longest = await mine({ from: addDays(today(), 1 - limits.heatmapDays) });
    expect(longest.status).toBe(200);
    expect(longest.body.series).toHaveLength(limits.heatmapDays);

    // `to` alone starts 52 weeks before it, however far it is.
    const far = await mine({ to: '9999-12-31', type: 'Taken' });
    expect(far.status).toBe(200);
    expect(far.body).toMatchObject({ from: addDays('9999-12-31', -363), to: '9999-12-31', totalCount: 0 });
    expect(far.body.series).toHaveLength(364);

    const whole = await admin({ from: first, to: last, type: 'Taken' });
    expect(whole.status).toBe(200);
    expect(whole.body).toMatchObject({ from: first, to: last, totalCount: 0 });
    expect(whole.body.series).toHaveLength(limits.heatmapDays);
  });
});
