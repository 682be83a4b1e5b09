import * as v from 'valibot';
import type { AssetRecord } from './asset.ts';
import { AssetStatusSchema, seenByOthers } from './asset.ts';
import { id, instant, nullable } from './fields.ts';
import type { UserRecord } from './user.ts';

/** What a user an album is shared with may do (Immich v3's roles): add and remove assets (`editor`), or look (`viewer`). */
export const albumUserRoles = ['editor', 'viewer'] as const;
export type AlbumUserRole = (typeof albumUserRoles)[number];

/** A user to share an album with, and their role. */
export interface AlbumShare {
  userId: string;
  role: AlbumUserRole;
}

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
  /** Their roles where not `editor` (v1.100's shares, and shares made before roles, are editors). */
  userRoles: v.optional(v.record(v.string(), v.picklist(albumUserRoles)), {}),
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
export const AlbumUserSchema = v.object({
  albumId: id(),
  userId: id(),
  ownerId: id(),
  role: v.optional(v.picklist(albumUserRoles), 'editor'),
});
export type AlbumUser = v.InferOutput<typeof AlbumUserSchema>;

/** A new album, from either generation (v1.100's `sharedWithUserIds` are editors). */
export interface NewAlbum {
  albumName: string;
  description?: string | null | undefined;
  assetIds?: readonly string[] | null | undefined;
  albumUsers?: readonly AlbumShare[] | undefined;
}

/** A change of an album's own fields (PATCH /album/:id, PATCH /albums/:id); absent and null leave a field alone. */
export interface AlbumChanges {
  albumName?: string | null | undefined;
  description?: string | null | undefined;
  albumThumbnailAssetId?: string | null | undefined;
  isActivityEnabled?: boolean | null | undefined;
  order?: 'asc' | 'desc' | null | undefined;
}

/**
 * Which of the albums a user is in to list (Immich v3's `GetAlbumsDto`): `isOwned` theirs (true) or
 * shared with them (false), `isShared` shared with users or by a link, or not; `assetId` (ignoring
 * the rest) those holding that asset. v1.100's `shared` is one of these (docs/immich-compatibility.md).
 */
export interface AlbumFilter {
  assetId?: string | undefined;
  id?: string | undefined;
  name?: string | undefined;
  isOwned?: boolean | undefined;
  isShared?: boolean | undefined;
}

/** An album's roles with these shares' (an editor is the default, so only viewers are listed). */
export const rolesWith = (roles: AlbumRecord['userRoles'], shares: readonly AlbumShare[]): AlbumRecord['userRoles'] => {
  const next = { ...roles };
  for (const { userId, role } of shares) {
    if (role === 'editor') delete next[userId];
    else next[userId] = role;
  }
  return next;
};

/** A shared user's role on an album. */
export const roleOf = (album: Pick<AlbumRecord, 'userRoles'>, userId: string): AlbumUserRole => album.userRoles[userId] ?? 'editor';

/** What each id of a bulk request on an album or people came to (Immich's per-id answer). */
export interface BulkIdResult {
  id: string;
  success: boolean;
  error?: 'duplicate' | 'no_permission' | 'not_found' | 'unknown';
}

/** Immich's `updateThumbnails` choice: the newest untrashed entry, or null. */
export const newestLiveMember = (members: readonly AlbumMember[]): string | null =>
  members
    .filter(seenByOthers)
    .reduce<AlbumMember | undefined>(
      (newest, member) => (!newest || member.fileCreatedAt > newest.fileCreatedAt ? member : newest),
      undefined,
    )?.assetId ?? null;

/**
 * What an album's answers show of its entries (Immich's `assetCount`, `startDate`, `endDate`): the
 * entries others may see (neither trashed nor locked), and the earliest and latest of their dates:
 * `fileCreatedAt` (v1.100's), and the local date where known (v3's). Kept on the album's summary
 * item (docs/data-model.md, "Album summaries"); absent dates for an album with none.
 */
export const AlbumSummarySchema = v.object({
  assetCount: v.number(),
  startDate: v.optional(v.string()),
  endDate: v.optional(v.string()),
  localStartDate: v.optional(v.string()),
  localEndDate: v.optional(v.string()),
});
export type AlbumSummary = v.InferOutput<typeof AlbumSummarySchema>;

/** The summary of these entries (the computation the answers made from every entry before summaries were kept). */
export const summarize = (members: readonly AlbumMember[]): AlbumSummary => {
  let summary: AlbumSummary = { assetCount: 0 };
  for (const member of members) {
    if (!seenByOthers(member)) continue;
    const date = member.fileCreatedAt;
    const local = member.localDateTime ?? member.fileCreatedAt;
    summary = {
      assetCount: summary.assetCount + 1,
      startDate: summary.startDate === undefined || date < summary.startDate ? date : summary.startDate,
      endDate: summary.endDate === undefined || date > summary.endDate ? date : summary.endDate,
      localStartDate: summary.localStartDate === undefined || local < summary.localStartDate ? local : summary.localStartDate,
      localEndDate: summary.localEndDate === undefined || local > summary.localEndDate ? local : summary.localEndDate,
    };
  }
  return summary;
};

/** An album with what a view of it shows: its owner, the users it is shared with, its entries, and its assets when asked for. */
export interface AlbumView {
  album: AlbumRecord;
  owner: UserRecord;
  sharedUsers: readonly UserRecord[];
  members: readonly AlbumMember[];
  /** The album's live assets in its order, when the view carries them. */
  assets?: readonly AssetRecord[];
  /** Its summary when the view was read without its entries (a list of albums); else the entries' (`summarize`). */
  summary?: AlbumSummary;
}

/** A view's summary: the one it carries, else its entries'. */
export const summaryOfView = (view: Pick<AlbumView, 'members' | 'summary'>): AlbumSummary => view.summary ?? summarize(view.members);
