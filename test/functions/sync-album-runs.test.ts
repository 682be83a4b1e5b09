import { beforeAll, describe, expect, it } from 'vitest';
import * as albumRepo from '#shared/db/album.repository.ts';
import { batchPut } from '#shared/db/batch.ts';
import { db } from '#shared/db/client.ts';
import { assetItem } from '#shared/db/items/asset.ts';
import * as partitions from '#shared/db/partitions.ts';
import * as syncScopes from '#shared/db/sync-scopes.ts';
import type { AlbumRecord } from '#shared/model/album.ts';
import type { AssetRecord } from '#shared/model/asset.ts';
import { freshUser, setupAccounts } from '../support/accounts.ts';
import { assetRecord } from '../support/records.ts';
import { syncStream } from '../support/sync-client.ts';

/**
 * The sync stream's album runs (shared/db/sync.repository.ts, `mergeInOrder` over each album's
 * `albumEntryChanges`): a first sync merges every album's entries in change order, each album's
 * reader holding its current page. The pages start small and grow for an album the merge keeps
 * draining, and hold only the fields sent; the run stays exactly in change order.
 */

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

/** Each Query's partition value, limit, and the items it answered (their attribute names). */
const recordQueries = async (fn: () => Promise<unknown>) => {
  const queries: { partition: unknown; limit: unknown; items: string[][] }[] = [];
  const name = `album-runs-${Math.random()}`;
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName === 'QueryCommand') {
        const input = args.input as { ExpressionAttributeValues?: Record<string, unknown>; Limit?: number };
        const output = result.output as { Items?: Record<string, unknown>[] };
        queries.push({
          partition: input.ExpressionAttributeValues?.[':pk'],
          limit: input.Limit,
          items: (output.Items ?? []).map((item) => Object.keys(item)),
        });
      }
      return result;
    },
    { step: 'initialize', name },
  );
  try {
    await fn();
  } finally {
    db.middlewareStack.remove(name);
  }
  return queries;
};

const album = (ownerId: string, n: number): AlbumRecord => {
  const now = new Date().toISOString();
  return {
    id: crypto.randomUUID(),
    ownerId,
    albumName: `Run ${n}`,
    description: '',
    albumThumbnailAssetId: null,
    createdAt: now,
    updatedAt: now,
    isActivityEnabled: true,
    order: 'desc',
    sharedLinkCount: 0,
    sharedUserIds: [],
    userRoles: {},
  };
};

describe('the album runs of a first sync', () => {
  it('sends every entry in change order, reading each album in small pages that grow, only the fields sent', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'AlbumRuns');
    // Three big albums (260 entries) and nine small ones (20), their entries added in turns, so the runs interleave.
    const sizes = [260, 260, 260, 20, 20, 20, 20, 20, 20, 20, 20, 20];
    const assets: AssetRecord[] = Array.from({ length: 260 }, (_, n) =>
      assetRecord(user.id, { at: new Date(Date.UTC(2022, 0, 1) + n * 3_600_000).toISOString(), albumCount: 0 }),
    );
    await batchPut(assets.map(assetItem));
    const albums = sizes.map((_, n) => album(user.id, n));
    for (const created of albums) await albumRepo.create(created, []);
    const added = sizes.map(() => 0);
    for (let turn = 0; added.some((count, n) => count < (sizes[n] ?? 0)); turn++)
      for (const [n, created] of albums.entries()) {
        const size = sizes[n] ?? 0;
        // A big album takes 10 or 40 at a time (turns apart), a small one 5.
        const take = Math.min(size - (added[n] ?? 0), size > 20 ? (turn % 3 === 0 ? 40 : 10) : 5);
        if (take <= 0) continue;
        const outcomes = await albumRepo.addMembers(created, assets.slice(added[n], (added[n] ?? 0) + take));
        expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
        added[n] = (added[n] ?? 0) + take;
      }

    let lines: { type: string; data: { albumId: string; assetId: string }; ack: string }[] = [];
    const queries = await recordQueries(async () => {
      const reply = await syncStream(user.accessToken, { types: ['AlbumsV2', 'AlbumToAssetsV1'] });
      expect(reply.status).toBe(200);
      lines = reply.lines;
    });

    // Every entry once, in change order (the ack's id), across the albums.
    const entries = lines.filter((line) => line.type === 'AlbumToAssetV1');
    const ids = entries.map((line) => String(line.ack.split('|')[1]));
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
    const sent = entries.map((line) => `${line.data.albumId}/${line.data.assetId}`).sort();
    const written = albums.flatMap((created, n) => assets.slice(0, sizes[n]).map((asset) => `${created.id}/${asset.id}`)).sort();
    expect(sent).toEqual(written);
    // The runs interleave (else the order would prove little): some entry follows one of another album and precedes more of that one.
    const albumOrder = entries.map((line) => line.data.albumId);
    expect(albumOrder.filter((id, n) => n > 0 && id !== albumOrder[n - 1]).length).toBeGreaterThan(albums.length);

    // Each album's reader: a first page of at most 50 entries, then larger ones, each entry read once.
    for (const [n, created] of albums.entries()) {
      const reads = queries.filter((query) => query.partition === partitions.changes(syncScopes.albumEntries(created.id)).value);
      expect(reads[0]?.limit).toBe(50);
      expect(reads.map((read) => read.limit)).toEqual((sizes[n] ?? 0) > 250 ? [50, 200, 500] : [50]);
      expect(reads.reduce((total, read) => total + read.items.length, 0)).toBe(sizes[n]);
      // Only what a line needs (and the key, change id and status the reader reads): not the entry's other copies of its asset.
      const attributes = new Set(reads.flatMap((read) => read.items.flat()));
      expect([...attributes].sort()).toEqual(['albumId', 'assetId', 'sk', 'updateId', 'visibility']);
    }
  });
});
