import * as v from 'valibot';
import type { AssetRecord } from './asset.ts';
import { AssetStatusSchema } from './asset.ts';
import { id, instant, nullable } from './fields.ts';
import type { UserRecord } from './user.ts';

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
  /** The users it is shared with (Immich's `sharedUsers`), each also an albumUser item. */
  sharedUserIds: v.optional(v.array(id()), []),
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

/** A user an album is shared with, in the album's partition (and under the user, gsi2). */
export const AlbumUserSchema = v.object({ albumId: id(), userId: id(), ownerId: id() });
export type AlbumUser = v.InferOutput<typeof AlbumUserSchema>;

/** What each id of a bulk request on an album or people came to (Immich's per-id answer). */
export interface BulkIdResult {
  id: string;
  success: boolean;
  error?: 'duplicate' | 'no_permission' | 'not_found' | 'unknown';
}

/** Immich's `updateThumbnails` choice: the newest untrashed entry, or null. */
export const newestLiveMember = (members: readonly AlbumMember[]): string | null =>
  members
    .filter((member) => member.deletedAt === null)
    .reduce<AlbumMember | undefined>(
      (newest, member) => (!newest || member.fileCreatedAt > newest.fileCreatedAt ? member : newest),
      undefined,
    )?.assetId ?? null;

/** An album with what a view of it shows: its owner, the users it is shared with, its entries, and its assets when asked for. */
export interface AlbumView {
  album: AlbumRecord;
  owner: UserRecord;
  sharedUsers: readonly UserRecord[];
  members: readonly AlbumMember[];
  /** The album's live assets in its order, when the view carries them. */
  assets?: readonly AssetRecord[];
}
