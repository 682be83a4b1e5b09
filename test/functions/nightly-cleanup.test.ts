import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as nightlyHandler } from '#functions/nightly/run-nightly-tasks.ts';
import { handler as getConfigHandler } from '#functions/system-config/get-config.ts';
import { handler as updateConfigHandler } from '#functions/system-config/update-config.ts';
import { handler as deleteUserHandler } from '#functions/user/delete-user.ts';
import { handler as restoreUserHandler } from '#functions/user/restore-user.ts';
import { handler as getQueue } from '#functions/v3/queue/get-queue.ts';
import { managedConnectionId } from '#infra/local/websocket-api.ts';
import * as assetRepo from '#shared/db/asset.repository.ts';
import * as connectionRepo from '#shared/db/connection.repository.ts';
import * as keys from '#shared/db/item-keys.ts';
import * as memoryRepo from '#shared/db/memory.repository.ts';
import * as userRepo from '#shared/db/user.repository.ts';
import { nightlySlot, runNightlyTasks } from '#shared/services/nightly-tasks.service.ts';
import { deleteAssetForGood } from '#shared/services/trash.service.ts';
import { bearer, freshUser, login, signUpAdmin } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, assetInfo } from '../support/library.ts';
import { objectCreated } from '../support/media.ts';
import { makeJpeg } from '../support/photos.ts';
import { recordRoundTrips } from '../support/round-trips.ts';
import { SyncClient } from '../support/sync-client.ts';
import { tableItems } from '../support/table-items.ts';
import { upload } from '../support/uploads.ts';

// Immich's nightly AssetDeleteCheck and UserDeleteCheck (docs/immich-compatibility.md, "The trash
// and deleted users"; docs/data-model.md, "Nightly clean-up"): the trash emptied of what has been
// there `trash.days`, users deleted `user.deleteDelay` days before removed for good, each through
// the API's own deletion, bounded per invocation and finished by the next ticks.

const dayMs = 86_400_000;
const table = DynamoDBDocumentClient.from(new DynamoDBClient({}));

let adminToken: string;
beforeAll(async () => {
  await signUpAdmin();
  adminToken = (await login({ email: 'admin@immich.cloud', password: 'password' })).accessToken;
});

// What a test leaves due (an asset in a trash, a user deleted) would be a later test's night's work:
// each test starts from none, so its counts are exact whether it runs alone or after the others.
afterEach(async () => {
  for (const entry of await tableItems('trashEntry')) {
    if (!(await deleteAssetForGood(String(entry.assetId))))
      await table.send(new DeleteCommand({ TableName: process.env.TABLE_NAME, Key: { pk: entry.pk, sk: entry.sk } }));
  }
  for (const user of await tableItems('user')) {
    if (typeof user.deletedAt !== 'string') continue;
    const id = String(user.id);
    const reply = await invoke(restoreUserHandler, {
      method: 'POST',
      path: `/api/user/${id}/restore`,
      pathParameters: { id },
      headers: bearer(adminToken),
    });
    expect(reply.status, `a test left user ${id} ${String(user.status)}`).toBe(201);
  }
});

// Each test runs its own nights, later than the test before's (a night is claimed once).
const today = new Date();
const nightOf = (test: number, day = 0) =>
  Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 40 * test + day, 1, 0);
const at = (ms: number) => new Date(ms).toISOString();
const nightly = (ms: number, context?: { getRemainingTimeInMillis: () => number }) => nightlyHandler({ time: at(ms) }, context);
/** The night's slot (00:00 UTC, the default start time): what its cut-offs count back from. */
const slotOf = (ms: number) => Date.parse(nightlySlot(new Date(ms), '00:00'));

