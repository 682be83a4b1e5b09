/** What both generations answer alike of albums: the counts, and the per-id outcome of a bulk change. */
import type { BulkIdResult } from '../../model/album.ts';

/** `AlbumCountResponseDto` (v3's `AlbumStatisticsResponseDto`, the same fields). */
export interface AlbumCountResponseDto {
  owned: number;
  shared: number;
  notShared: number;
}

/** `BulkIdResponseDto`: the per-id outcome, as the model records it. */
export type BulkIdResponseDto = BulkIdResult;
