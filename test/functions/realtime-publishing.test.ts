import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { handler as updateAssetsHandler } from '#functions/asset/update-assets.ts';
import { handler as emptyTrashHandler } from '#functions/trash/empty-trash.ts';
import * as assetRepo from '#shared/db/asset.repository.ts';
import * as tagRepo from '#shared/db/tag.repository.ts';
import { noQuota } from '#shared/domain/quota.ts';
import type { AssetDetail } from '#shared/model/asset.ts';
import { newPerson } from '#shared/model/person.ts';
import type { LiveEvent } from '#shared/model/realtime.ts';
import { publish, publishing } from '#shared/realtime/publisher.ts';
import { detailOf, ownerDetails } from '#shared/services/asset-detail.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { trash } from '../support/library.ts';
import { assetRecord, faceRecord } from '../support/records.ts';
import { countRoundTrips } from '../support/round-trips.ts';
import { hangGuard } from '../support/timeouts.ts';
import { useWebSocketStandIn } from '../support/websocket-stand-in.ts';

/**
 * Publishing at size (docs/deployment.md, "Realtime"): the events of one request about many photos
 * are loaded in batches, posted many at once (never more than `publishing.postsInFlight`) in the
 * order that matters, and bounded in number and in time, through the WebSocket API's local stand-in
 * and its management API (behind a proxy that counts the calls in flight and can hold each one as
 * a round trip to API Gateway would). Nothing here is timed.
 */
let accounts: Awaited<ReturnType<typeof setupAccounts>>;
const standIn = useWebSocketStandIn();

beforeAll(async () => {
  accounts = await setupAccounts();
});

