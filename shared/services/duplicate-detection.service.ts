/**
 * Immich's duplicate detection (docs/immich-compatibility.md, "Duplicates"), one asset at a time:
 * its neighbours — the owner's assets whose perceptual hashes are both within their thresholds
 * (shared/media/perceptual-hash.ts), and, when the owner has CLIP embeddings under the current
 * model, those within `maxDistance` among the nearest 64 — put in one group with it by Immich's
 * union rule (shared/db/duplicate.repository.ts). The media function runs it; nothing here decodes
 * an image, so the API functions' bundles never carry an image library.
 */
import * as assetRepo from '../db/asset.repository.ts';
import * as duplicateRepo from '../db/duplicate.repository.ts';
import * as vectorIndexRepo from '../db/vector-index.repository.ts';
import { packedDuplicates } from '../media/perceptual-hash.ts';
import type { AssetRecord } from '../model/asset.ts';
import type { SystemConfig } from '../model/config.ts';

type MlSettings = SystemConfig['machineLearning'];

/** A little apart, so that changes racing for one group do not meet again at once. */
const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * (attempt + 1)));

/** The model name perceptual hashes are stored under in the vector index. */
export const hashModel = 'phash-v1';

/** Immich's bound on the CLIP neighbours one detection considers. */
const clipNeighbours = 64;

/** Immich's job skips these: in a stack, hidden, locked (and here trashed ones: nothing to show them in). */
const detectable = (asset: AssetRecord): boolean =>
  asset.stack === null && asset.deletedAt === null && (asset.visibility === 'timeline' || asset.visibility === 'archive');

/** A neighbour as Immich's search takes it: the same owner and type, not trashed, not stacked, listed, not itself. */
const neighbourOf =
  (asset: AssetRecord) =>
  (other: AssetRecord): boolean =>
    other.id !== asset.id && other.ownerId === asset.ownerId && other.type === asset.type && detectable(other);

const f32 = (bytes: Uint8Array): Float32Array => Float32Array.from(new Float16Array(bytes.slice().buffer));

const cosineDistance = (a: Float32Array, b: Float32Array): number => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 1 : 1 - dot / Math.sqrt(na * nb);
};

/** The assets whose hashes are both within the thresholds of this one's. */
const hashMatches = async (asset: AssetRecord, own: Uint8Array | undefined): Promise<string[]> => {
  if (!own) return [];
  const all = await vectorIndexRepo.loadVectors(asset.ownerId, 'phash', hashModel);
  return all.ids.filter((id, i) => id !== asset.id && packedDuplicates(own, all.vectors[i] ?? new Uint8Array()));
};

/**
 * Immich's search: the nearest 64 by cosine distance among the owner's embeddings under the
 * current model, those within `maxDistance`. None when the asset has no embedding under it.
 */
const clipMatches = async (asset: AssetRecord, ml: MlSettings): Promise<string[]> => {
  if (!ml.enabled || !ml.clip.enabled) return [];
  const own = await vectorIndexRepo.vectorOf(asset.ownerId, 'clip', ml.clip.modelName, asset.id);
  if (!own) return [];
  const mine = f32(own);
  const all = await vectorIndexRepo.loadVectors(asset.ownerId, 'clip', ml.clip.modelName);
  return all.ids
    .map((id, i) => ({ id, distance: id === asset.id ? 2 : cosineDistance(mine, f32(all.vectors[i] ?? new Uint8Array())) }))
    .filter(({ id }) => id !== asset.id)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, clipNeighbours)
    .filter(({ distance }) => distance <= ml.duplicateDetection.maxDistance)
    .map(({ id }) => id);
};

export type DetectionOutcome = 'made' | 'gone' | 'skipped';

/**
 * Immich's duplicate detection of one asset (its AssetDetectDuplicates job), its hash given or
 * read from the index: its neighbours found, then Immich's union rule — the group is its own
 * duplicateId, else a neighbour's, else a new one; every neighbour not in it and every member of
 * the neighbours' other groups join it — written as one transaction conditioned on every asset
 * and group as read; a concurrent change cancels it and the detection reads again.
 */
export const detectDuplicates = async (assetId: string, ml: MlSettings, hash?: Uint8Array): Promise<DetectionOutcome> => {
  for (let attempt = 0; attempt < 12; attempt++) {
    const asset = await assetRepo.get(assetId);
    if (!asset) return 'gone';
    if (!detectable(asset)) return 'skipped';
    const own = hash ?? (await vectorIndexRepo.vectorOf(asset.ownerId, 'phash', hashModel, asset.id));
    const candidates = [...new Set([...(await hashMatches(asset, own)), ...(await clipMatches(asset, ml))])];
    const neighbours = (await assetRepo.getMany(candidates, { consistent: true })).filter(neighbourOf(asset));
    const now = new Date().toISOString();
    const outcome =
      neighbours.length === 0 ? await duplicateRepo.leaveGroup(asset, now) : await duplicateRepo.joinGroup(asset, neighbours, now);
    if (outcome === 'done') return 'made';
    // Another detection or a dismissal changed these assets or groups meanwhile: read them again.
    if (outcome === 'changed') await pause(attempt);
  }
  throw new Error(`Duplicate detection of asset ${assetId} kept meeting concurrent changes`);
};
