import { beforeAll, describe, expect, it } from 'vitest';
import { handler as sendJobCommandHandler } from '#functions/job/send-job-command.ts';
import { handler as searchMetadataHandler } from '#functions/search/search-metadata.ts';
import { handler as getAssetOcrHandler } from '#functions/v3/asset/get-asset-ocr.ts';
import { recordOcr } from '#shared/services/ocr.service.ts';
import { bearer, freshUser } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, trash } from '../support/library.ts';
import { changeConfig, mediaJobsInProcess, objectCreated } from '../support/media.ts';
import type { StandInOcrLine } from '../support/ml-service.ts';
import { originalPathOf, standInLine, useOcrStandIn } from '../support/ocr.ts';
import { makeJpeg } from '../support/photos.ts';
import { tableItems } from '../support/table-items.ts';
import { cliFields, upload } from '../support/uploads.ts';

const stand = useOcrStandIn();
const { processedPhoto } = stand;
let owner: { id: string; accessToken: string };
let stranger: { id: string; accessToken: string };

const line = (text: string, x = 0.1, y = 0.1): StandInOcrLine => standInLine(text, { x, y });

beforeAll(async () => {
  owner = await freshUser(stand.adminToken, 'Reader');
  stranger = await freshUser(stand.adminToken, 'Stranger');
});

const ocrOf = (token: string, id: string) =>
  invoke(getAssetOcrHandler, { path: `/api/assets/${id}/ocr`, pathParameters: { id }, headers: bearer(token) });

const search = (token: string, body: Record<string, unknown>) =>
  invoke(searchMetadataHandler, {
    method: 'POST',
    path: '/api/search/metadata',
    headers: bearer(token),
    body: { visibility: 'timeline', ...body },
  });