const setConfig = async (change: (config: Record<string, any>) => Record<string, any>) => {
  const config = (await invoke(getConfigHandler, { path: '/api/system-config', headers: bearer(adminToken) })).body;
  const reply = await invoke(updateConfigHandler, {
    method: 'PUT',
    path: '/api/system-config',
    headers: bearer(adminToken),
    body: change(config),
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
};

/** Puts an asset in the trash as of `deletedAt` (as the API's trash writes it, backdated). */
const trashedAt = async (assetId: string, deletedAt: number) => {
  const found = await assetRepo.getWithFaces(assetId);
  if (!found) throw new Error(`no asset ${assetId}`);
  await assetRepo.update(found.asset, found.faces, { deletedAt: at(deletedAt) });
};

const fileOf = async (assetId: string): Promise<string> =>
  join(String(process.env.ORIGINALS_DIR), String((await assetRepo.get(assetId))?.originalPath));

const backgroundRuns = async (): Promise<number> =>
  (
    await invoke(getQueue, {
      path: '/api/queues/backgroundTask',
      headers: bearer(adminToken),
      pathParameters: { name: 'backgroundTask' },
    })
  ).body.statistics.completed;

describe('the nightly trash check (Immich’s AssetDeleteCheck)', () => {
  it('deletes for good what has been in the trash `trash.days`, keeps the rest, and the owner’s app is told', async () => {
    const night = nightOf(1);
    const owner = await freshUser(adminToken, 'Trasher');
    const [old, older, recent, kept] = [
      await addPhoto(owner.accessToken, { color: [10, 1, 1] }),
      await addPhoto(owner.accessToken, { color: [10, 2, 2] }),
      await addPhoto(owner.accessToken, { color: [10, 3, 3] }),
      await addPhoto(owner.accessToken, { color: [10, 4, 4] }),
    ];
    await trashedAt(old, slotOf(night) - 31 * dayMs);
    await trashedAt(older, slotOf(night) - 90 * dayMs);
    await trashedAt(recent, slotOf(night) - 5 * dayMs);
    const app = new SyncClient(owner.accessToken);
    await app.sync();
    expect(app.assets.get(old)?.deletedAt).toEqual(expect.any(String));
    const files = { old: await fileOf(old), recent: await fileOf(recent) };
    expect(existsSync(files.old)).toBe(true);
    const runs = await backgroundRuns();

    const outcome = await nightly(night);
    expect(outcome).toMatchObject({ ran: true, purge: { assets: 2, users: 0, done: true } });
    expect((await assetInfo(owner.accessToken, old)).status).toBe(400);
    expect((await assetInfo(owner.accessToken, older)).status).toBe(400);
    expect(existsSync(files.old)).toBe(false);
    expect((await assetInfo(owner.accessToken, recent)).body).toMatchObject({ isTrashed: true });
    expect(existsSync(files.recent)).toBe(true);
    expect((await assetInfo(owner.accessToken, kept)).body).toMatchObject({ isTrashed: false });
    // The jobs page counts the night's run, as before.
    expect(await backgroundRuns()).toBe(runs + 1);

    const lines = await app.sync();
    expect(
      lines
        .filter((line) => line.type === 'AssetDeleteV1')
        .map((line) => line.data.assetId)
        .sort(),
    ).toEqual([old, older].sort());
    expect([...app.assets.keys()].sort()).toEqual([recent, kept].sort());
    expect(app.assets.get(recent)?.deletedAt).toEqual(expect.any(String));
  });

  it('empties the whole trash when the trash is off (0 days), and finds assets trashed before trash entries existed', async () => {
    const night = nightOf(2);
    const owner = await freshUser(adminToken, 'NoTrash');
    const [early, fresh] = [
      await addPhoto(owner.accessToken, { color: [20, 1, 1] }),
      await addPhoto(owner.accessToken, { color: [20, 2, 2] }),
    ];
    await trashedAt(early, slotOf(night) - 2 * dayMs);
    await trashedAt(fresh, slotOf(night) - 60_000);
    // An earlier shape: an asset trashed before its trash entry was written, its owner not yet looked at.
    const entry = (await tableItems('trashEntry')).find((item) => item.assetId === early);
    await table.send(new DeleteCommand({ TableName: process.env.TABLE_NAME, Key: { pk: entry?.pk, sk: entry?.sk } }));
    await table.send(
      new UpdateCommand({ TableName: process.env.TABLE_NAME, Key: keys.user(owner.userId), UpdateExpression: 'REMOVE trashIndexed' }),
    );
    await setConfig((config) => ({ ...config, trash: { ...config.trash, enabled: false } }));
    try {
      expect(await nightly(night)).toMatchObject({ ran: true, purge: { assets: 2, users: 0, done: true } });
    } finally {
      await setConfig((config) => ({ ...config, trash: { ...config.trash, enabled: true } }));
    }
    expect((await assetInfo(owner.accessToken, early)).status).toBe(400);
    expect((await assetInfo(owner.accessToken, fresh)).status).toBe(400);
    expect((await tableItems('trashEntry')).filter((item) => String(item.pk).includes(owner.userId))).toEqual([]);
  });

  it('stops when its budget is spent and goes on at the next ticks until done; each run is counted', async () => {
    const night = nightOf(3);
    const owner = await freshUser(adminToken, 'BigTrash');
    const assets: string[] = [];
    for (let n = 0; n < 5; n++) assets.push(await addPhoto(owner.accessToken, { color: [30, n, n] }));
    for (const [n, id] of assets.entries()) await trashedAt(id, slotOf(night) - (40 + n) * dayMs);
    const runs = await backgroundRuns();

    // The Lambda's time nearly spent (its last three minutes are left alone): nothing is started.
    expect(await nightly(night, { getRemainingTimeInMillis: () => 60_000 })).toMatchObject({
      ran: true,
      purge: { assets: 0, done: false },
    });
    // The next ticks of the same night go on, two deletions an invocation here (the service the
    // handler calls, with a smaller budget than its default), from the night's own cut-off.
    const first = await runNightlyTasks(new Date(night + 3_600_000), { maxDeletions: 2 });
    expect(first).toMatchObject({ ran: false, purge: { assets: 2, done: false } });
    const gone = (await Promise.all(assets.map((id) => assetInfo(owner.accessToken, id)))).filter((reply) => reply.status === 400);
    // Longest in the trash first.
    expect(gone).toHaveLength(2);
    expect((await assetInfo(owner.accessToken, assets[4] as string)).status).toBe(400);
    expect(await runNightlyTasks(new Date(night + 2 * 3_600_000), { maxDeletions: 2 })).toMatchObject({
      purge: { assets: 2, done: false },
    });
    expect(await runNightlyTasks(new Date(night + 3 * 3_600_000), { maxDeletions: 2 })).toMatchObject({ purge: { assets: 1, done: true } });
    for (const id of assets) expect((await assetInfo(owner.accessToken, id)).status).toBe(400);
    // Done: the next tick has nothing to do, and is not a run.
    expect(await nightly(night + 4 * 3_600_000)).toEqual({ slot: at(slotOf(night)), ran: false });
    expect(await backgroundRuns()).toBe(runs + 4);
  });

  it('does nothing when the nightly clean-up is off', async () => {
    const night = nightOf(4);
    const owner = await freshUser(adminToken, 'Hoarder');
    const leaving = await freshUser(adminToken, 'Lingering');
    const photo = await addPhoto(owner.accessToken, { color: [40, 1, 1] });
    await trashedAt(photo, slotOf(night) - 100 * dayMs);
    expect((await remove(leaving.userId)).status).toBe(200);
    await backdateDeletion(leaving.userId, slotOf(night) - 100 * dayMs);
    await setConfig((config) => ({ ...config, nightlyTasks: { ...config.nightlyTasks, databaseCleanup: false } }));
    try {
      expect(await nightly(night)).toMatchObject({ ran: true, purge: { assets: 0, users: 0, done: true } });
      expect(await nightly(night + 3_600_000)).toEqual({ slot: at(slotOf(night)), ran: false });
    } finally {
      await setConfig((config) => ({ ...config, nightlyTasks: { ...config.nightlyTasks, databaseCleanup: true } }));
    }
    expect((await assetInfo(owner.accessToken, photo)).body).toMatchObject({ isTrashed: true });
    expect(await userRepo.get(leaving.userId)).toMatchObject({ status: 'deleted' });
  });
});

const remove = (id: string) =>
  invoke(deleteUserHandler, { method: 'DELETE', path: `/api/user/${id}`, pathParameters: { id }, headers: bearer(adminToken) });

/** The user as deleted at `deletedAt` (written in the table, as the API would have then). */
const backdateDeletion = async (userId: string, deletedAt: number) => {
  await table.send(
    new UpdateCommand({
      TableName: process.env.TABLE_NAME,
      Key: keys.user(userId),
      UpdateExpression: 'SET deletedAt = :at',
      ExpressionAttributeValues: { ':at': at(deletedAt) },
    }),
  );
};

describe('the nightly user check (Immich’s UserDeleteCheck)', () => {
  it('removes a user deleted `user.deleteDelay` days before, with their files; one deleted since stays; the other users’ apps are told', async () => {
    const night = nightOf(5);
    const watcher = await freshUser(adminToken, 'Watcher');
    const [long, short] = [await freshUser(adminToken, 'LongGone'), await freshUser(adminToken, 'JustGone')];
    const [longPhoto, shortPhoto] = [
      await addPhoto(long.accessToken, { color: [50, 1, 1] }),
      await addPhoto(short.accessToken, { color: [50, 2, 2] }),
    ];
    const files = { long: await fileOf(longPhoto), short: await fileOf(shortPhoto) };
    const app = new SyncClient(watcher.accessToken);
    await app.sync();
    expect(app.users.has(long.userId) && app.users.has(short.userId)).toBe(true);
    for (const user of [long, short]) expect((await remove(user.userId)).status).toBe(200);
    await backdateDeletion(long.userId, slotOf(night) - 8 * dayMs);
    await backdateDeletion(short.userId, slotOf(night) - 2 * dayMs);

    expect(await nightly(night)).toMatchObject({ ran: true, purge: { assets: 1, users: 1, done: true } });
    expect(await userRepo.get(long.userId)).toBeUndefined();
    expect(existsSync(files.long)).toBe(false);
    expect(await userRepo.get(short.userId)).toMatchObject({ status: 'deleted' });
    expect(existsSync(files.short)).toBe(true);

    const lines = await app.sync();
    const removed = lines.filter((line) => line.type === 'UserDeleteV1').map((line) => line.data.userId);
    expect(removed).toEqual([long.userId]);
    expect(app.users.has(long.userId)).toBe(false);
    expect(app.users.get(short.userId)?.deletedAt).toEqual(expect.any(String));
  });
});

/**
 * An asset a concurrent request keeps changing, at every attempt of its deletion: its stored album
 * count says it is in an album whose entry the index never shows, as while an album write is under
 * way, so the deletion's condition fails each time and withFreshAsset gives up (a 409 to an API
 * caller). Written in the table, as the tests above backdate; `settle` puts it back.
 */
const keepBusy = async (assetId: string, albumCount = 1) => {
  await table.send(
    new UpdateCommand({
      TableName: process.env.TABLE_NAME,
      Key: keys.asset(assetId),
      UpdateExpression: 'SET albumCount = :count',
      ExpressionAttributeValues: { ':count': albumCount },
    }),
  );
};
const settle = (assetId: string) => keepBusy(assetId, 0);

describe('an asset busy at every attempt', () => {
  it('is left for the next tick, and the rest of the night’s clean-up goes on', async () => {
    const night = nightOf(6);
    const [first, second, leaving] = [
      await freshUser(adminToken, 'BusyFirst'),
      await freshUser(adminToken, 'BusySecond'),
      await freshUser(adminToken, 'BusyLeaving'),
    ];
    const [firstBusy, firstFree, secondFree] = [
      await addPhoto(first.accessToken, { color: [60, 1, 1] }),
      await addPhoto(first.accessToken, { color: [60, 2, 2] }),
      await addPhoto(second.accessToken, { color: [60, 3, 3] }),
    ];
    const [leavingBusy, leavingFree] = [
      await addPhoto(leaving.accessToken, { color: [60, 4, 4] }),
      await addPhoto(leaving.accessToken, { color: [60, 5, 5] }),
    ];
    // The busy one longest in the trash: the others come after it.
    await trashedAt(firstBusy, slotOf(night) - 50 * dayMs);
    await trashedAt(firstFree, slotOf(night) - 40 * dayMs);
    await trashedAt(secondFree, slotOf(night) - 40 * dayMs);
    expect((await remove(leaving.userId)).status).toBe(200);
    await backdateDeletion(leaving.userId, slotOf(night) - 10 * dayMs);
    await keepBusy(firstBusy);
    await keepBusy(leavingBusy);

    expect(await nightly(night)).toMatchObject({ ran: true, purge: { assets: 3, users: 0, done: false } });
    for (const [token, id] of [
      [first.accessToken, firstFree],
      [second.accessToken, secondFree],
    ] as const)
      expect((await assetInfo(token, id)).status).toBe(400);
    expect(await assetRepo.get(leavingFree)).toBeUndefined();
    expect((await assetInfo(first.accessToken, firstBusy)).body).toMatchObject({ isTrashed: true });
    expect(await assetRepo.get(leavingBusy)).toMatchObject({ id: leavingBusy });
    expect(await userRepo.get(leaving.userId)).toMatchObject({ status: 'removing' });

    // The next tick goes on with what was left, once it is no longer busy.
    await settle(firstBusy);
    await settle(leavingBusy);
    expect(await nightly(night + 3_600_000)).toMatchObject({ ran: false, purge: { assets: 2, users: 1, done: true } });
    expect((await assetInfo(first.accessToken, firstBusy)).status).toBe(400);
    expect(await userRepo.get(leaving.userId)).toBeUndefined();
    expect(await nightly(night + 2 * 3_600_000)).toEqual({ slot: at(slotOf(night)), ran: false });
    // Each busy asset takes withFreshAsset's six attempts, each waiting for the album entry.
  });
});

/**
 * API Gateway's management API as the nightly function posts to it (PostToConnection over HTTP,
 * signed by the SDK): each frame posted is kept with what `look` found in the table when it
 * arrived. The function waits for each answer before it goes on, so that is the table as it was
 * when the frame was sent, whatever the timing.
 */
const managementApiLooking = async (look: () => Promise<unknown>) => {
  const posts: { connectionId: string; frame: string; seen: unknown }[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const connectionId = managedConnectionId('test', new URL(req.url ?? '/', 'http://localhost').pathname);
    if (req.method === 'POST' && connectionId)
      posts.push({ connectionId, frame: Buffer.concat(chunks).toString('utf8'), seen: await look() });
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.REALTIME_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}/test`;
  return {
    posts,
    close: async () => {
      delete process.env.REALTIME_ENDPOINT;
      await new Promise((resolve) => server.close(resolve));
    },
  };
};

/** A connection of the user's app, as `$connect` keeps it (v1.100's shapes). */
const connected = async (userId: string): Promise<string> => {
  const connectionId = `${userId.slice(0, 12)}=`;
  await connectionRepo.put({
    connectionId,
    userId,
    sessionHash: null,
    generation: 'v1',
    connectedAt: new Date().toISOString(),
    ttl: Math.floor(Date.now() / 1000) + 600,
  });
  return connectionId;
};

describe('the apps told of the night’s deletions', () => {
  it('as each batch is done, before the next begins, not at the run’s end', async () => {
    const night = nightOf(7);
    // Users are gone through oldest first: the first one's trash is a batch before the second's.
    const [first, second] = [await freshUser(adminToken, 'ToldFirst'), await freshUser(adminToken, 'ToldSecond')];
    const [firstPhoto, secondPhoto] = [
      await addPhoto(first.accessToken, { color: [70, 1, 1] }),
      await addPhoto(second.accessToken, { color: [70, 2, 2] }),
    ];
    await trashedAt(firstPhoto, slotOf(night) - 40 * dayMs);
    await trashedAt(secondPhoto, slotOf(night) - 40 * dayMs);
    const connections = [await connected(first.userId), await connected(second.userId)];
    // What each frame found: whether the second user's photo was still there.
    const api = await managementApiLooking(async () => (await assetRepo.get(secondPhoto)) !== undefined);
    try {
      expect(await nightly(night)).toMatchObject({ ran: true, purge: { assets: 2, users: 0, done: true } });
      expect(api.posts).toEqual([
        { connectionId: connections[0], frame: `42${JSON.stringify(['on_asset_delete', firstPhoto])}`, seen: true },
        { connectionId: connections[1], frame: `42${JSON.stringify(['on_asset_delete', secondPhoto])}`, seen: false },
      ]);
    } finally {
      await api.close();
      for (const connectionId of connections) await connectionRepo.remove(connectionId);
    }
  });

  it('also when the run fails part way: what it deleted before is told, and the next tick goes on', async () => {
    const night = nightOf(8);
    const [first, second] = [await freshUser(adminToken, 'FailFirst'), await freshUser(adminToken, 'FailSecond')];
    const [firstPhoto, secondPhoto] = [
      await addPhoto(first.accessToken, { color: [80, 1, 1] }),
      await addPhoto(second.accessToken, { color: [80, 2, 2] }),
    ];
    await trashedAt(firstPhoto, slotOf(night) - 40 * dayMs);
    await trashedAt(secondPhoto, slotOf(night) - 40 * dayMs);
    // The second user's photo damaged in the table (not an asset's shape): reading it fails the run.
    const damage = (value: unknown) =>
      table.send(
        new UpdateCommand({
          TableName: process.env.TABLE_NAME,
          Key: keys.asset(secondPhoto),
          UpdateExpression: 'SET isFavorite = :value',
          ExpressionAttributeValues: { ':value': value },
        }),
      );
    await damage('not a boolean');
    const connections = [await connected(first.userId), await connected(second.userId)];
    const api = await managementApiLooking(async () => undefined);
    try {
      await expect(nightly(night)).rejects.toThrow(/is not valid/);
      expect(api.posts.map((post) => post.frame)).toEqual([`42${JSON.stringify(['on_asset_delete', firstPhoto])}`]);
      await damage(false);
      expect(await nightly(night + 3_600_000)).toMatchObject({ ran: false, purge: { assets: 1, users: 0, done: true } });
      expect(api.posts.map((post) => post.frame)).toEqual([
        `42${JSON.stringify(['on_asset_delete', firstPhoto])}`,
        `42${JSON.stringify(['on_asset_delete', secondPhoto])}`,
      ]);
    } finally {
      await api.close();
      for (const connectionId of connections) await connectionRepo.remove(connectionId);
    }
  });
});

/** A photo taken on the night's day four years before (a leap day too), with its previews: an "on this day" memory's. */
const takenYearsBefore = async (token: string, night: number): Promise<string> => {
  const day = new Date(night);
  const dateTimeOriginal = `${day.getUTCFullYear() - 4}:${String(day.getUTCMonth() + 1).padStart(2, '0')}:${String(day.getUTCDate()).padStart(2, '0')} 12:00:00`;
  const reply = await upload(token, { data: makeJpeg({ width: 40, height: 30, dateTimeOriginal, offsetTimeOriginal: '+00:00' }) });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const id = reply.body.id as string;
  await objectCreated((await assetInfo(token, id)).body.originalPath);
  return id;
};

/** The user's memories: the year each is of, and its day. */
const memoriesOf = async (userId: string) =>
  (await memoryRepo.list(userId)).map((memory) => ({ year: memory.data.year, day: memory.showAt?.slice(0, 10) }));

describe('the night’s memories beside its purge', () => {
  it('are made first: the purge’s first batch finds them there', async () => {
    const night = nightOf(9);
    const [remembering, trashing] = [await freshUser(adminToken, 'MemoryFirst'), await freshUser(adminToken, 'PurgeAfter')];
    await takenYearsBefore(remembering.accessToken, night);
    const photo = await addPhoto(trashing.accessToken, { color: [90, 1, 1] });
    await trashedAt(photo, slotOf(night) - 40 * dayMs);
    const connection = await connected(trashing.userId);
    const api = await managementApiLooking(async () => memoriesOf(remembering.userId));
    try {
      const outcome = await nightly(night);
      const memory = { year: new Date(night).getUTCFullYear() - 4, day: at(night).slice(0, 10) };
      expect(api.posts).toEqual([{ connectionId: connection, frame: `42${JSON.stringify(['on_asset_delete', photo])}`, seen: [memory] }]);
      expect(outcome).toMatchObject({ ran: true, memories: { done: true }, purge: { assets: 1, done: true } });
    } finally {
      await api.close();
      await connectionRepo.remove(connection);
    }
  });

  it('left by a run whose time was up are made by the next tick, which goes on with the purge too', async () => {
    const night = nightOf(10);
    const [remembering, trashing] = [await freshUser(adminToken, 'MemoryLater'), await freshUser(adminToken, 'PurgeLater')];
    await takenYearsBefore(remembering.accessToken, night);
    const photo = await addPhoto(trashing.accessToken, { color: [100, 1, 1] });
    await trashedAt(photo, slotOf(night) - 40 * dayMs);

    // The invocation's time spent before it began (its last three minutes are left alone): neither is started.
    expect(await nightly(night, { getRemainingTimeInMillis: () => 60_000 })).toMatchObject({
      ran: true,
      memories: { days: [], memories: 0, done: false },
      purge: { assets: 0, done: false },
    });
    expect(await memoriesOf(remembering.userId)).toEqual([]);
    // The next tick makes the night's memories (as of the night's run), then goes on with its purge.
    expect(await nightly(night + 3_600_000)).toMatchObject({ ran: false, memories: { done: true }, purge: { assets: 1, done: true } });
    expect(await memoriesOf(remembering.userId)).toEqual([{ year: new Date(night).getUTCFullYear() - 4, day: at(night).slice(0, 10) }]);
    expect((await assetInfo(trashing.accessToken, photo)).status).toBe(400);
    // Both done: the tick after has nothing to do.
    expect(await nightly(night + 2 * 3_600_000)).toEqual({ slot: at(slotOf(night)), ran: false });
  });
});

describe('what a night reads', () => {
  it('reads no user item the users’ list held, and a purged user’s sessions once (expired ones too, with their checkpoints)', async () => {
    const night = nightOf(11);
    const [keeping, leaving] = [await freshUser(adminToken, 'ReadKeeping'), await freshUser(adminToken, 'ReadLeaving')];
    const photo = await addPhoto(keeping.accessToken, { color: [110, 1, 1] });
    await trashedAt(photo, slotOf(night) - 40 * dayMs);
    // A second session, its app synced (its checkpoints kept), then expired (its items not yet gone by TTL).
    await new SyncClient((await login({ email: 'readleaving@immich.cloud', password: 'password-ReadLeaving' })).accessToken).sync();
    const sessions = (await tableItems('userSession'))
      .filter((item) => item.pk === keys.user(leaving.userId).pk)
      .map((item) => keys.session(String(item.tokenHash)).pk);
    expect(sessions).toHaveLength(2);
    const synced = (await tableItems('syncCheckpoint')).find((item) => sessions.includes(String(item.pk)))?.pk;
    for (const key of [{ pk: synced, sk: 'SESSION' }, keys.userSession(leaving.userId, String(synced).slice('SESSION#'.length))])
      await table.send(
        new UpdateCommand({
          TableName: process.env.TABLE_NAME,
          Key: key,
          UpdateExpression: 'SET #ttl = :past',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 60 },
        }),
      );
    expect((await remove(leaving.userId)).status).toBe(200);
    await backdateDeletion(leaving.userId, slotOf(night) - 10 * dayMs);

    let outcome: unknown;
    const calls = await recordRoundTrips(async () => {
      outcome = await nightly(night);
    });
    expect(outcome).toMatchObject({ ran: true, purge: { assets: 1, users: 1, done: true } });
    // Of the user items, only the purged user's, read fresh (a restore meanwhile keeps them).
    const userItems = calls
      .filter((call) => call.command === 'GetItemCommand' && call.input.Key?.sk === 'USER')
      .map((call) => call.input.Key.pk);
    expect(userItems).toEqual([keys.user(leaving.userId).pk]);
    const sessionLists = calls.filter(
      (call) =>
        call.command === 'QueryCommand' &&
        call.input.ExpressionAttributeValues?.[':pk'] === keys.user(leaving.userId).pk &&
        call.input.ExpressionAttributeValues?.[':prefix'] === 'SESSION#',
    );
    expect(sessionLists).toHaveLength(1);
    // Every session ended, the expired one too, with their checkpoints, and nothing is left in their partition.
    expect((await tableItems()).filter((item) => sessions.includes(String(item.pk)) || item.pk === keys.user(leaving.userId).pk)).toEqual(
      [],
    );
  });
});
