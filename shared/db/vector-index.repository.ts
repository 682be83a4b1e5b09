/**
 * STAND-IN for contract 3 of issue 53 (helper `clip` writes the real embedding index: a per-owner
 * append log and a packed snapshot). Same signatures, simplest storage: one item per asset and
 * vector kind, read by a Query. Replaced by merging branch `clip`.
 */
import { batchPut } from './batch.ts';
import { getItem } from './get.ts';
import { queryAll } from './query.ts';

export type VectorKind = 'clip' | 'phash';
export interface VectorEntry {
  assetId: string;
  /** f16 bytes for clip, raw hash bytes for phash. */
  vector: Uint8Array;
}
export interface VectorSet {
  ids: string[];
  vectors: Uint8Array[];
}

const pk = (ownerId: string, kind: VectorKind, model: string) => `VECTORS#${ownerId}#${kind}#${model}`;

export const appendVectors = async (ownerId: string, kind: VectorKind, model: string, entries: VectorEntry[]): Promise<void> => {
  await batchPut(entries.map((entry) => ({ pk: pk(ownerId, kind, model), sk: `ASSET#${entry.assetId}`, assetId: entry.assetId, vector: entry.vector })));
};

export const loadVectors = async (ownerId: string, kind: VectorKind, model: string): Promise<VectorSet> => {
  const items = await queryAll({ value: pk(ownerId, kind, model) });
  return { ids: items.map((item) => String(item.assetId)), vectors: items.map((item) => new Uint8Array(item.vector as Uint8Array)) };
};

export const vectorOf = async (ownerId: string, kind: VectorKind, model: string, assetId: string): Promise<Uint8Array | undefined> => {
  const item = await getItem({ pk: pk(ownerId, kind, model), sk: `ASSET#${assetId}` });
  return item ? new Uint8Array(item.vector as Uint8Array) : undefined;
};
