import { beforeAll, describe, expect, it } from 'vitest';
import { handler as memoryLaneHandler } from '#functions/asset/get-memory-lane.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { assetInfo, updateAsset } from '../support/library.ts';
import { objectCreated } from '../support/media.ts';
import { makeJpeg } from '../support/photos.ts';
import { upload } from '../support/uploads.ts';

let token: string;
beforeAll(async () => {
  const accounts = await setupAccounts();
  token = (await freshUser(accounts.admin.accessToken, `Memories${Date.now()}`)).accessToken;
});

const lane = (query: Record<string, string>) =>
  invoke(memoryLaneHandler, { path: '/api/asset/memory-lane', query, headers: bearer(token) });

/** A photo taken at this wall-clock time and offset, with its previews made (Immich lists only those). */
const taken = async (dateTimeOriginal: string, offsetTimeOriginal: string, previews = true) => {
  const reply = await upload(token, { data: makeJpeg({ width: 40, height: 30, dateTimeOriginal, offsetTimeOriginal }) });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const id = reply.body.id as string;
  if (previews) {
    const { originalPath } = (await assetInfo(token, id)).body;
    await objectCreated(originalPath);
  }
  return id;
};

describe('GET /asset/memory-lane', () => {
  it('groups the photos taken on this day (their local day) of earlier years, as Immich', async () => {
    const year = new Date().getUTCFullYear();
    // 00:30 on 15 June at UTC+2 is still 14 June in UTC: the local day counts.
    const early = await taken(`${year - 1}:06:15 00:30:00`, '+02:00');
    const late = await taken(`${year - 1}:06:15 23:00:00`, '-05:00');
    const older = await taken(`${year - 3}:06:15 12:00:00`, '+00:00');
    await taken(`${year - 1}:06:16 12:00:00`, '+00:00');
    await taken(`${year}:06:15 12:00:00`, '+00:00');
    await taken(`${year - 2}:06:15 12:00:00`, '+00:00', false);
    const archived = await taken(`${year - 2}:06:15 13:00:00`, '+00:00');
    expect((await updateAsset(token, archived, { isArchived: true })).status).toBe(200);

    const reply = await lane({ day: '15', month: '6' });
    expect(reply.status).toBe(200);
    expect(
      reply.body.map((group: { yearsAgo: number; title: string; assets: { id: string }[] }) => [
        group.yearsAgo,
        group.title,
        group.assets.map((asset) => asset.id),
      ]),
    ).toEqual([
      [1, '1 year since...', [early, late]],
      [3, '3 years since...', [older]],
    ]);
    expect(reply.body[0].assets[0]).toMatchObject({ resized: true, exifInfo: { timeZone: 'UTC+2' } });
    expect((await lane({ day: '1', month: '1' })).body).toEqual([]);
  });

  it('validates day and month as Immich', async () => {
    expect((await lane({ day: '0', month: '13' })).body.message).toEqual([
      'day must not be less than 1',
      'month must not be greater than 12',
    ]);
    expect((await lane({})).body.message).toEqual([
      'day must not be less than 1',
      'day must not be greater than 31',
      'day must be an integer number',
      'month must not be less than 1',
      'month must not be greater than 12',
      'month must be an integer number',
    ]);
  });
});
