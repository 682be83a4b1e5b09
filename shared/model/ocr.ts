import * as v from 'valibot';
import { id, instant } from './fields.ts';

/**
 * The text found in a photo (Immich's `asset_ocr`, docs/immich-compatibility.md, "OCR"): one line
 * of text, its box's four corners as fractions (0–1) of the preview, clockwise from the top left,
 * the detector's and the recogniser's confidence, and whether it shows (Immich hides the boxes a
 * crop cut away; here every line shows: photo edits do not move them yet).
 */
export const OcrLineSchema = v.object({
  id: id(),
  x1: v.number(),
  y1: v.number(),
  x2: v.number(),
  y2: v.number(),
  x3: v.number(),
  y3: v.number(),
  x4: v.number(),
  y4: v.number(),
  boxScore: v.number(),
  textScore: v.number(),
  text: v.string(),
  isVisible: v.optional(v.boolean(), true),
});
export type OcrLineRecord = v.InferOutput<typeof OcrLineSchema>;

/**
 * An asset's OCR result as stored: every line of one run, replaced whole by the next run, and the
 * search tokens its postings were written for (so the next run or the asset's deletion removes them).
 */
export const AssetOcrRecordSchema = v.object({
  assetId: id(),
  /** The asset's owner: whose sync stream sends the lines (AssetOcrV1). */
  ownerId: id(),
  lines: v.array(OcrLineSchema),
  tokens: v.optional(v.array(v.string()), []),
  ocrAt: instant(),
});
export type AssetOcrRecord = v.InferOutput<typeof AssetOcrRecordSchema>;
