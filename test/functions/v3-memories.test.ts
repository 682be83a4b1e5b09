import { beforeAll, describe, expect, it } from 'vitest';
import { handler as nightlyHandler } from '#functions/nightly/run-nightly-tasks.ts';
import { handler as updatePersonHandler } from '#functions/person/update-person.ts';
import { handler as getConfigHandler } from '#functions/system-config/get-config.ts';
import { handler as updateConfigHandler } from '#functions/system-config/update-config.ts';
import { handler as addAssetsHandler } from '#functions/v3/memory/add-memory-assets.ts';
import { handler as createHandler } from '#functions/v3/memory/create-memory.ts';
import { handler as deleteHandler } from '#functions/v3/memory/delete-memory.ts';
import { handler as getHandler } from '#functions/v3/memory/get-memory.ts';
import { handler as statisticsHandler } from '#functions/v3/memory/memories-statistics.ts';
import { handler as removeAssetsHandler } from '#functions/v3/memory/remove-memory-assets.ts';
import { handler as searchHandler } from '#functions/v3/memory/search-memories.ts';
import { handler as updateHandler } from '#functions/v3/memory/update-memory.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, assetInfo, personNamed, trash, updateAsset } from '../support/library.ts';
import { objectCreated, turnOffMl } from '../support/media.ts';
import { makeJpeg } from '../support/photos.ts';
import { sendAcks, syncStream } from '../support/sync-client.ts';
import { tableItems } from '../support/table-items.ts';
import { upload } from '../support/uploads.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
  // Not about OCR or duplicates or faces: off, as each photo's cost (test/support/ml-tasks.ts).
  await turnOffMl(accounts.admin.accessToken, ['facialRecognition', 'ocr', 'duplicateDetection']);
});

const create = (token: string, body: unknown) =>
  invoke(createHandler, { method: 'POST', path: '/api/memories', headers: bearer(token), body });
const get = (token: string, id: string) =>
  invoke(getHandler, { path: `/api/memories/${id}`, pathParameters: { id }, headers: bearer(token) });
const update = (token: string, id: string, body: unknown) =>
  invoke(updateHandler, { method: 'PUT', path: `/api/memories/${id}`, pathParameters: { id }, headers: bearer(token), body });
const remove = (token: string, id: string) =>
  invoke(deleteHandler, { method: 'DELETE', path: `/api/memories/${id}`, pathParameters: { id }, headers: bearer(token) });
const addAssets = (token: string, id: string, ids: string[]) =>
  invoke(addAssetsHandler, {
    method: 'PUT',
    path: `/api/memories/${id}/assets`,
    pathParameters: { id },
    headers: bearer(token),
    body: { ids },
  });
const removeAssets = (token: string, id: string, ids: string[]) =>
  invoke(removeAssetsHandler, {
    method: 'DELETE',
    path: `/api/memories/${id}/assets`,
    pathParameters: { id },
    headers: bearer(token),
    body: { ids },
  });
const search = (token: string, query: Record<string, string> = {}) =>
  invoke(searchHandler, { path: '/api/memories', query, headers: bearer(token) });
const statistics = (token: string, query: Record<string, string> = {}) =>
  invoke(statisticsHandler, { path: '/api/memories/statistics', query, headers: bearer(token) });
const nightly = (time: string) => nightlyHandler({ time });

/** v3's answer (its errors carry the message alone). */
const noPermission = (permission: string) => ({ message: `Not found or no ${permission} access` });

