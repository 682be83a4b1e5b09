import * as v from 'valibot';
import { AssetStatusSchema } from './asset.ts';
import { id, instant, nullable } from './fields.ts';

/** An album, under its owner. */
export const AlbumRecordSchema = v.object({
  id: id(),
  ownerId: id(),
  albumName: v.string(),
  description: v.string(),
  albumThumbnailAssetId: nullable(id()),
  createdAt: instant(),
  updatedAt: instant(),
  isActivityEnabled: v.boolean(),
  order: v.picklist(['asc', 'desc']),
  /** ALBUM shared links pointing at it (Immich's `hasSharedLink`). */
  sharedLinkCount: v.optional(v.number(), 0),
});
export type AlbumRecord = v.InferOutput<typeof AlbumRecordSchema>;

/** An asset's entry in an album, with the asset's status copied. */
export const AlbumMemberSchema = v.object({
  albumId: id(),
  assetId: id(),
  addedAt: instant(),
  ...AssetStatusSchema.entries,
});
export type AlbumMember = v.InferOutput<typeof AlbumMemberSchema>;

/** Immich's per-id answer of the album asset routes. */
export interface BulkIdResponseDto {
  id: string;
  success: boolean;
  error?: 'duplicate' | 'no_permission' | 'not_found';
}

/** Immich's `updateThumbnails` choice: the newest untrashed entry, or null. */
export const newestLiveMember = (members: readonly AlbumMember[]): string | null =>
  members
    .filter((member) => member.deletedAt === null)
    .reduce<AlbumMember | undefined>(
      (newest, member) => (!newest || member.fileCreatedAt > newest.fileCreatedAt ? member : newest),
      undefined,
    )?.assetId ?? null;
