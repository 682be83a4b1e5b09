/**
 * The embedding index (docs/search.md, "The embedding index"; docs/data-model.md, patterns 99–100):
 * per owner, kind (`clip` embeddings, `phash` perceptual hashes) and model, every asset's latest
 * vector. Two parts:
 *
 * - **A log in DynamoDB**, as the face index (docs/faces.md, "The face index"): entries numbered
 *   1, 2, 3… under `VECTORS#<ownerId>#<kind>#<model>`, each holding several assets' vectors, and a
 *   head item with the last number. Entries are added in one transaction with the head moved on
 *   from the number read (condition `seq = <read>`), so they have no gaps and a reader that read the
 *   head can read every entry up to it (consistent Query). Entries never change.
 * - **A packed snapshot in the originals store** (`index/<ownerId>/<kind>/<model>/<seq>-<uuid>.bin`),
 *   written by an appender when the log's tail (the entries after the snapshot) passes a threshold.
 *   It records the number it covers; the head names it (`snapshotKey`, `snapshotSeq`), set on
 *   condition that the head still names the snapshot the compactor started from, so two compactors
 *   cannot both win (the loser removes its object). Appends go on meanwhile: the snapshot covers
 *   the number it read, the entries after it stay in the log. The entries the previous snapshot
 *   covered, and the snapshot before it, are deleted after a new one is named; a reader that finds
 *   an entry or snapshot gone meanwhile (fewer entries than the numbers say) reads again.
 *
 * A process keeps what it has read (per owner, kind and model) and reads only the head and newer
 * entries: a warm search reads one item, plus what is new. An entry's vector of no bytes removes its
 * asset. Deleted assets are not removed here: callers filter them at result time.
 */
import { createHash, randomUUID } from 'node:crypto';
import { log } from '../core/log.ts';
// biome-ignore lint/style/noRestrictedImports: the snapshots live in the originals store (the one exception, test/unit/architecture.test.ts).
import { originalsStore } from '../storage/originals.ts';
import { batchDelete } from './batch.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import * as partitions from './partitions.ts';
import { queryPages } from './query.ts';
import { isCancelled, putWrite, transact, tryWriteOne, updateWrite, type Write } from './transact.ts';

export type VectorKind = 'clip' | 'phash';
export interface VectorEntry {
  assetId: string;
  /** f16 bytes for clip, raw hash bytes for phash; no bytes: the asset is removed from the index. */
  vector: Uint8Array;
}
export interface VectorSet {
  /** Latest per asset; removed and replaced ones dropped. In the order first added. */
  ids: string[];
  vectors: Uint8Array[];
}

/** Tunables; tests lower them. */
export const vectorIndexSettings = {
  /** A snapshot is written once the tail holds at least this many entries, and… */
  compactAfterEntries: 256,
  /** …at least this share of the snapshot's assets (so a large index is not rewritten every few uploads). */
  compactAfterShare: 0.05,
  /** Bytes of vectors and ids one entry holds at most (an item is at most 400 KB). */
  entryBytes: 300_000,
};

interface State {
  seq: number;
  vectors: Map<string, Uint8Array>;
  set?: VectorSet;
}

const cache = new Map<string, State>();
const cacheKey = (ownerId: string, kind: VectorKind, model: string) => `${ownerId}\n${kind}\n${model}`;

/** The model's name as a key part: itself when it is plain, else a digest of it. */
const modelPart = (model: string): string =>
  /^[A-Za-z0-9._-]{1,100}$/.test(model) ? model : `m-${createHash('sha256').update(model).digest('hex').slice(0, 32)}`;

const headKey = (ownerId: string, kind: VectorKind, model: string) => keys.vectorIndexHead(ownerId, kind, modelPart(model));

