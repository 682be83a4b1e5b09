import { randomUUID } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getItem } from '#shared/db/get.ts';
import * as keys from '#shared/db/item-keys.ts';
import * as partitions from '#shared/db/partitions.ts';
import { queryAll } from '#shared/db/query.ts';
import * as vectorIndexRepo from '#shared/db/vector-index.repository.ts';
import { resetOriginalsStore } from '#shared/storage/originals.ts';

/**
 * The embedding index (shared/db/vector-index.repository.ts) against DynamoDB Local and the local
 * originals folder: appends numbered without gaps however many writers, snapshots written when
 * the tail grows, and a reader that keeps what it read and sees every later append.
 */
const defaults = { ...vectorIndexRepo.vectorIndexSettings };
afterEach(() => Object.assign(vectorIndexRepo.vectorIndexSettings, defaults));

const vector = (...values: number[]) => new Uint8Array(new Float16Array(values).buffer);
const decoded = (bytes: Uint8Array | undefined) =>
  bytes ? [...new Float16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2)] : undefined;
const asObject = (set: vectorIndexRepo.VectorSet) => Object.fromEntries(set.ids.map((id, i) => [id, decoded(set.vectors[i])]));

/** A fresh module instance: another process, with nothing read yet. */
const freshProcess = async () => {
  vi.resetModules();
  return (await import('#shared/db/vector-index.repository.ts')) as typeof vectorIndexRepo;
};

const snapshotFiles = (ownerId: string): string[] => {
  const dir = join(process.env.ORIGINALS_DIR as string, 'index', ownerId, 'clip', 'm1');
  try {
    return readdirSync(dir).filter((name) => name.endsWith('.bin'));
  } catch {
    return [];
  }
};

