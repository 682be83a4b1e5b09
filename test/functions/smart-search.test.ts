import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as sendJobCommand } from '#functions/job/send-job-command.ts';
import { handler as search } from '#functions/search/search.ts';
import { handler as searchSmart } from '#functions/search/search-smart.ts';
import { handler as deleteAssets } from '#functions/v3/asset/delete-assets.ts';
import { handler as createPartner } from '#functions/v3/partner/create-partner.ts';
import { handler as updatePartner } from '#functions/v3/partner/update-partner.ts';
import * as assetRepo from '#shared/db/asset.repository.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { assetInfo } from '../support/library.ts';
import { changeConfig, mediaJobsInProcess, objectCreated } from '../support/media.ts';
import { type MlService, startMlService } from '../support/ml-service.ts';
import { makeJpeg, type PhotoSpec } from '../support/photos.ts';
import { cliFields, upload } from '../support/uploads.ts';

/**
 * Smart search (docs/search.md) through the real handlers against DynamoDB Local, with an Immich
 * ML stand-in whose embeddings follow a photo's colour (test/support/ml-service.ts): photos are
 * embedded by the media function after their previews, and a query for a colour ranks that
 * colour's photo first.
 */
let accounts: Awaited<ReturnType<typeof setupAccounts>>;
let ml: MlService;
const media = mediaJobsInProcess();
type User = Awaited<ReturnType<typeof freshUser>>;
let owner: User;
let partner: User;
let stranger: User;
const photos: Record<string, string> = {};

const setMl = (change: (machineLearning: Record<string, any>) => Record<string, any>) =>
  changeConfig(accounts.admin.accessToken, (config) => ({ ...config, machineLearning: change(config.machineLearning) }));

const colours = { red: [250, 10, 10], green: [10, 250, 10], blue: [10, 10, 250], yellow: [250, 250, 10] } as const;

let uploads = 0;
const uploadPhoto = async (user: User, spec: PhotoSpec): Promise<string> => {
  const data = makeJpeg({ width: 96, height: 64, ...spec });
  const name = `smart-${++uploads}.jpg`;
  const reply = await upload(user.accessToken, { data, fileName: name, fields: cliFields(name, data.length) });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const id = reply.body.id as string;
  const { body } = await assetInfo(user.accessToken, id);
  expect((await objectCreated(body.originalPath)).outcomes).toEqual({ [body.originalPath]: 'made' });
  return id;
};

const smartV3 = (user: User, body: Record<string, unknown>) =>
  invoke(searchSmart, { method: 'POST', path: '/api/search/smart', headers: bearer(user.accessToken), body: { language: 'en', ...body } });
const smartV1 = (user: User, body: Record<string, unknown>) =>
  invoke(searchSmart, { method: 'POST', path: '/api/search/smart', headers: bearer(user.accessToken), body });
const ids = (reply: { status: number; body: any }): string[] => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.assets.items.map((item: { id: string }) => item.id);
};

beforeAll(async () => {
  accounts = await setupAccounts();
  media.start();
  ml = await startMlService();
  await setMl((machineLearning) => ({
    ...machineLearning,
    enabled: true,
    urls: [ml.url],
    clip: { enabled: true, modelName: 'ViT-B-32__openai' },
  }));
  [owner, partner, stranger] = [
    await freshUser(accounts.admin.accessToken, `Smart${Date.now()}`),
    await freshUser(accounts.admin.accessToken, `Partner${Date.now()}`),
    await freshUser(accounts.admin.accessToken, `Stranger${Date.now()}`),
  ];
  photos.red = await uploadPhoto(owner, { color: [...colours.red], make: 'Canon' });
  photos.green = await uploadPhoto(owner, { color: [...colours.green], make: 'Nikon' });
  photos.blue = await uploadPhoto(owner, { color: [...colours.blue], make: 'Canon' });
  photos.partnerYellow = await uploadPhoto(partner, { color: [...colours.yellow] });
  photos.strangerRed = await uploadPhoto(stranger, { color: [...colours.red] });
});
afterAll(async () => {
  media.stop();
  await ml?.close();
});