/** Splits entries into items: ids, each vector's byte count, and the vectors one after another. */
const entryItems = (entries: readonly VectorEntry[]): { ids: string[]; sizes: number[]; vectors: Uint8Array }[] => {
  const items: { ids: string[]; sizes: number[]; parts: Uint8Array[]; bytes: number }[] = [];
  for (const entry of entries) {
    const bytes = entry.vector.byteLength + entry.assetId.length + 8;
    let last = items.at(-1);
    if (!last || (last.bytes + bytes > vectorIndexSettings.entryBytes && last.ids.length > 0)) {
      last = { ids: [], sizes: [], parts: [], bytes: 0 };
      items.push(last);
    }
    last.ids.push(entry.assetId);
    last.sizes.push(entry.vector.byteLength);
    last.parts.push(entry.vector);
    last.bytes += bytes;
  }
  return items.map(({ ids, sizes, parts }) => ({ ids, sizes, vectors: Buffer.concat(parts) }));
};

/** Applies one entry item to a map of vectors (each vector copied: a Float16Array view needs an even offset). */
const applyEntry = (vectors: Map<string, Uint8Array>, item: Record<string, unknown>): void => {
  const ids = item.ids as string[];
  const sizes = (item.sizes as unknown[]).map(Number);
  const bytes = item.vectors as Uint8Array;
  let offset = 0;
  ids.forEach((id, i) => {
    const size = sizes[i] ?? 0;
    vectors.delete(id);
    if (size > 0) vectors.set(id, bytes.slice(offset, offset + size));
    offset += size;
  });
};

// A snapshot: "VIX1", a u32 header length, the header (JSON: kind, model, seq, ids, sizes), zeros to a multiple of 16, then the vectors.
const magic = 'VIX1';

const packSnapshot = (kind: VectorKind, model: string, seq: number, vectors: Map<string, Uint8Array>): Buffer => {
  const ids = [...vectors.keys()];
  const sizes = ids.map((id) => vectors.get(id)?.byteLength ?? 0);
  const header = Buffer.from(JSON.stringify({ kind, model, seq, ids, sizes }));
  const start = Math.ceil((8 + header.length) / 16) * 16;
  const out = Buffer.alloc(start + sizes.reduce((sum, size) => sum + size, 0));
  out.write(magic, 0, 'latin1');
  out.writeUInt32LE(header.length, 4);
  header.copy(out, 8);
  let offset = start;
  for (const id of ids) {
    const vector = vectors.get(id) as Uint8Array;
    out.set(vector, offset);
    offset += vector.byteLength;
  }
  return out;
};

const unpackSnapshot = (bytes: Buffer): { seq: number; vectors: Map<string, Uint8Array> } => {
  if (bytes.toString('latin1', 0, 4) !== magic) throw new Error('Not an embedding index snapshot');
  const length = bytes.readUInt32LE(4);
  const header = JSON.parse(bytes.toString('utf8', 8, 8 + length)) as { seq: number; ids: string[]; sizes: number[] };
  let offset = Math.ceil((8 + length) / 16) * 16;
  const vectors = new Map<string, Uint8Array>();
  // Views into one buffer (a fresh, aligned one: readFile's and S3's are), not copies: 50,000 vectors are one allocation.
  const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const aligned = bytes.byteOffset % 2 === 0 ? view : new Uint8Array(view);
  header.ids.forEach((id, i) => {
    const size = header.sizes[i] ?? 0;
    vectors.set(id, aligned.subarray(offset, offset + size));
    offset += size;
  });
  return { seq: header.seq, vectors };
};

interface Head {
  seq: number;
  snapshotKey?: string;
  snapshotSeq: number;
  snapshotCount: number;
  previousSnapshotKey?: string;
  previousSnapshotSeq: number;
  /** The snapshots' S3 object versions (deployed), so that a deletion leaves no noncurrent copy. */
  snapshotVersion?: string;
  previousSnapshotVersion?: string;
}

const readHead = async (ownerId: string, kind: VectorKind, model: string): Promise<Head | undefined> => {
  const item = await getItem(headKey(ownerId, kind, model));
  if (!item) return undefined;
  return {
    seq: Number(item.seq ?? 0),
    snapshotSeq: Number(item.snapshotSeq ?? 0),
    snapshotCount: Number(item.snapshotCount ?? 0),
    previousSnapshotSeq: Number(item.previousSnapshotSeq ?? 0),
    ...(typeof item.snapshotKey === 'string' ? { snapshotKey: item.snapshotKey } : {}),
    ...(typeof item.previousSnapshotKey === 'string' ? { previousSnapshotKey: item.previousSnapshotKey } : {}),
    ...(typeof item.snapshotVersion === 'string' && item.snapshotVersion ? { snapshotVersion: item.snapshotVersion } : {}),
    ...(typeof item.previousSnapshotVersion === 'string' && item.previousSnapshotVersion
      ? { previousSnapshotVersion: item.previousSnapshotVersion }
      : {}),
  };
};

