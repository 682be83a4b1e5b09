import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAssetStatisticsHandler } from '#functions/asset/get-asset-statistics.ts';
import { handler as emptyTrashHandler } from '#functions/trash/empty-trash.ts';
import { handler as restoreTrashHandler } from '#functions/trash/restore-trash.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, assetInfo, trash } from '../support/library.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const empty = (token: string) => invoke(emptyTrashHandler, { method: 'POST', path: '/api/trash/empty', headers: bearer(token) });
const restore = (token: string) => invoke(restoreTrashHandler, { method: 'POST', path: '/api/trash/restore', headers: bearer(token) });
const stats = async (token: string, query: Record<string, string> = {}) =>
  (await invoke(getAssetStatisticsHandler, { path: '/api/asset/statistics', query, headers: bearer(token) })).body;

describe('POST /trash/empty and POST /trash/restore', () => {
  it("restores or deletes for good every asset in the caller's trash, and only the caller's", async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Trash${Date.now()}`)).accessToken;
    const other = (await freshUser(accounts.admin.accessToken, `Other${Date.now()}`)).accessToken;
    const taken = (who: string, date: string) => addPhoto(who, { dateTimeOriginal: date, offsetTimeOriginal: '+00:00' });
    const [a, b, c, kept] = [
      await taken(token, '2020:01:01 00:00:00'),
      await taken(token, '2021:06:30 23:30:00'),
      await taken(token, '2021:07:01 00:30:00'),
      await taken(token, '2022:02:02 02:02:02'),
    ];
    const theirs = await taken(other, '2021:06:30 12:00:00');
    expect((await trash(token, [a, b, c])).status).toBe(204);
    expect((await trash(other, [theirs])).status).toBe(204);

    expect((await restore(token)).status).toBe(204);
    for (const id of [a, b, c]) expect((await assetInfo(token, id)).body.isTrashed).toBe(false);
    expect((await assetInfo(other, theirs)).body.isTrashed).toBe(true);

    expect((await trash(token, [a, c])).status).toBe(204);
    expect(await stats(token, { isTrashed: 'true' })).toEqual({ images: 2, videos: 0, total: 2 });
    expect((await empty(token)).status).toBe(204);
    for (const id of [a, c]) expect((await assetInfo(token, id)).status).toBe(400);
    for (const id of [b, kept]) expect((await assetInfo(token, id)).status).toBe(200);
    expect(await stats(token, { isTrashed: 'true' })).toEqual({ images: 0, videos: 0, total: 0 });
    expect(await stats(token)).toEqual({ images: 2, videos: 0, total: 2 });
    // Nothing in the trash: nothing to do.
    expect((await empty(token)).status).toBe(204);
    expect((await assetInfo(other, theirs)).body.isTrashed).toBe(true);
  });
});