const foundIds = async (token: string, body: Record<string, unknown>): Promise<string[]> => {
  const reply = await search(token, body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.assets.items.map((item: { id: string }) => item.id);
};

describe('OCR after an upload (the ocr media step)', () => {
  it('finds the text of the preview and answers it at GET /assets/:id/ocr, in Immich’s shape', async () => {
    const before = stand.ml.requests.length;
    const id = await processedPhoto(owner.accessToken, [line('Hello World'), line('Café MENU', 0.2, 0.5)], [200, 30, 30]);
    // One OCR request, with the preview JPEG and Immich's options.
    const asked = stand.ml.requests.slice(before).filter((request) => request.path.endsWith('predict') && (request.entries as any)?.ocr);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.imageWidth).toBeLessThanOrEqual(1440);
    expect((asked[0]?.entries as any)?.ocr?.detection?.options?.minScore).toBe(0.5);
    const reply = await ocrOf(owner.accessToken, id);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([
      {
        id: expect.any(String),
        assetId: id,
        x1: 0.1,
        y1: 0.1,
        x2: expect.closeTo(0.4, 6),
        y2: 0.1,
        x3: expect.closeTo(0.4, 6),
        y3: expect.closeTo(0.15, 6),
        x4: 0.1,
        y4: expect.closeTo(0.15, 6),
        boxScore: 0.95,
        textScore: 0.97,
        text: 'Hello World',
      },
      expect.objectContaining({ assetId: id, text: 'Café MENU', x1: 0.2, y1: 0.5 }),
    ]);
    expect(reply.body[0].id).not.toBe(reply.body[1].id);
    // The asset records when it was looked at.
    expect((await tableItems('asset')).find((item) => item.id === id)?.ocrAt).toEqual(expect.any(String));
  });

  it('keeps the previews when the ML service fails, and the ocr job finds the text later', async () => {
    stand.ml.setMode('error');
    let id: string;
    try {
      id = await processedPhoto(owner.accessToken, [line('Later')], [30, 200, 30]);
    } finally {
      stand.ml.setMode('ok');
    }
    expect((await ocrOf(owner.accessToken, id)).body).toEqual([]);
    const asset = (await tableItems('asset')).find((item) => item.id === id);
    expect(asset?.resizePath).toEqual(expect.any(String));
    expect(asset?.ocrAt).toBeUndefined();
    // The ocr queue started ("missing"): this asset only is looked at again.
    const jobs = mediaJobsInProcess();
    jobs.start();
    try {
      const started = await invoke(sendJobCommandHandler, {
        method: 'PUT',
        path: '/api/jobs/ocr',
        pathParameters: { name: 'ocr' },
        headers: bearer(stand.adminToken),
        body: { command: 'start', force: false },
      });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      await jobs.settle();
    } finally {
      jobs.stop();
    }
    expect((await ocrOf(owner.accessToken, id)).body.map((found: { text: string }) => found.text)).toEqual(['Later']);
  });

  it('refuses another user’s asset and a bad id (4xx, Immich’s shape)', async () => {
    const id = await processedPhoto(owner.accessToken, [line('Private')], [30, 30, 200]);
    const refused = await ocrOf(stranger.accessToken, id);
    expect(refused.status).toBe(400);
    // v3's error shape (Immich 3.x answers `{message}` alone).
    expect(refused.body).toEqual({ message: 'Not found or no asset.read access' });
    const bad = await ocrOf(owner.accessToken, 'not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: 'Validation failed', errors: [{ message: 'id must be a UUID', path: ['id'] }] });
    expect((await invoke(getAssetOcrHandler, { path: `/api/assets/${id}/ocr`, pathParameters: { id } })).status).toBe(401);
  });
});

describe('search by text (POST /search/metadata `ocr`, 3.2’s filter.ocr)', () => {
  let sign: string;
  let poster: string;

  beforeAll(async () => {
    sign = await processedPhoto(owner.accessToken, [line('STOP'), line('Rue de la Paix', 0.1, 0.6)], [10, 10, 10]);
    poster = await processedPhoto(owner.accessToken, [line('Grand Opening'), line('東京タワー', 0.1, 0.6)], [250, 250, 250]);
  });

  it('finds the assets whose text has every word, unaccented and case-blind', async () => {
    expect(await foundIds(owner.accessToken, { ocr: 'stop' })).toEqual([sign]);
    expect(await foundIds(owner.accessToken, { ocr: 'paix RUE' })).toEqual([sign]);
    expect(await foundIds(owner.accessToken, { ocr: 'opening' })).toEqual([poster]);
    expect(await foundIds(owner.accessToken, { ocr: 'opening stop' })).toEqual([]);
    expect(await foundIds(owner.accessToken, { ocr: 'cafe' })).toHaveLength(1);
    expect(await foundIds(owner.accessToken, { ocr: 'nowhere' })).toEqual([]);
    // CJK text by its pairs of characters (Immich's bigrams).
    expect(await foundIds(owner.accessToken, { ocr: '東京' })).toEqual([poster]);
    expect(await foundIds(owner.accessToken, { ocr: '京都' })).toEqual([]);
    // The other filters still apply.
    expect(await foundIds(owner.accessToken, { ocr: 'stop', isFavorite: true })).toEqual([]);
  });

  it('reads 3.2’s filter tree’s ocr condition, with the tree’s other conditions (test/functions/search-filter-tree.test.ts)', async () => {
    expect(await foundIds(owner.accessToken, { filter: { ocr: { matches: 'grand' } } })).toEqual([poster]);
    expect(await foundIds(owner.accessToken, { filter: { ocr: { matches: 'grand' }, isFavorite: { eq: true } } })).toEqual([]);
    const either = await foundIds(owner.accessToken, { filter: { or: [{ ocr: { matches: 'grand' } }, { ocr: { matches: 'stop' } }] } });
    expect(either.sort()).toEqual([poster, sign].sort());
    expect((await search(owner.accessToken, { filter: { ocr: { matches: 7 } } })).status).toBe(400);
  });

  it('pages the matches newest first, however many there are', async () => {
    const user = await freshUser(stand.adminToken, 'Pager');
    stand.ml.setOcr([line('Timetable')]);
    const ids: string[] = [];
    for (let day = 1; day <= 6; day++) {
      const id = await addPhoto(user.accessToken, { color: [day * 30, 10, 10] }, new Date(`2024-03-0${day}T10:00:00.000Z`));
      const key = await originalPathOf(id);
      await objectCreated(key);
      ids.push(id);
    }
    const newestFirst = [...ids].reverse();
    for (let page = 1; page <= 6; page++)
      expect(await foundIds(user.accessToken, { ocr: 'timetable', size: 1, page }), `page ${page}`).toEqual([newestFirst[page - 1]]);
    expect(await foundIds(user.accessToken, { ocr: 'timetable', size: 4 })).toEqual(newestFirst.slice(0, 4));
  });

  it('pages the newest matches first when more than a read’s hundred match', async () => {
    // 150 photos whose text has the word (recorded as a run records it), on 150 days.
    const user = await freshUser(stand.adminToken, 'ManyMatches');
    const ids: string[] = [];
    for (let day = 0; day < 150; day++) {
      const taken = new Date(Date.UTC(2020, 0, 1 + day, 12));
      const data = makeJpeg({ color: [day, 50, 50] });
      const reply = await upload(user.accessToken, { data, fields: cliFields(`many-${day}.jpg`, data.length, taken) });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      ids.push(String(reply.body.id));
    }
    for (const id of ids) await recordOcr({ id, ownerId: user.id }, [line('Common word')]);
    const newestFirst = [...ids].reverse();
    // Ten pages: a hundred of the 150 read in no order would give all ten right about once in sixty runs.
    for (let page = 1; page <= 10; page++)
      expect(await foundIds(user.accessToken, { ocr: 'common', size: 1, page }), `page ${page}`).toEqual([newestFirst[page - 1]]);
    expect(await foundIds(user.accessToken, { ocr: 'word common', size: 3, order: 'asc' })).toEqual(ids.slice(0, 3));
  });

  it('never finds another user’s assets', async () => {
    expect(await foundIds(stranger.accessToken, { ocr: 'stop' })).toEqual([]);
  });
});

describe('OCR again and deletion', () => {
  it('replaces the lines and their search words on a run with force, and an asset deleted for good takes them', async () => {
    const id = await processedPhoto(owner.accessToken, [line('Old Sign')], [120, 60, 10]);
    const first = (await ocrOf(owner.accessToken, id)).body;
    stand.ml.setOcr([line('New Board')]);
    const jobs = mediaJobsInProcess();
    jobs.start();
    try {
      jobs.run([{ kind: 'asset-ocr', assetId: id, force: true }]);
      await jobs.settle();
    } finally {
      jobs.stop();
    }
    const second = (await ocrOf(owner.accessToken, id)).body;
    expect(second.map((found: { text: string }) => found.text)).toEqual(['New Board']);
    expect(second[0].id).not.toBe(first[0].id);
    expect(await foundIds(owner.accessToken, { ocr: 'sign' })).toEqual([]);
    expect(await foundIds(owner.accessToken, { ocr: 'board' })).toEqual([id]);
    expect(
      (await tableItems('ocrTerm'))
        .filter((item) => item.assetId === id)
        .map((item) => String(item.pk).split('#')[2])
        .sort(),
    ).toEqual(['board', 'new']);

    expect((await trash(owner.accessToken, [id], true)).status).toBe(204);
    expect((await tableItems('assetOcr')).filter((item) => item.assetId === id)).toEqual([]);
    expect((await tableItems('ocrTerm')).filter((item) => item.assetId === id)).toEqual([]);
    expect(await foundIds(owner.accessToken, { ocr: 'board' })).toEqual([]);
  });
});

describe('assets OCR leaves alone', () => {
  const runJob = async (assetId: string, force: boolean) => {
    const jobs = mediaJobsInProcess();
    jobs.start();
    try {
      jobs.run([{ kind: 'asset-ocr', assetId, force }]);
      await jobs.settle();
    } finally {
      jobs.stop();
    }
  };

  it('skips a trashed asset, and "all" (force) removes its lines', async () => {
    const id = await processedPhoto(owner.accessToken, [line('Binned')], [90, 90, 10]);
    expect((await trash(owner.accessToken, [id])).status).toBe(204);
    const before = stand.ml.requests.length;
    await runJob(id, false);
    expect((await tableItems('assetOcr')).filter((item) => item.assetId === id)).toHaveLength(1);
    await runJob(id, true);
    expect((await tableItems('assetOcr')).filter((item) => item.assetId === id)).toEqual([]);
    expect((await tableItems('ocrTerm')).filter((item) => item.assetId === id)).toEqual([]);
    // Neither run asked the ML service.
    // The clip step still asks for the photo's embedding (smart search is on): no OCR request is made.
    const asked = stand.ml.requests.slice(before).filter((request) => request.path.endsWith('predict'));
    expect(asked.filter((request) => typeof request.entries === 'object' && request.entries !== null && 'ocr' in request.entries)).toEqual(
      [],
    );
  });

  it('skips a hidden asset (Immich’s OCR job does), at upload and in the ocr job', async () => {
    stand.ml.setOcr([line('Hidden')]);
    const data = makeJpeg({ color: [70, 20, 120] });
    const reply = await upload(owner.accessToken, { data, fields: { ...cliFields('hidden.jpg', data.length), isVisible: 'false' } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const id = String(reply.body.id);
    const before = stand.ml.requests.length;
    const key = await originalPathOf(id);
    expect(await objectCreated(key)).toEqual({ outcomes: { [key]: 'made' } });
    await runJob(id, true);
    // The clip step still asks for the photo's embedding (smart search is on): no OCR request is made.
    const asked = stand.ml.requests.slice(before).filter((request) => request.path.endsWith('predict'));
    expect(asked.filter((request) => typeof request.entries === 'object' && request.entries !== null && 'ocr' in request.entries)).toEqual(
      [],
    );
    expect((await ocrOf(owner.accessToken, id)).body).toEqual([]);
  });

  it('asks nothing with OCR switched off', async () => {
    await changeConfig(stand.adminToken, (config) => ({
      ...config,
      machineLearning: { ...config.machineLearning, ocr: { ...config.machineLearning.ocr, enabled: false } },
    }));
    try {
      const before = stand.ml.requests.length;
      const id = await processedPhoto(owner.accessToken, [line('Unread')], [10, 90, 90]);
      // The clip step still asks for the photo's embedding (smart search is on): no OCR request is made.
      const asked = stand.ml.requests.slice(before).filter((request) => request.path.endsWith('predict'));
      expect(
        asked.filter((request) => typeof request.entries === 'object' && request.entries !== null && 'ocr' in request.entries),
      ).toEqual([]);
      expect((await ocrOf(owner.accessToken, id)).body).toEqual([]);
      await runJob(id, true);
      expect((await ocrOf(owner.accessToken, id)).body).toEqual([]);
    } finally {
      await changeConfig(stand.adminToken, (config) => ({
        ...config,
        machineLearning: { ...config.machineLearning, ocr: { ...config.machineLearning.ocr, enabled: true } },
      }));
    }
  });
});
