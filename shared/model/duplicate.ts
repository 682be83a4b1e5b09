/**
 * Duplicate groups as the service answers them (docs/immich-compatibility.md, "Duplicates").
 */
import type { AssetRecord } from './asset.ts';
import type { TagRecord } from './tag.ts';

/** A group listed: its assets as Immich's GET lists them (not trashed, not stacked), oldest taken first. */
export interface DuplicateView {
  duplicateId: string;
  assets: AssetRecord[];
  tags: Map<string, TagRecord[]>;
}

export interface ResolveGroup {
  duplicateId: string;
  keepAssetIds: string[];
  trashAssetIds: string[];
}

/** Immich's per-group answer (`BulkIdResponseDto` with v3's reasons and message). */
export interface ResolveResult {
  id: string;
  success: boolean;
  error?: 'not_found' | 'validation' | 'no_permission' | 'unknown';
  errorMessage?: string;
}
