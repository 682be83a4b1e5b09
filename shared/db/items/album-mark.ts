import { newChangeId } from '../changes.ts';
import { keys } from '../keys.ts';
import { updateWrite, type Write } from '../transact.ts';

/**
 * Moves an album's change marker (`contentId` on its summary item: docs/data-model.md, "Album
 * summaries"), in every transaction that writes the album's entries or users (or their deletions),
 * built after them so its change id is later than theirs: a summary computed before is no longer
 * current, and the sync stream reads the album again. An upsert with no condition, so it never
 * fails a transaction: a write of a deleted album's entries leaves an item no one reads. On its
 * own, without the album model, for the asset functions that move assets out of albums.
 */
export const markAlbum = (albumId: string): Write =>
  updateWrite(keys.albumSummary(albumId), 'SET contentId = :id', { values: { ':id': newChangeId() } });