/** A raw WebSocket client, greeted: every frame it gets after the greeting, in order, as the app's socket sees the wire. */
const connected = async (token: string) => {
  const frames: string[] = [];
  const socket = new WebSocket(`${standIn.origin}/api/socket.io/?EIO=4&transport=websocket`, { headers: { 'x-immich-user-token': token } });
  socket.on('message', (data) => frames.push(String(data)));
  const until = async (what: () => boolean, why: string): Promise<void> => {
    const deadline = Date.now() + hangGuard.wait;
    while (!what() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    if (!what()) expect.fail(`${why}; got ${frames.length} frames`);
  };
  await until(() => frames.some((frame) => frame.startsWith('42["on_server_version"')), 'not greeted');
  frames.length = 0;
  const events = (name: string) => frames.filter((frame) => frame.startsWith(`42["${name}"`)).map((frame) => JSON.parse(frame.slice(2)));
  return {
    frames,
    events,
    until,
    /**
     * Everything published before now has arrived: a marker published after it arrives after it (one
     * connection's frames arrive in the order posted).
     */
    settled: async (userId: string): Promise<void> => {
      const marker = `marker-${Math.random()}`;
      await publish([{ kind: 'album-changed', albumId: marker, userIds: [userId] }]);
      await until(() => events('on_album_update').some(([, id]) => id === marker), 'no marker');
      frames.splice(
        frames.findIndex((frame) => frame.includes(marker)),
        1,
      );
    },
    close: () => socket.close(),
  };
};

/** Photos of a user written as uploads write them (no file: what is deleted for good is the items). */
const photos = async (ownerId: string, count: number): Promise<string[]> => {
  const assets = Array.from({ length: count }, (_, i) => assetRecord(ownerId, { at: new Date(Date.UTC(2021, 0, 1, 0, i)).toISOString() }));
  for (let i = 0; i < assets.length; i += 10)
    await Promise.all(
      assets
        .slice(i, i + 10)
        .map((asset) => assetRepo.recordUpload({ asset, faces: [], newPeople: [], existingPeople: new Set(), quota: noQuota })),
    );
  return assets.map((asset) => asset.id);
};

describe('publishing the events of one request about many photos', () => {
  // 150 photos here (each of them told, in batches and many posts at once); `npm run bench --
  // realtime` measures 1,000 (docs/benchmarks.md, "Realtime").
  it('answers PUT /asset, DELETE /asset and POST /trash/empty of many photos, and the app is told of each', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Many');
    const ids = await photos(user.id, 150);
    const app = await connected(user.accessToken);
    try {
      const updated = await invoke(updateAssetsHandler, {
        method: 'PUT',
        path: '/api/asset',
        headers: bearer(user.accessToken),
        body: { ids, isFavorite: true },
      });
      expect(updated.status).toBe(204);
      await app.until(() => app.events('on_asset_update').length >= ids.length, 'not every on_asset_update');
      const told = app.events('on_asset_update').map(([, asset]) => asset as { id: string; isFavorite: boolean; ownerId: string });
      expect(new Set(told.map((asset) => asset.id))).toEqual(new Set(ids));
      expect(told.every((asset) => asset.isFavorite && asset.ownerId === user.id)).toBe(true);

      expect((await trash(user.accessToken, ids)).status).toBe(204);
      await app.until(() => app.events('on_asset_trash').length >= 1, 'no on_asset_trash');
      expect(new Set(app.events('on_asset_trash')[0]?.[1])).toEqual(new Set(ids));

      const emptied = await invoke(emptyTrashHandler, { method: 'POST', path: '/api/trash/empty', headers: bearer(user.accessToken) });
      expect(emptied.status).toBe(204);
      await app.until(() => app.events('on_asset_delete').length >= ids.length, 'not every on_asset_delete');
      expect(new Set(app.events('on_asset_delete').map(([, id]) => id))).toEqual(new Set(ids));
    } finally {
      app.close();
    }
  });

  it('loads what 200 events carry in a few batched reads, and posts many at once, never more than the bound', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Batched');
    const ids = await photos(user.id, 200);
    const app = await connected(user.accessToken);
    standIn.proxy.stats.delayMs = 5;
    standIn.proxy.stats.maxInFlight = 0;
    try {
      const events: LiveEvent[] = ids.map((assetId) => ({ kind: 'asset-updated', ownerId: user.id, assetId, load: ownerDetails }));
      const calls = await countRoundTrips(() => publish(events));
      // One Query of the connections, the assets and their owner by key (BatchGetItem, 100 keys a
      // call), one Query for the owner's tags (none): a handful, where a loader an event read 600.
      expect(calls.length).toBeLessThanOrEqual(6);
      await app.until(() => app.events('on_asset_update').length >= 200, 'not every on_asset_update');
      expect(new Set(app.events('on_asset_update').map(([, asset]) => (asset as { id: string }).id))).toEqual(new Set(ids));
      expect(standIn.proxy.stats.maxInFlight).toBeGreaterThan(1);
      expect(standIn.proxy.stats.maxInFlight).toBeLessThanOrEqual(publishing.postsInFlight);
    } finally {
      standIn.proxy.stats.delayMs = 0;
      app.close();
    }
  });

  it('loads many photos’ views as the detail view loads one: owner, people and tags', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Detailed');
    const now = new Date().toISOString();
    const person = newPerson(user.id, now, { name: 'Ada' });
    const [withFace, tagged, plain] = [assetRecord(user.id), assetRecord(user.id), assetRecord(user.id)];
    await assetRepo.recordUpload({
      asset: withFace,
      faces: [faceRecord(withFace.id, person.id, user.id)],
      newPeople: [person],
      existingPeople: new Set(),
      quota: noQuota,
    });
    for (const asset of [tagged, plain])
      await assetRepo.recordUpload({ asset, faces: [], newPeople: [], existingPeople: new Set(), quota: noQuota });
    const tag = (value: string) => ({
      id: randomUUID(),
      ownerId: user.id,
      value,
      parentId: null,
      color: null,
      type: 'CUSTOM' as const,
      createdAt: now,
      updatedAt: now,
    });
    const [zebra, apple] = [tag('zebra'), tag('apple')];
    for (const each of [zebra, apple]) {
      await tagRepo.create(each);
      await tagRepo.addAssets(each, [tagged.id, withFace.id]);
    }
    const views = await ownerDetails([withFace.id, tagged.id, plain.id, 'gone-meanwhile']);
    expect([...views.keys()]).toEqual([withFace.id, tagged.id, plain.id]);
    for (const id of [withFace.id, tagged.id, plain.id]) {
      const view = views.get(id) ?? expect.fail(`no view of ${id}`);
      // What GET /assets/:id's detail of the one photo is.
      expect(view).toEqual(await detailOf(view.asset, view.faces, { tags: true }));
      expect(view.owner?.id).toBe(user.id);
    }
    expect(views.get(withFace.id)?.people.map((each) => each.name)).toEqual(['Ada']);
    expect(views.get(withFace.id)?.tags?.map((each) => each.value)).toEqual(['apple', 'zebra']);
    expect(views.get(tagged.id)?.tags?.map((each) => each.value)).toEqual(['apple', 'zebra']);
    expect(views.get(plain.id)?.tags).toEqual([]);
  });

  it('keeps the order that matters: one asset’s events as raised, an event about no one thing between what came before and after', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Ordered');
    const app = await connected(user.accessToken);
    standIn.proxy.stats.delayMs = 3;
    try {
      const photo = assetRecord(user.id);
      const described = (description: string) => async () =>
        new Map<string, AssetDetail>([
          [photo.id, { asset: { ...photo, exif: { ...photo.exif, description } }, faces: [], people: [], tags: [] }],
        ]);
      const deleted = (prefix: string) =>
        Array.from({ length: 30 }, (_, i): LiveEvent => ({ kind: 'asset-deleted', ownerId: user.id, assetId: `${prefix}-${i}` }));
      await publish([
        { kind: 'asset-updated', ownerId: user.id, assetId: photo.id, load: described('first') },
        ...deleted('before'),
        { kind: 'asset-updated', ownerId: user.id, assetId: photo.id, load: described('second') },
        { kind: 'stacks-changed', userId: user.id },
        ...deleted('after'),
        { kind: 'assets-restored', userId: user.id, assetIds: ['before-0', 'after-0'] },
        { kind: 'asset-deleted', ownerId: user.id, assetId: 'after-0' },
      ]);
      await app.settled(user.id);
      const order = app.frames.map((frame) => JSON.parse(frame.slice(2)) as [string, unknown]);
      const at = (where: (name: string, arg: unknown) => boolean) => order.findIndex(([name, arg]) => where(name, arg));
      const all = (where: (name: string, arg: unknown) => boolean) => order.flatMap(([name, arg], i) => (where(name, arg) ? [i] : []));
      const stack = at((name) => name === 'on_asset_stack_update');
      const updates = all((name) => name === 'on_asset_update');
      expect(updates.map((i) => (order[i]?.[1] as { exifInfo?: { description?: string } } | undefined)?.exifInfo?.description)).toEqual([
        'first',
        'second',
      ]);
      const befores = all((name, id) => name === 'on_asset_delete' && String(id).startsWith('before-'));
      const afters = all((name, id) => name === 'on_asset_delete' && String(id).startsWith('after-'));
      expect([befores.length, afters.length]).toEqual([30, 31]);
      expect(Math.max(...befores, ...updates)).toBeLessThan(stack);
      expect(Math.min(...afters)).toBeGreaterThan(stack);
      // The restore of `after-0` after its deletion, and its second deletion after the restore.
      const restore = at((name) => name === 'on_asset_restore');
      const afterZero = all((name, id) => name === 'on_asset_delete' && id === 'after-0');
      expect(afterZero[0]).toBeLessThan(restore);
      expect(afterZero[1]).toBeGreaterThan(restore);
    } finally {
      standIn.proxy.stats.delayMs = 0;
      app.close();
    }
  });

  it(`tells at most ${publishing.maxEvents} events of one operation, the first raised; the rest are dropped`, async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Capped');
    const app = await connected(user.accessToken);
    try {
      const ids = Array.from({ length: publishing.maxEvents + 200 }, (_, i) => `gone-${i}`);
      // The cap, not the time budget, is under test: a loaded machine may post 1,000 events slower than 5 s.
      await publish(
        ids.map((assetId) => ({ kind: 'asset-deleted', ownerId: user.id, assetId })),
        { budgetMs: 120_000 },
      );
      await app.settled(user.id);
      expect(new Set(app.events('on_asset_delete').map(([, id]) => id))).toEqual(new Set(ids.slice(0, publishing.maxEvents)));
    } finally {
      app.close();
    }
  });

  it('publishes nothing once its deadline is past: a request with no time left answers, and tells the app nothing', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Late');
    const [id = ''] = await photos(user.id, 1);
    const app = await connected(user.accessToken);
    try {
      // Less than the answer's margin left of the invocation (shared/http/pipeline.ts).
      const reply = await invoke(updateAssetsHandler, {
        method: 'PUT',
        path: '/api/asset',
        headers: bearer(user.accessToken),
        body: { ids: [id], isFavorite: true },
        remainingMs: 1_000,
      });
      expect(reply.status).toBe(204);
      await publish([{ kind: 'asset-deleted', ownerId: user.id, assetId: id }], { deadline: Date.now() - 1 });
      await app.settled(user.id);
      expect(app.events('on_asset_update')).toEqual([]);
      expect(app.events('on_asset_delete')).toEqual([]);
      // With time left, the same change is told.
      await invoke(updateAssetsHandler, {
        method: 'PUT',
        path: '/api/asset',
        headers: bearer(user.accessToken),
        body: { ids: [id], isFavorite: false },
      });
      await app.until(() => app.events('on_asset_update').length === 1, 'no on_asset_update');
    } finally {
      app.close();
    }
  });
});