const setNightlyTasks = async (nightlyTasks: Record<string, unknown>) => {
  const admin = accounts.admin.accessToken;
  const config = (await invoke(getConfigHandler, { path: '/api/system-config', headers: bearer(admin) })).body;
  const reply = await invoke(updateConfigHandler, {
    method: 'PUT',
    path: '/api/system-config',
    headers: bearer(admin),
    body: { ...config, nightlyTasks: { ...config.nightlyTasks, ...nightlyTasks } },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
};

/** A photo taken at this wall-clock time (UTC), with its previews made (the nightly job takes only those). */
const taken = async (token: string, dateTimeOriginal: string, previews = true) => {
  const reply = await upload(token, { data: makeJpeg({ width: 40, height: 30, dateTimeOriginal, offsetTimeOriginal: '+00:00' }) });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const id = reply.body.id as string;
  if (previews) await objectCreated((await assetInfo(token, id)).body.originalPath);
  return id;
};

describe('/memories (Immich e2e cases)', () => {
  it('creates, reads, saves, fills, empties and deletes a memory; no one else may touch it', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Rememberer');
    const admin = accounts.admin.accessToken;
    const [adminAsset, userAsset] = [await addPhoto(admin, { color: [9, 9, 9] }), await addPhoto(user.accessToken, { color: [1, 1, 1] })];
    const created = await create(user.accessToken, {
      type: 'on_this_day',
      memoryAt: new Date(2021, 0).toISOString(),
      data: { year: 2021 },
      assetIds: [],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const memory = created.body;
    expect(memory).toEqual({
      id: expect.any(String),
      type: 'on_this_day',
      data: { year: 2021 },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      isSaved: false,
      memoryAt: new Date(2021, 0).toISOString(),
      ownerId: user.id,
      assets: [],
    });

    expect(await get(admin, memory.id)).toMatchObject({ status: 400, body: noPermission('memory.read') });
    expect(await get(user.accessToken, memory.id)).toMatchObject({ status: 200, body: { id: memory.id } });

    expect(await update(admin, memory.id, { isSaved: true })).toMatchObject({ status: 400, body: noPermission('memory.update') });
    expect(await update(user.accessToken, memory.id, { isSaved: true })).toMatchObject({
      status: 200,
      body: { id: memory.id, isSaved: true },
    });

    expect(await addAssets(admin, memory.id, [userAsset])).toMatchObject({ status: 400, body: noPermission('memory.read') });
    expect((await addAssets(user.accessToken, memory.id, [adminAsset])).body).toEqual([
      { id: adminAsset, success: false, error: 'no_permission' },
    ]);
    expect((await addAssets(user.accessToken, memory.id, [userAsset])).body).toEqual([{ id: userAsset, success: true }]);
    expect((await addAssets(user.accessToken, memory.id, [userAsset])).body).toEqual([
      { id: userAsset, success: false, error: 'duplicate' },
    ]);
    const filled = await get(user.accessToken, memory.id);
    expect(filled.body.assets.map((asset: { id: string }) => asset.id)).toEqual([userAsset]);
    expect(filled.body.assets[0]).toMatchObject({
      id: userAsset,
      ownerId: user.id,
      type: 'IMAGE',
      visibility: 'timeline',
      isTrashed: false,
    });
    // Adding assets changes the memory's updatedAt (Immich's).
    expect(filled.body.updatedAt > memory.updatedAt).toBe(true);

    expect(await removeAssets(admin, memory.id, [userAsset])).toMatchObject({ status: 400, body: noPermission('memory.update') });
    expect((await removeAssets(user.accessToken, memory.id, [adminAsset])).body).toEqual([
      { id: adminAsset, success: false, error: 'not_found' },
    ]);
    expect((await removeAssets(user.accessToken, memory.id, [userAsset])).body).toEqual([{ id: userAsset, success: true }]);
    expect((await get(user.accessToken, memory.id)).body.assets).toEqual([]);

    expect(await remove(admin, memory.id)).toMatchObject({ status: 400, body: noPermission('memory.delete') });
    expect((await remove(user.accessToken, memory.id)).status).toBe(204);
    expect(await get(user.accessToken, memory.id)).toMatchObject({ status: 400, body: noPermission('memory.read') });
    // Nothing of it is left but the deletion records the apps sync.
    expect((await tableItems('memory')).filter((item) => item.id === memory.id)).toEqual([]);
    expect((await tableItems('memoryAsset')).filter((item) => item.memoryId === memory.id)).toEqual([]);
  });

  it('creates with the assets the caller may share, leaving out the others (Immich)', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Creator');
    const mine = [await addPhoto(user.accessToken, { color: [2, 2, 2] }, new Date('2020-05-01T10:00:00Z'))];
    mine.push(await addPhoto(user.accessToken, { color: [3, 3, 3] }, new Date('2019-05-01T10:00:00Z')));
    const theirs = await addPhoto(accounts.admin.accessToken, { color: [4, 4, 4] });
    const reply = await create(user.accessToken, {
      type: 'on_this_day',
      memoryAt: '2020-05-01T00:00:00.000Z',
      data: { year: 2020 },
      assetIds: [...mine, theirs],
      isSaved: true,
      seenAt: '2024-01-01T00:00:00Z',
      showAt: '2024-05-01T00:00:00Z',
      hideAt: '2024-05-01T23:59:59.999Z',
    });
    expect(reply.status).toBe(201);
    // Oldest first.
    expect(reply.body.assets.map((asset: { id: string }) => asset.id)).toEqual([mine[1], mine[0]]);
    expect(reply.body).toMatchObject({
      isSaved: true,
      seenAt: '2024-01-01T00:00:00.000Z',
      showAt: '2024-05-01T00:00:00.000Z',
      hideAt: '2024-05-01T23:59:59.999Z',
    });
    // A trashed or archived asset is no longer shown in it.
    expect((await trash(user.accessToken, [mine[1] as string])).status).toBe(204);
    expect((await updateAsset(user.accessToken, mine[0] as string, { isArchived: true })).status).toBe(200);
    expect((await get(user.accessToken, reply.body.id)).body.assets).toEqual([]);
  });

  it('validates as Immich v3', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Validator');
    const bad = await create(user.accessToken, { type: 'someday', data: { year: 99 }, memoryAt: 'yesterday' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Validation failed');
    expect(bad.body.errors.map((error: { path: string[] }) => error.path.join('.'))).toEqual(['type', 'data.year', 'memoryAt']);
    const created = await create(user.accessToken, { type: 'on_this_day', data: { year: 2020 }, memoryAt: '2020-01-01T00:00:00Z' });
    const empty = await update(user.accessToken, created.body.id, {});
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain('At least one of the following fields is required: isSaved, seenAt, memoryAt');
    expect((await search(user.accessToken, { for: '2024-02-30' })).status).toBe(400);
    expect((await search(user.accessToken, { size: '0' })).status).toBe(400);
    expect((await get(user.accessToken, 'not-a-uuid')).status).toBe(400);
  });

  it('searches by day shown, saved, type and order, with statistics', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Searcher');
    const photo = await addPhoto(user.accessToken, { color: [5, 6, 7] });
    const make = async (year: number, extra: Record<string, unknown> = {}) =>
      (
        await create(user.accessToken, {
          type: 'on_this_day',
          data: { year },
          memoryAt: `${year}-03-10T00:00:00.000Z`,
          assetIds: [photo],
          showAt: '2031-03-10T00:00:00.000Z',
          hideAt: '2031-03-10T23:59:59.999Z',
          ...extra,
        })
      ).body.id as string;
    const a = await make(2020);
    const b = await make(2018, { isSaved: true });
    const c = await make(2019);
    const other = await make(2017, { showAt: '2031-03-11T00:00:00.000Z', hideAt: '2031-03-11T23:59:59.999Z' });
    const empty = (
      await create(user.accessToken, { type: 'on_this_day', data: { year: 2016 }, memoryAt: '2016-03-10T00:00:00Z', assetIds: [] })
    ).body.id as string;

    const ids = async (query: Record<string, string>) => (await search(user.accessToken, query)).body.map((m: { id: string }) => m.id);
    // Newest memoryAt first; one with no assets is not answered.
    expect(await ids({})).toEqual([a, c, b, other]);
    expect(await ids({ for: '2031-03-10' })).toEqual([a, c, b]);
    expect(await ids({ for: '2031-03-11' })).toEqual([other]);
    expect(await ids({ for: '2031-03-10', order: 'asc' })).toEqual([b, c, a]);
    expect(await ids({ isSaved: 'true' })).toEqual([b]);
    expect(await ids({ size: '2' })).toEqual([a, c]);
    expect(await ids({ size: '2', page: '2' })).toEqual([b, other]);
    expect(await ids({ id: c })).toEqual([c]);
    expect(await ids({ isTrashed: 'true' })).toEqual([]);
    expect((await ids({ order: 'random' })).sort()).toEqual([a, b, c, other].sort());
    // Statistics count every match, with or without assets.
    expect((await statistics(user.accessToken)).body).toEqual({ total: 5 });
    expect((await statistics(user.accessToken, { for: '2031-03-10' })).body).toEqual({ total: 4 });
    expect((await statistics(user.accessToken, { isSaved: 'false' })).body).toEqual({ total: 4 });
    expect(empty).toBeDefined();
    // Someone else sees none of them.
    expect((await search(accounts.admin.accessToken, { for: '2031-03-10' })).body).toEqual([]);
  });

  it('leaves out the assets showing a person the owner hid, reading only the people shown', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Hider');
    const shy = await addPhoto(user.accessToken, { color: [7, 1, 7], mwgFaces: [{ name: 'Shy One', x: 0.2, y: 0.2, w: 0.3, h: 0.3 }] });
    const open = await addPhoto(user.accessToken, { color: [1, 7, 7], mwgFaces: [{ name: 'Open One', x: 0.2, y: 0.2, w: 0.3, h: 0.3 }] });
    const plain = await addPhoto(user.accessToken, { color: [7, 7, 1] });
    const hidden = await personNamed(user.accessToken, 'Shy One');
    const reply = await invoke(updatePersonHandler, {
      method: 'PUT',
      path: `/api/person/${hidden.id}`,
      pathParameters: { id: hidden.id },
      headers: bearer(user.accessToken),
      body: { isHidden: true },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const memory = (
      await create(user.accessToken, {
        type: 'on_this_day',
        data: { year: 2021 },
        memoryAt: '2021-01-01T00:00:00Z',
        assetIds: [shy, open, plain],
      })
    ).body;
    const only = (
      await create(user.accessToken, { type: 'on_this_day', data: { year: 2022 }, memoryAt: '2022-01-01T00:00:00Z', assetIds: [shy] })
    ).body;
    const found = (await search(user.accessToken)).body as { id: string; assets: { id: string }[] }[];
    expect(
      found
        .find((m) => m.id === memory.id)
        ?.assets.map((asset) => asset.id)
        .sort(),
    ).toEqual([open, plain].sort());
    // A memory left with no asset is not answered (Immich's).
    expect(found.map((m) => m.id)).not.toContain(only.id);
  });

  it('takes an asset deleted for good out of its memories', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Forgetter');
    const [kept, gone] = [await addPhoto(user.accessToken, { color: [8, 1, 1] }), await addPhoto(user.accessToken, { color: [1, 8, 1] })];
    const memory = (
      await create(user.accessToken, {
        type: 'on_this_day',
        data: { year: 2020 },
        memoryAt: '2020-01-01T00:00:00Z',
        assetIds: [kept, gone],
      })
    ).body;
    expect((await trash(user.accessToken, [gone], true)).status).toBe(204);
    expect((await get(user.accessToken, memory.id)).body.assets.map((asset: { id: string }) => asset.id)).toEqual([kept]);
    expect((await tableItems('memoryAsset')).filter((item) => item.memoryId === memory.id).map((item) => item.assetId)).toEqual([kept]);
  });
});

describe('the nightly memories (Immich memory job)', () => {
  it('makes "on this day" memories for the days around the night, once, from photos with previews in the timeline', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Nostalgic');
    const token = user.accessToken;
    // The clean-up counts 30 days from the night's time: off until this test's nights of 2031 are done.
    await setNightlyTasks({ databaseCleanup: false });
    const lastYear = [await taken(token, '2030:03:10 09:00:00'), await taken(token, '2030:03:10 18:00:00')];
    const older = await taken(token, '2027:03:10 12:00:00');
    await taken(token, '2028:03:10 12:00:00', false);
    const archived = await taken(token, '2029:03:10 12:00:00');
    expect((await updateAsset(token, archived, { isArchived: true })).status).toBe(200);
    const nextDay = await taken(token, '2029:03:11 12:00:00');
    const thisYear = await taken(token, '2031:03:10 08:00:00');

    // The night of 10 March 2031, an hour after the default start time (00:00 UTC).
    const first = await nightly('2031-03-10T01:00:00.000Z');
    expect(first).toMatchObject({ slot: '2031-03-10T00:00:00.000Z', ran: true });
    // Seven days around the night, less the first, which Immich's first run leaves out.
    expect(first.memories?.days).toEqual(['2031-03-08', '2031-03-09', '2031-03-10', '2031-03-11', '2031-03-12', '2031-03-13']);

    const today = await search(token, { for: '2031-03-10' });
    expect(today.body.map((memory: { data: { year: number } }) => memory.data.year)).toEqual([2030, 2027]);
    const [recent, oldest] = today.body;
    expect(recent).toMatchObject({
      type: 'on_this_day',
      data: { year: 2030 },
      memoryAt: '2030-03-10T00:00:00.000Z',
      showAt: '2031-03-10T00:00:00.000Z',
      hideAt: '2031-03-10T23:59:59.999Z',
      isSaved: false,
      ownerId: user.id,
    });
    expect(recent.assets.map((asset: { id: string }) => asset.id)).toEqual(lastYear);
    expect(oldest.assets.map((asset: { id: string }) => asset.id)).toEqual([older]);
    expect((await search(token, { for: '2031-03-11' })).body.map((memory: { assets: { id: string }[] }) => memory.assets[0]?.id)).toEqual([
      nextDay,
    ]);
    expect(JSON.stringify(today.body)).not.toContain(thisYear);

    // The same night again (a retry, the next hourly tick): nothing more.
    expect(await nightly('2031-03-10T02:00:00.000Z')).toEqual({ slot: '2031-03-10T00:00:00.000Z', ran: false });
    // The next night makes only the new day (13 March was made already).
    const next = await nightly('2031-03-11T00:30:00.000Z');
    expect(next.memories?.days).toEqual(['2031-03-14']);
    expect((await statistics(token)).body).toEqual({ total: 3 });

    // Saved memories stay; the others go 30 days after they were made (a night of 2031 is long after today).
    expect((await update(token, oldest.id, { isSaved: true })).status).toBe(200);
    await setNightlyTasks({ databaseCleanup: true });
    const cleanup = await nightly('2031-04-15T01:00:00.000Z');
    // This user's two unsaved ones, and the earlier tests' unsaved memories of other users.
    expect(cleanup.cleanup?.removed).toBeGreaterThanOrEqual(2);
    expect((await statistics(token)).body).toEqual({ total: 1 });
    const left = await search(token, { for: '2031-03-10' });
    expect(left.body.map((memory: { id: string }) => memory.id)).toEqual([oldest.id]);
  });

  it('makes none when the configuration turns memories off, and runs at the configured start time', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Forgetful');
    await taken(user.accessToken, '2040:07:01 12:00:00');
    await setNightlyTasks({ generateMemories: false, startTime: '03:30' });
    // Before 03:30 the night's slot is the day before's.
    expect(await nightly('2041-07-01T03:00:00.000Z')).toMatchObject({ slot: '2041-06-30T03:30:00.000Z', ran: true });
    expect(await nightly('2041-07-01T04:00:00.000Z')).toMatchObject({ slot: '2041-07-01T03:30:00.000Z', ran: true });
    expect((await search(user.accessToken)).body).toEqual([]);
    await setNightlyTasks({ generateMemories: true, startTime: '00:00' });
    const on = await nightly('2041-07-02T00:10:00.000Z');
    expect(on.ran).toBe(true);
    expect((await search(user.accessToken, { for: '2041-07-01' })).body).toHaveLength(1);
  });
});