describe('smart search', () => {
  it('embeds each upload after its previews, under the model, and ranks a colour query by cosine similarity', async () => {
    const asset = await assetRepo.get(photos.red as string);
    expect(asset?.smartSearchModel).toBe('ViT-B-32__openai');
    expect(ml.requests.filter((request) => request.path === '/predict' && request.imageBytes).length).toBeGreaterThanOrEqual(5);
    for (const colour of ['red', 'green', 'blue'] as const) {
      const found = ids(await smartV3(owner, { query: colour }));
      expect(found[0]).toBe(photos[colour]);
      expect(found.sort()).toEqual([photos.red, photos.green, photos.blue].sort());
    }
    // v1.100's request and answer: no language, `query` required.
    const v1 = await smartV1(owner, { query: 'green' });
    expect(ids(v1)[0]).toBe(photos.green);
    expect(v1.body.albums).toEqual({ total: 0, count: 0, items: [], facets: [] });
    expect(v1.body.assets).toMatchObject({ total: 3, count: 3, facets: [], nextPage: null });
    expect((await smartV1(owner, {})).body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    // v1.100's messages in its order: SmartSearchDto's own `query`, then BaseSearchDto's fields in theirs.
    expect((await smartV1(owner, { personIds: ['x'], isNotInAlbum: 'maybe', page: 0, city: '', query: '' })).body.message).toEqual([
      'query should not be empty',
      'city should not be empty',
      'page must not be less than 1',
      'isNotInAlbum must be a boolean value',
      'each value in personIds must be a UUID',
    ]);
  });

  it('applies the metadata filters to the ranked list', async () => {
    const canon = ids(await smartV3(owner, { query: 'blue', make: 'Canon' }));
    expect(canon).toEqual([photos.blue, photos.red]);
    expect(ids(await smartV3(owner, { query: 'red', make: 'Nikon' }))).toEqual([photos.green]);
    expect(ids(await smartV3(owner, { query: 'red', takenAfter: '2100-01-01T00:00:00.000Z' }))).toEqual([]);
    expect(ids(await smartV1(owner, { query: 'red', make: 'Nikon' }))).toEqual([photos.green]);
  });

  it('pages the ranking: size and page, nextPage as Immich', async () => {
    const all = ids(await smartV3(owner, { query: 'red' }));
    const pages: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const reply = await smartV3(owner, { query: 'red', size: 1, page });
      pages.push(...ids(reply));
      expect(reply.body.assets.nextPage).toBe(page < 3 ? String(page + 1) : null);
    }
    expect(pages).toEqual(all);
    expect(ids(await smartV3(owner, { query: 'red', size: 2, page: 2 }))).toEqual(all.slice(2));
    for (const size of [0, 1001, 'x'])
      expect((await smartV3(owner, { query: 'red', size })).body).toMatchObject({ statusCode: 400, message: expect.anything() });
  });

  it('searches by an asset (queryAssetId): its own embedding is the query', async () => {
    expect(ids(await smartV3(owner, { queryAssetId: photos.blue }))[0]).toBe(photos.blue);
    // Another user's asset is not the caller's to read.
    expect((await smartV3(owner, { queryAssetId: photos.strangerRed })).status).toBe(400);
    expect((await smartV3(owner, {})).body).toMatchObject({ statusCode: 400, message: 'Either `query` or `queryAssetId` must be set' });
  });

  it("searches the timeline partners' photos too, never another user's", async () => {
    expect(ids(await smartV3(owner, { query: 'yellow' }))).not.toContain(photos.partnerYellow);
    const shared = await invoke(createPartner, {
      method: 'POST',
      path: '/api/partners',
      headers: bearer(partner.accessToken),
      body: { sharedWithId: owner.userId },
    });
    expect(shared.status).toBe(201);
    // Shared but not in the timeline: not searched.
    expect(ids(await smartV3(owner, { query: 'yellow' }))).not.toContain(photos.partnerYellow);
    const joined = await invoke(updatePartner, {
      method: 'PUT',
      path: `/api/partners/${partner.userId}`,
      headers: bearer(owner.accessToken),
      pathParameters: { id: partner.userId },
      body: { inTimeline: true },
    });
    expect(joined.status).toBe(200);
    expect(ids(await smartV3(owner, { query: 'yellow' }))[0]).toBe(photos.partnerYellow);
    // The partner does not see the owner's (not shared that way); the stranger only their own.
    expect(ids(await smartV3(partner, { query: 'red' }))).toEqual([photos.partnerYellow]);
    expect(ids(await smartV3(stranger, { query: 'blue' }))).toEqual([photos.strangerRed]);
    expect(ids(await smartV3(owner, { query: 'red' }))).not.toContain(photos.strangerRed);
  });

  it('leaves out trashed photos unless asked for, deleted ones always, and the locked folder without an unlocked session', async () => {
    const extra = await uploadPhoto(owner, { color: [240, 20, 20] });
    expect(ids(await smartV3(owner, { query: 'red' }))).toContain(extra);
    const remove = (force: boolean) =>
      invoke(deleteAssets, { method: 'DELETE', path: '/api/assets', headers: bearer(owner.accessToken), body: { ids: [extra], force } });
    expect((await remove(false)).status).toBe(204);
    expect(ids(await smartV3(owner, { query: 'red' }))).not.toContain(extra);
    expect(ids(await smartV3(owner, { query: 'red', withDeleted: true }))).toContain(extra);
    expect(ids(await smartV3(owner, { query: 'red', trashedAfter: '2000-01-01T00:00:00.000Z' }))).toEqual([extra]);
    expect((await remove(true)).status).toBe(204);
    expect(ids(await smartV3(owner, { query: 'red', withDeleted: true }))).not.toContain(extra);
    expect((await smartV3(owner, { query: 'red', visibility: 'locked' })).body).toMatchObject({
      statusCode: 401,
      message: 'Elevated permission is required',
    });
  });

  it("answers v1.100's GET /search with clip or smart as a smart search", async () => {
    const reply = await invoke(search, { path: '/api/search', query: { q: 'blue', clip: 'true' }, headers: bearer(owner.accessToken) });
    expect(ids(reply)[0]).toBe(photos.blue);
    const smart = await invoke(search, {
      path: '/api/search',
      query: { q: 'green', smart: 'true', size: '1' },
      headers: bearer(owner.accessToken),
    });
    expect(ids(smart)).toEqual([photos.green]);
    expect(smart.body.assets.nextPage).toBe('2');
  });

  it('answers 502, not 500, when the ML service fails, and 400 when smart search is off', async () => {
    ml.setMode('error');
    try {
      const reply = await smartV3(owner, { query: 'a query never asked before' });
      expect(reply.status).toBe(502);
      expect(reply.body).toMatchObject({ statusCode: 502 });
    } finally {
      ml.setMode('ok');
    }
    await setMl((machineLearning) => ({ ...machineLearning, clip: { ...machineLearning.clip, enabled: false } }));
    try {
      expect((await smartV3(owner, { query: 'red' })).body).toMatchObject({ statusCode: 400, message: 'Smart search is not enabled' });
      expect((await smartV1(owner, { query: 'red' })).body).toMatchObject({ statusCode: 400, message: 'Smart search is not enabled' });
    } finally {
      await setMl((machineLearning) => ({ ...machineLearning, clip: { ...machineLearning.clip, enabled: true } }));
    }
  });

  it('after a model change finds nothing until the smartSearch job embeds the photos under the new model', async () => {
    const startJob = async (force: boolean) => {
      const started = await invoke(sendJobCommand, {
        method: 'PUT',
        path: '/api/jobs/smartSearch',
        pathParameters: { name: 'smartSearch' },
        headers: bearer(accounts.admin.accessToken),
        body: { command: 'start', force },
      });
      expect(started.status).toBe(200);
      await media.settle();
    };
    await setMl((machineLearning) => ({ ...machineLearning, clip: { enabled: true, modelName: 'ViT-B-32__laion2b-s34b-b79k' } }));
    try {
      expect(ids(await smartV3(owner, { query: 'red' }))).toEqual([]);
      const before = ml.requests.length;
      await startJob(false);
      const embedded = ml.requests.slice(before).filter((request) => request.imageBytes).length;
      expect(embedded).toBeGreaterThanOrEqual(5);
      expect((await assetRepo.get(photos.red as string))?.smartSearchModel).toBe('ViT-B-32__laion2b-s34b-b79k');
      expect(ids(await smartV3(owner, { query: 'red' }))[0]).toBe(photos.red);
      // "missing" again: nothing left to embed; "all": every photo again.
      const again = ml.requests.length;
      await startJob(false);
      expect(ml.requests.slice(again).filter((request) => request.imageBytes)).toEqual([]);
      await startJob(true);
      expect(ml.requests.slice(again).filter((request) => request.imageBytes).length).toBeGreaterThanOrEqual(5);
    } finally {
      await setMl((machineLearning) => ({ ...machineLearning, clip: { enabled: true, modelName: 'ViT-B-32__openai' } }));
    }
  });
});