/** Applies the entries numbered after `from` up to `to`; false when some are gone (a compaction deleted them meanwhile). */
const readEntries = async (
  ownerId: string,
  kind: VectorKind,
  model: string,
  vectors: Map<string, Uint8Array>,
  from: number,
  to: number,
) => {
  let count = 0;
  let expected = from + 1;
  const partition = partitions.vectorIndex(ownerId, kind, modelPart(model));
  const sk = (seq: number) => keys.vectorIndexEntry(ownerId, kind, modelPart(model), seq).sk;
  for await (const page of queryPages(partition, { from: sk(from + 1), to: sk(to) }))
    for (const item of page) {
      if (Number(item.seq) !== expected) return false;
      applyEntry(vectors, item);
      expected++;
      count++;
    }
  return count === to - from;
};

/** The index as it is now: what this process holds, brought up to the head. */
const current = async (ownerId: string, kind: VectorKind, model: string): Promise<State> => {
  const key = cacheKey(ownerId, kind, model);
  for (let attempt = 0; attempt < 10; attempt++) {
    const head = await readHead(ownerId, kind, model);
    const seq = head?.seq ?? 0;
    let state = cache.get(key);
    // A head behind what was read: the table was made again (a test's); start over.
    if (state && state.seq > seq) state = undefined;
    if (state && state.seq === seq) return state;
    // What this process holds is older than the entries still kept: start from the snapshot.
    if (state && head && state.seq < head.previousSnapshotSeq) state = undefined;
    let vectors: Map<string, Uint8Array>;
    let from: number;
    if (state) {
      vectors = new Map(state.vectors);
      from = state.seq;
    } else if (head?.snapshotKey) {
      const bytes = await (await originalsStore()).get(head.snapshotKey);
      if (!bytes) continue; // Replaced and deleted meanwhile: read the head again.
      ({ vectors, seq: from } = unpackSnapshot(bytes));
    } else {
      vectors = new Map();
      from = 0;
    }
    if (!(await readEntries(ownerId, kind, model, vectors, from, seq))) {
      cache.delete(key);
      continue;
    }
    const next: State = { seq, vectors };
    cache.set(key, next);
    return next;
  }
  throw new Error(`The ${kind} index of user ${ownerId} kept changing`);
};

export const loadVectors = async (ownerId: string, kind: VectorKind, model: string): Promise<VectorSet> => {
  const state = await current(ownerId, kind, model);
  state.set ??= { ids: [...state.vectors.keys()], vectors: [...state.vectors.values()] };
  return state.set;
};

export const vectorOf = async (ownerId: string, kind: VectorKind, model: string, assetId: string): Promise<Uint8Array | undefined> =>
  (await current(ownerId, kind, model)).vectors.get(assetId);

/**
 * Adds the entries (a later one for an asset replaces an earlier; one of no bytes removes it): as
 * many items as they fill, numbered on from the head in one transaction with it (another appender
 * took the numbers: read the head again and retry). Then, when the tail is long, a snapshot.
 */
export const appendVectors = async (ownerId: string, kind: VectorKind, model: string, entries: VectorEntry[]): Promise<void> => {
  if (entries.length === 0) return;
  const items = entryItems(entries);
  // A transaction holds at most 100 writes and 4 MB: 12 entries of 300 KB and the head.
  for (let start = 0; start < items.length; start += 12) await appendItems(ownerId, kind, model, items.slice(start, start + 12));
  const head = await readHead(ownerId, kind, model);
  // The append is done; a snapshot that cannot be written now is written by a later append.
  if (head && shouldCompact(head))
    await compact(ownerId, kind, model).catch((error: unknown) =>
      log.warn('The embedding index was not compacted', { ownerId, kind, model, error: String(error) }),
    );
};