describe('memories in the sync stream (MemoriesV1, MemoryToAssetsV1)', () => {
  it('sends memories and their assets, then removals and deletions, as the 3.x app syncs them', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'SyncMemories');
    const token = user.accessToken;
    const [a, b] = [await addPhoto(token, { color: [3, 1, 4] }), await addPhoto(token, { color: [1, 5, 9] })];
    const memory = (await create(token, { type: 'on_this_day', data: { year: 2022 }, memoryAt: '2022-02-02T00:00:00Z', assetIds: [a, b] }))
      .body;
    const types = ['MemoriesV1', 'MemoryToAssetsV1'];
    const first = await syncStream(token, { types });
    expect(first.status).toBe(200);
    expect(first.lines.map((line) => line.type)).toEqual(['MemoryV1', 'MemoryToAssetV1', 'MemoryToAssetV1', 'SyncCompleteV1']);
    expect(first.lines[0]?.data).toEqual({
      id: memory.id,
      createdAt: memory.createdAt,
      updatedAt: memory.updatedAt,
      deletedAt: null,
      ownerId: user.id,
      type: 'on_this_day',
      data: { year: 2022 },
      isSaved: false,
      memoryAt: '2022-02-02T00:00:00.000Z',
      seenAt: null,
      showAt: null,
      hideAt: null,
    });
    expect(first.lines.slice(1, 3).map((line) => line.data)).toEqual(
      expect.arrayContaining([
        { memoryId: memory.id, assetId: a },
        { memoryId: memory.id, assetId: b },
      ]),
    );
    // Another user's sync has none of it.
    expect((await syncStream(accounts.admin.accessToken, { types })).lines.map((line) => line.type)).toEqual(['SyncCompleteV1']);

    const acks = first.lines.map((line) => line.ack);
    expect((await sendAcks(token, acks)).status).toBe(204);
    expect((await removeAssets(token, memory.id, [b])).status).toBe(200);
    const second = await syncStream(token, { types });
    // Taking an asset out changes the memory (its updatedAt) and is recorded.
    expect(second.lines.map((line) => [line.type, line.data])).toEqual([
      ['MemoryV1', expect.objectContaining({ id: memory.id })],
      ['MemoryToAssetDeleteV1', { memoryId: memory.id, assetId: b }],
      ['SyncCompleteV1', {}],
    ]);
    expect(
      (
        await sendAcks(
          token,
          second.lines.map((line) => line.ack),
        )
      ).status,
    ).toBe(204);
    expect((await remove(token, memory.id)).status).toBe(204);
    const third = await syncStream(token, { types });
    expect(third.lines.map((line) => [line.type, line.data])).toEqual([
      ['MemoryDeleteV1', { memoryId: memory.id }],
      ['SyncCompleteV1', {}],
    ]);
  });
});
