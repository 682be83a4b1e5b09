import { randomUUID } from 'node:crypto';
import type { AssetOcrRecord, OcrLineRecord } from '../model/ocr.ts';
import { batchDelete, batchPut } from './batch.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import * as deletionWrites from './items/deletion-writes.ts';
import { assetOcrCodec } from './items/ocr.ts';
import { type Outcome, refused } from './outcome.ts';
import * as partitions from './partitions.ts';
import { queryPages } from './query.ts';
import { deleteWrite, putWrite, tryTransact, updateWrite, type Write } from './transact.ts';

/**
 * An asset's OCR lines (docs/immich-compatibility.md, "OCR"; docs/data-model.md, patterns 101–102):
 * one item, `ASSETOCR#<assetId>` / `OCR`, in a partition of the asset's own (reading an asset never
 * reads its text), in its owner's change partition `<ownerId>#ASSETOCR` (AssetOcrV1). A run replaces
 * it whole in one transaction with the deletion record of the lines it replaced (AssetOcrDeleteV1)
 * and the asset's `ocrAt`. Its search tokens are postings of their own, `OCRTERM#<ownerId>#<token>` /
 * `<assetId>`, apart from the text search's words: written before the run's transaction, those it
 * dropped deleted after.
 */
/** An asset's OCR result as stored, with the change id it was read at; undefined: none. */
const read = async (assetId: string): Promise<{ record: AssetOcrRecord; updateId: string } | undefined> => {
  const item = await getItem(keys.assetOcr(assetId));
  return item ? { record: assetOcrCodec.read(item), updateId: String(item.updateId) } : undefined;
};

/** An asset's OCR lines in the order found (none: `[]`), read consistently. */
export const getLines = async (assetId: string): Promise<OcrLineRecord[]> => (await read(assetId))?.record.lines ?? [];

/** A line as found, without its id: what a run records. */
export type FoundLine = Omit<OcrLineRecord, 'id' | 'isVisible'>;

const writePostings = (ownerId: string, assetId: string, tokens: readonly string[]) =>
  batchPut(tokens.map((token) => ({ ...keys.ocrTerm(ownerId, token, assetId), type: 'ocrTerm', assetId })));

const deletePostings = (ownerId: string, assetId: string, tokens: readonly string[]) =>
  batchDelete(tokens.map((token) => keys.ocrTerm(ownerId, token, assetId)));

/**
 * Replaces an asset's OCR lines with a run's (each a new id, as Immich's rows), in one transaction:
 * the new item (or its deletion when the run found nothing), the deletion record of every line
 * replaced, and the asset's `ocrAt` (its existence the condition: a deleted asset gets none, and
 * the postings written for it are removed). A run meanwhile (the item's change id no longer as read)
 * is read again and replaced in turn. `gone`: the asset is no longer there.
 */
export const replaceLines = async (
  asset: { id: string; ownerId: string },
  found: readonly FoundLine[],
  tokens: readonly string[],
  ocrAt: string,
): Promise<Outcome<'gone', OcrLineRecord[]>> => {
  const lines: OcrLineRecord[] = found.map((line) => ({ ...line, id: randomUUID(), isVisible: true }));
  for (let attempt = 0; ; attempt++) {
    const before = await read(asset.id);
    const kept = new Set(before?.record.tokens ?? []);
    await writePostings(
      asset.ownerId,
      asset.id,
      tokens.filter((token) => !kept.has(token)),
    );
    const asRead = before
      ? { condition: '#updateId = :read', names: { '#updateId': 'updateId' }, values: { ':read': before.updateId } }
      : { condition: 'absent' as const };
    const writes: Write<'gone' | 'changed'>[] = [
      updateWrite(keys.asset(asset.id), 'SET #ocrAt = :ocrAt', {
        condition: 'present',
        names: { '#ocrAt': 'ocrAt' },
        values: { ':ocrAt': ocrAt },
        sync: 'unsent',
        refusal: 'gone',
      }),
      lines.length > 0
        ? putWrite(
            { ...keys.assetOcr(asset.id), type: 'assetOcr', assetId: asset.id, ownerId: asset.ownerId, lines, tokens, ocrAt },
            { ...asRead, refusal: 'changed' },
          )
        : deleteWrite(keys.assetOcr(asset.id), { ...asRead, sync: 'recorded', refusal: 'changed' }),
    ];
    // Nothing before and nothing now: only the asset's `ocrAt`.
    if (!before && lines.length === 0) writes.pop();
    const replaced = before?.record.lines ?? [];
    if (replaced.length > 0)
      writes.push(
        deletionWrites.assetOcr(
          asset.ownerId,
          asset.id,
          replaced.map((line) => line.id),
        ),
      );
    const outcome = await tryTransact(writes);
    if (outcome.ok) {
      const now = new Set(tokens);
      await deletePostings(
        asset.ownerId,
        asset.id,
        [...kept].filter((token) => !now.has(token)),
      );
      return { ok: true, value: lines };
    }
    if (outcome.reason === 'gone') {
      // Its deletion took the stored tokens' postings; these were written for nothing.
      await deletePostings(asset.ownerId, asset.id, [...new Set([...tokens, ...kept])]);
      return refused('gone');
    }
    if (attempt >= 5) throw new Error(`The OCR lines of asset ${asset.id} changed at every attempt to replace them`);
  }
};

/**
 * An asset deleted for good takes its OCR lines and their postings with it, read after the asset's
 * deletion (a run after it is refused by its condition on the asset); its apps drop the lines with
 * the asset (`with-parent`, as Immich's rows cascade).
 */
export const dropAssetOcr = async (asset: { id: string; ownerId: string }): Promise<void> => {
  const before = await read(asset.id);
  if (!before) return;
  await deletePostings(asset.ownerId, asset.id, before.record.tokens);
  await batchDelete([keys.assetOcr(asset.id)], 'with-parent');
};

/** Most postings of one token read for one search (a token on more of an owner's assets: the first these many by id). */
export const maxTokenPostings = 25_000;

/** The ids of an owner's assets whose OCR text has the token (at most `maxTokenPostings`). */
export const assetIdsWithToken = async (ownerId: string, token: string): Promise<Set<string>> => {
  const ids = new Set<string>();
  for await (const page of queryPages(partitions.ocrTerm(ownerId, token), { pageSize: 1000, attributes: ['sk'] })) {
    for (const item of page) ids.add(String(item.sk));
    if (ids.size >= maxTokenPostings) break;
  }
  return ids;
};
