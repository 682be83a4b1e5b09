import { requireAsset } from '../access/asset-access.ts';
import { Permission } from '../access/permission.ts';
import * as ocrRepo from '../db/ocr.repository.ts';
import { maxOcrTokensPerAsset, ocrTokens } from '../domain/ocr-text.ts';
import type { AssetRecord } from '../model/asset.ts';
import type { OcrLineRecord } from '../model/ocr.ts';
import type { SearchFilters } from '../model/search.ts';
import type { Auth } from '../model/user.ts';

/**
 * OCR (docs/immich-compatibility.md, "OCR"): what a run found is recorded here, read by
 * GET /assets/:id/ocr, synced (AssetOcrV1) and searched (search's `ocr`).
 */

/** GET /assets/:id/ocr: the text found in an asset the caller may read, its visible lines in the order found. */
export const getAssetOcr = async (auth: Auth, id: string): Promise<OcrLineRecord[]> => {
  await requireAsset(auth, Permission.AssetRead, id);
  return (await ocrRepo.getLines(id)).filter((line) => line.isVisible);
};

/** One line a run found (contract of shared/ml/ml.ts: box corners 0–1, clockwise from the top left). */
export interface FoundText {
  text: string;
  box: readonly [number, number, number, number, number, number, number, number];
  boxScore: number;
  textScore: number;
}

/**
 * Records a run's lines on an asset, replacing the last run's (Immich's OcrService.handleOcr: the
 * old rows deleted, the new inserted, `ocrAt` set), with the search tokens of their text. `gone`:
 * the asset was deleted meanwhile (nothing kept).
 */
export const recordOcr = async (asset: Pick<AssetRecord, 'id' | 'ownerId'>, found: readonly FoundText[]): Promise<'done' | 'gone'> => {
  const lines = found.map(({ text, box, boxScore, textScore }) => ({
    x1: box[0],
    y1: box[1],
    x2: box[2],
    y2: box[3],
    x3: box[4],
    y3: box[5],
    x4: box[6],
    y4: box[7],
    boxScore,
    textScore,
    text,
  }));
  const tokens = ocrTokens(lines.map((line) => line.text)).slice(0, maxOcrTokensPerAsset);
  const outcome = await ocrRepo.replaceLines(asset, lines, tokens, new Date().toISOString());
  return outcome.ok ? 'done' : 'gone';
};

/**
 * The ids of an owner's assets whose text has every token of the query (search's `ocr`): each
 * token's postings read and intersected, the rarest first. A query without a token matches nothing.
 */
export const assetIdsWithText = async (ownerId: string, query: string): Promise<Set<string>> => {
  const tokens = ocrTokens([query]);
  if (tokens.length === 0) return new Set();
  const sets = await Promise.all(tokens.map((token) => ocrRepo.assetIdsWithToken(ownerId, token)));
  const [first, ...rest] = sets.sort((a, b) => a.size - b.size);
  return new Set([...(first ?? [])].filter((id) => rest.every((set) => set.has(id))));
};

/** Search's OCR text as the owner's assets whose text has its words (among those already narrowed to, if any). */
export const withOcrMatches = async (owner: string, filters: SearchFilters): Promise<SearchFilters> => {
  if (filters.ocr === undefined) return filters;
  const matches = await assetIdsWithText(owner, filters.ocr);
  const among = filters.amongAssets;
  return { ...filters, amongAssets: among ? new Set([...matches].filter((id) => among.has(id))) : matches };
};