const shouldCompact = (head: Head): boolean => {
  const tail = head.seq - head.snapshotSeq;
  return tail >= vectorIndexSettings.compactAfterEntries && tail >= head.snapshotCount * vectorIndexSettings.compactAfterShare;
};

const appendItems = async (ownerId: string, kind: VectorKind, model: string, items: ReturnType<typeof entryItems>): Promise<void> => {
  const head = headKey(ownerId, kind, model);
  for (let attempt = 0; attempt < 50; attempt++) {
    const item = await getItem(head);
    const seq = Number(item?.seq ?? 0);
    const next = seq + items.length;
    const writes: Write[] = [
      item
        ? updateWrite(head, 'SET seq = :next', { condition: 'seq = :seq', values: { ':next': next, ':seq': seq }, sync: 'unsent' })
        : putWrite({ ...head, type: 'vectorIndexHead', seq: next, kind, model }, { condition: 'absent' }),
      ...items.map((entry, i) =>
        putWrite(
          { ...keys.vectorIndexEntry(ownerId, kind, modelPart(model), seq + 1 + i), type: 'vectorIndexEntry', seq: seq + 1 + i, ...entry },
          { condition: 'absent' },
        ),
      ),
    ];
    try {
      await transact(writes);
      return;
    } catch (error) {
      if (!isCancelled(error)) throw error;
      // Another appender took the numbers: read the head again, after a pause that spreads the retries.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(1_000, 20 * 2 ** Math.min(attempt, 6))));
    }
  }
  throw new Error(`The ${kind} index of user ${ownerId} kept changing`);
};

/**
 * Writes a snapshot of the index up to the head read, and names it in the head on condition that
 * the head still names the snapshot it started from; then deletes what the new snapshot makes
 * unneeded two generations back (the previous snapshot's entries and the one before it), so a
 * reader that read the head just before is not left without its snapshot or entries.
 */
export const compact = async (ownerId: string, kind: VectorKind, model: string): Promise<boolean> => {
  const head = await readHead(ownerId, kind, model);
  if (!head) return false;
  const state = await current(ownerId, kind, model);
  if (state.seq <= head.snapshotSeq) return false;
  const store = await originalsStore();
  const key = `index/${ownerId}/${kind}/${modelPart(model)}/${state.seq}-${randomUUID()}.bin`;
  const written = await store.put(key, packSnapshot(kind, model, state.seq, state.vectors), 'application/octet-stream');
  const named = await tryWriteOne(
    updateWrite(
      headKey(ownerId, kind, model),
      'SET snapshotKey = :key, snapshotSeq = :seq, snapshotCount = :count, snapshotVersion = :version, previousSnapshotKey = :previousKey, previousSnapshotSeq = :previousSeq, previousSnapshotVersion = :previousVersion',
      {
        condition: head.snapshotKey ? 'snapshotKey = :readKey' : 'attribute_not_exists(snapshotKey)',
        values: {
          ':key': key,
          ':seq': state.seq,
          ':count': state.vectors.size,
          ':version': written.version ?? '',
          ':previousKey': head.snapshotKey ?? '',
          ':previousSeq': head.snapshotSeq,
          ':previousVersion': head.snapshotVersion ?? '',
          ...(head.snapshotKey ? { ':readKey': head.snapshotKey } : {}),
        },
        sync: 'unsent',
        refusal: 'moved',
      },
    ),
  );
  if (!named.ok) {
    await store.delete([written]);
    return false;
  }
  // Two generations back: the snapshot before the previous one, and the entries the previous one covered.
  if (head.previousSnapshotKey)
    await store.delete([
      { key: head.previousSnapshotKey, ...(head.previousSnapshotVersion ? { version: head.previousSnapshotVersion } : {}) },
    ]);
  const gone: ReturnType<typeof keys.vectorIndexEntry>[] = [];
  for (let seq = head.previousSnapshotSeq + 1; seq <= head.snapshotSeq; seq++)
    gone.push(keys.vectorIndexEntry(ownerId, kind, modelPart(model), seq));
  if (gone.length > 0) await batchDelete(gone);
  return true;
};
