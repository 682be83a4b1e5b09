import { BatchWriteCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { keys } from './keys.ts';
import { chunk } from './items.ts';

/**
 * Text-search postings (item type `term`): `TERM#<ownerId>#<word>` / `<fileCreatedAt>#<assetId>`.
 * They are written before the asset they point at (so an asset never exists without them) and
 * never need deleting: a search checks every candidate against the asset itself, so a posting
 * whose asset is gone or no longer has that word is skipped.
 */
export const termKey = (ownerId: string, term: string): string => keys.term(ownerId, term, '', '').pk;

export interface Posting {
  assetId: string;
  fileCreatedAt: string;
  term: string;
}

/** The postings of one asset for some words. */
export const postingsOf = (asset: { id: string; fileCreatedAt: string }, terms: readonly string[]): Posting[] =>
  terms.map((term) => ({ assetId: asset.id, fileCreatedAt: asset.fileCreatedAt, term }));

/** Idempotent puts, 25 a BatchWriteItem call, unprocessed ones retried. */
export const writePostings = async (ownerId: string, postings: readonly Posting[]): Promise<void> => {
  for (const part of chunk(postings, 25)) {
    let requests: NonNullable<BatchWriteCommandInput['RequestItems']>[string] = part.map((posting) => ({
      PutRequest: { Item: { ...keys.term(ownerId, posting.term, posting.fileCreatedAt, posting.assetId), type: 'term', assetId: posting.assetId } },
    }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt >= 8) throw new Error(`BatchWriteItem left ${requests.length} postings unprocessed`);
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 25 * 2 ** attempt)));
      const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
      requests = result.UnprocessedItems?.[tableName] ?? [];
    }
  }
};