describe('vector index', () => {
  it('appends, and reads back the latest vector per asset; a reader sees later appends', async () => {
    const owner = randomUUID();
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    expect(await vectorIndexRepo.loadVectors(owner, 'clip', 'm1')).toEqual({ ids: [], vectors: [] });
    await vectorIndexRepo.appendVectors(owner, 'clip', 'm1', [
      { assetId: a, vector: vector(1, 0) },
      { assetId: b, vector: vector(0, 1) },
    ]);
    expect(asObject(await vectorIndexRepo.loadVectors(owner, 'clip', 'm1'))).toEqual({ [a]: [1, 0], [b]: [0, 1] });
    // The same process reads again after another append: it sees it.
    await vectorIndexRepo.appendVectors(owner, 'clip', 'm1', [{ assetId: c, vector: vector(0.5, 0.5) }]);
    expect(asObject(await vectorIndexRepo.loadVectors(owner, 'clip', 'm1'))).toEqual({ [a]: [1, 0], [b]: [0, 1], [c]: [0.5, 0.5] });
    // Another process that appends, read by this one.
    const other = await freshProcess();
    await other.appendVectors(owner, 'clip', 'm1', [{ assetId: a, vector: vector(-1, 0) }]);
    expect(decoded(await vectorIndexRepo.vectorOf(owner, 'clip', 'm1', a))).toEqual([-1, 0]);
    // Other models, kinds and owners are apart.
    expect(await vectorIndexRepo.vectorOf(owner, 'clip', 'm2', a)).toBeUndefined();
    expect(await vectorIndexRepo.vectorOf(owner, 'phash', 'm1', a)).toBeUndefined();
    expect(await vectorIndexRepo.vectorOf(randomUUID(), 'clip', 'm1', a)).toBeUndefined();
    const head = await getItem(keys.vectorIndexHead(owner, 'clip', 'm1'));
    expect(head?.seq).toBe(3);
  });

  it('replaces and removes (a vector of no bytes)', async () => {
    const owner = randomUUID();
    const [a, b] = [randomUUID(), randomUUID()];
    await vectorIndexRepo.appendVectors(owner, 'phash', 'phash-v1', [
      { assetId: a, vector: new Uint8Array([1, 2, 3]) },
      { assetId: b, vector: new Uint8Array([4, 5, 6]) },
    ]);
    await vectorIndexRepo.appendVectors(owner, 'phash', 'phash-v1', [
      { assetId: a, vector: new Uint8Array() },
      { assetId: b, vector: new Uint8Array([7, 8, 9]) },
    ]);
    const set = await (await freshProcess()).loadVectors(owner, 'phash', 'phash-v1');
    expect(set.ids).toEqual([b]);
    expect([...(set.vectors[0] ?? [])]).toEqual([7, 8, 9]);
    expect(await vectorIndexRepo.vectorOf(owner, 'phash', 'phash-v1', a)).toBeUndefined();
  });

  it('numbers concurrent appends from two writers without gaps or losses', async () => {
    const owner = randomUUID();
    const [one, two] = [await freshProcess(), await freshProcess()];
    const ids = Array.from({ length: 24 }, () => randomUUID());
    await Promise.all(
      ids.map((id, i) => (i % 2 === 0 ? one : two).appendVectors(owner, 'clip', 'm1', [{ assetId: id, vector: vector(i, 1) }])),
    );
    const entries = await queryAll(partitions.vectorIndex(owner, 'clip', 'm1'));
    expect(entries.filter((item) => item.sk !== 'HEAD').map((item) => Number(item.seq))).toEqual(ids.map((_, i) => i + 1));
    const set = await (await freshProcess()).loadVectors(owner, 'clip', 'm1');
    expect(asObject(set)).toEqual(Object.fromEntries(ids.map((id, i) => [id, [i, 1]])));
  });

  it('splits a large append into entries of bounded size', async () => {
    const owner = randomUUID();
    vectorIndexRepo.vectorIndexSettings.entryBytes = 5_000;
    const ids = Array.from({ length: 30 }, () => randomUUID());
    await vectorIndexRepo.appendVectors(
      owner,
      'clip',
      'm1',
      ids.map((id, i) => ({ assetId: id, vector: vector(...Array.from({ length: 256 }, () => i)) })),
    );
    const entries = (await queryAll(partitions.vectorIndex(owner, 'clip', 'm1'))).filter((item) => item.sk !== 'HEAD');
    expect(entries.length).toBeGreaterThanOrEqual(4);
    for (const entry of entries) expect((entry.vectors as Uint8Array).byteLength).toBeLessThanOrEqual(5_000);
    const set = await (await freshProcess()).loadVectors(owner, 'clip', 'm1');
    expect(set.ids).toEqual(ids);
    expect(set.vectors.map((bytes) => decoded(bytes)?.[255])).toEqual(ids.map((_, i) => i));
  });

  it('writes a snapshot when the tail passes the threshold; readers read snapshot and tail; old entries go', async () => {
    const owner = randomUUID();
    Object.assign(vectorIndexRepo.vectorIndexSettings, { compactAfterEntries: 4, compactAfterShare: 0 });
    const warm = await freshProcess();
    const ids = Array.from({ length: 14 }, () => randomUUID());
    const expected: Record<string, number[]> = {};
    for (const [i, id] of ids.entries()) {
      await vectorIndexRepo.appendVectors(owner, 'clip', 'm1', [{ assetId: id, vector: vector(i, 2) }]);
      expected[id] = [i, 2];
      // A warm reader keeps up throughout, over the compactions.
      if (i % 3 === 0) expect(asObject(await warm.loadVectors(owner, 'clip', 'm1'))).toEqual(expected);
    }
    const head = await getItem(keys.vectorIndexHead(owner, 'clip', 'm1'));
    // 4, 8, 12: three snapshots, the last two kept.
    expect(head).toMatchObject({ seq: 14, snapshotSeq: 12, previousSnapshotSeq: 8, snapshotCount: 12 });
    expect(
      snapshotFiles(owner)
        .map((name) => name.split('-')[0])
        .sort(),
    ).toEqual(['12', '8']);
    // The entries the previous snapshot covers are gone; those after it are kept.
    const entries = (await queryAll(partitions.vectorIndex(owner, 'clip', 'm1'))).filter((item) => item.sk !== 'HEAD');
    expect(entries.map((item) => Number(item.seq))).toEqual([9, 10, 11, 12, 13, 14]);
    // A cold reader: snapshot 12, then entries 13 and 14.
    expect(asObject(await (await freshProcess()).loadVectors(owner, 'clip', 'm1'))).toEqual(expected);
    // A warm reader last up to date before entries it needs were deleted starts again from the snapshot.
    expect(asObject(await warm.loadVectors(owner, 'clip', 'm1'))).toEqual(expected);
  });

  it('keeps appends made while a snapshot is written (concurrent compaction)', async () => {
    const owner = randomUUID();
    Object.assign(vectorIndexRepo.vectorIndexSettings, { compactAfterEntries: 3, compactAfterShare: 0 });
    const writers = [await freshProcess(), await freshProcess(), await freshProcess()];
    const ids = Array.from({ length: 30 }, () => randomUUID());
    for (const writer of writers) Object.assign(writer.vectorIndexSettings, { compactAfterEntries: 3, compactAfterShare: 0 });
    await Promise.all(ids.map((id, i) => writers[i % 3]?.appendVectors(owner, 'clip', 'm1', [{ assetId: id, vector: vector(i, 3) }])));
    // And compactions started together: one wins, the other's object is removed.
    await vectorIndexRepo.appendVectors(owner, 'clip', 'm1', [{ assetId: ids[0] as string, vector: vector(-1, 3) }]);
    await Promise.all(writers.map((writer) => writer.compact(owner, 'clip', 'm1')));
    const expected = Object.fromEntries(ids.map((id, i) => [id, i === 0 ? [-1, 3] : [i, 3]]));
    expect(asObject(await (await freshProcess()).loadVectors(owner, 'clip', 'm1'))).toEqual(expected);
    for (const writer of writers) expect(asObject(await writer.loadVectors(owner, 'clip', 'm1'))).toEqual(expected);
    const head = await getItem(keys.vectorIndexHead(owner, 'clip', 'm1'));
    expect(snapshotFiles(owner).length).toBeLessThanOrEqual(2);
    expect(snapshotFiles(owner).some((name) => name === String(head?.snapshotKey).split('/').at(-1))).toBe(true);
  });

  it('keeps an append when its snapshot cannot be written (the store failing), and compacts on a later append', async () => {
    const owner = randomUUID();
    Object.assign(vectorIndexRepo.vectorIndexSettings, { compactAfterEntries: 2, compactAfterShare: 0 });
    const originals = process.env.ORIGINALS_DIR as string;
    // A file where the store's folder should be: every write fails.
    const blocked = join(tmpdir(), `not-a-folder-${randomUUID()}`);
    writeFileSync(blocked, '');
    process.env.ORIGINALS_DIR = blocked;
    resetOriginalsStore();
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    try {
      await vectorIndexRepo.appendVectors(owner, 'clip', 'm1', [{ assetId: a, vector: vector(1, 1) }]);
      await vectorIndexRepo.appendVectors(owner, 'clip', 'm1', [{ assetId: b, vector: vector(2, 2) }]);
    } finally {
      process.env.ORIGINALS_DIR = originals;
      resetOriginalsStore();
    }
    expect(await getItem(keys.vectorIndexHead(owner, 'clip', 'm1'))).toMatchObject({ seq: 2 });
    expect((await getItem(keys.vectorIndexHead(owner, 'clip', 'm1')))?.snapshotKey).toBeUndefined();
    await vectorIndexRepo.appendVectors(owner, 'clip', 'm1', [{ assetId: c, vector: vector(3, 3) }]);
    expect(await getItem(keys.vectorIndexHead(owner, 'clip', 'm1'))).toMatchObject({ seq: 3, snapshotSeq: 3 });
    expect(asObject(await (await freshProcess()).loadVectors(owner, 'clip', 'm1'))).toEqual({ [a]: [1, 1], [b]: [2, 2], [c]: [3, 3] });
  });
});
