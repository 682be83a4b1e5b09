import type { AlbumMember } from '../model/album.ts';

/** Immich's `updateThumbnails` choice: the newest untrashed entry, or null. */
export const newestLiveMember = (members: readonly AlbumMember[]): string | null =>
  members
    .filter((member) => member.deletedAt === null)
    .reduce<AlbumMember | undefined>(
      (newest, member) => (!newest || member.fileCreatedAt > newest.fileCreatedAt ? member : newest),
      undefined,
    )?.assetId ?? null;
