/**
 * Immich's metadata job run again over stored assets (`refresh-metadata`, and the metadataExtraction
 * queue started): each asset's keywords read again from its stored original and sidecar and put
 * on it as tags (shared/services/file-tags.ts), then its places named again (docs/places.md). The
 * rest of its metadata stays as the upload read it (docs/immich-compatibility.md, "Tags").
 */
import { inBatches } from '../../core/concurrency.ts';
import { log } from '../../core/log.ts';
import * as assetRepo from '../../db/asset.repository.ts';
import { extractKeywords } from '../../media/metadata-read.ts';
import { readForMetadata } from '../../media/ranged-read.ts';
import type { AssetRecord } from '../../model/asset.ts';
import { originalsStore } from '../../storage/originals.ts';
import { putFileTags } from '../file-tags.ts';
import { type PlacesOutcome, placeAsset } from '../places.service.ts';

/** The keywords of an asset's stored file and sidecar; none when the file is gone. */
const storedKeywords = async (asset: AssetRecord): Promise<string[]> => {
  const store = await originalsStore();
  if (!(await store.exists(asset.originalPath))) return [];
  const size = asset.exif.fileSizeInByte;
  const head = size
    ? await readForMetadata((start, end) => store.getRange(asset.originalPath, start, end), size)
    : await store.get(asset.originalPath);
  if (!head) return [];
  const sidecar = asset.sidecarPath ? await store.get(asset.sidecarPath) : undefined;
  // A sidecar that is no XMP (it was checked at upload; it may have been replaced since) is none.
  return extractKeywords(head, sidecar);
};

/** One asset's keywords as tags, then its places; what its places job did is the answer. */
const refreshAsset = async (assetId: string): Promise<PlacesOutcome> => {
  const asset = await assetRepo.get(assetId);
  if (!asset) return 'gone';
  const keywords = await storedKeywords(asset);
  if (keywords.length > 0) log.info('keywords', { assetId, tags: (await putFileTags(asset.ownerId, asset.id, keywords)).length });
  return (await placeAsset(assetId, { asset, indexPosition: true })).outcome;
};

/** The media function's metadata jobs (`asset-places`): eight assets at a time. */
export const refreshAssetsMetadata = async (assetIds: readonly string[]): Promise<Map<string, PlacesOutcome>> => {
  const outcomes = new Map<string, PlacesOutcome>();
  await inBatches(assetIds, 8, async (assetId) => {
    outcomes.set(assetId, await refreshAsset(assetId));
  });
  return outcomes;
};
