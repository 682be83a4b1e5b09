import { batchDelete, batchPut } from './batch.ts';
import * as keys from './item-keys.ts';
import * as partitions from './partitions.ts';
import { queryPages } from './query.ts';

/**
 * Text-search postings (item type `term`): `TERM#<ownerId>#<word>` / `<fileCreatedAt>#<assetId>`.
 * They are written before the asset they point at (so an asset never exists without them). A
 * search checks every candidate against the asset itself, so a posting whose asset is gone or no
 * longer has that word is skipped: a stale posting costs a read, never a wrong answer. A
 * description edit deletes the postings of the words it removed; docs/data-model.md says which
 * stale ones can remain and why they stay few.
 */
export interface Posting {
  assetId: string;
  fileCreatedAt: string;
  term: string;
}

/** The postings of one asset for some words. */
export const postingsOf = (asset: { id: string; fileCreatedAt: string }, terms: readonly string[]): Posting[] =>
  terms.map((term) => ({ assetId: asset.id, fileCreatedAt: asset.fileCreatedAt, term }));

/** Idempotent puts, 25 a BatchWriteItem call, unprocessed ones retried. */
export const writePostings = (ownerId: string, postings: readonly Posting[]): Promise<void> =>
  batchPut(
    postings.map((posting) => ({
      ...keys.term(ownerId, posting.term, posting.fileCreatedAt, posting.assetId),
      type: 'term',
      assetId: posting.assetId,
    })),
  );

/** The asset ids having a word, newest first, page by page. */
export async function* termAssetIdPages(ownerId: string, term: string, pageSize: number): AsyncGenerator<string[], void, void> {
  for await (const page of queryPages(partitions.term(ownerId, term), { descending: true, pageSize, attributes: ['assetId'] }))
    yield page.map((item) => String(item.assetId));
}

/** Removes postings (idempotent deletes, 25 a call). */
export const deletePostings = (ownerId: string, postings: readonly Posting[]): Promise<void> =>
  batchDelete(postings.map((posting) => keys.term(ownerId, posting.term, posting.fileCreatedAt, posting.assetId)));
