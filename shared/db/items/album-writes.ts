import { type AlbumRecord, type AlbumShare, type AlbumSummary, rolesWith } from '../../model/album.ts';
import type { AssetRecord } from '../../model/asset.ts';
import { newChangeId } from '../changes.ts';
import * as indexKeys from '../index-keys.ts';
import * as keys from '../item-keys.ts';
import { checkWrite, deleteWrite, putWrite, setFields, updateWrite, type Write } from '../transact.ts';
import { memberItem } from './album.ts';
import { type AlbumMarkers, albumMarkerScopes, markAlbum, markerAttribute } from './album-mark.ts';
import * as assetWrites from './asset-writes.ts';
import * as deletionWrites from './deletion-writes.ts';

/** The albumWrites of ./album.ts (one export each: imported as a namespace, so a bundle carries only those used). */
/** Moves the album's change marker (./album-mark.ts). */
export const mark = markAlbum;
/**
 * Keeps a summary computed from the album's entries read after `seen` (its marker then, or none
 * for an album never marked: then it is marked now), only while the marker is still that; with
 * the sync markers read with it, for an album that had none (from before markers).
 */
export const keepSummary = (
  albumId: string,
  summary: AlbumSummary,
  seen: string | undefined,
  markers: AlbumMarkers = {},
): Write<'changed'> => {
  const at = seen ?? newChangeId();
  const scopes = albumMarkerScopes.filter((scope) => markers[scope] !== undefined);
  const sets = [
    ...(seen === undefined ? ['contentId = :at'] : []),
    'summaryId = :at',
    'summary = :summary',
    ...scopes.map((scope) => `${markerAttribute(scope)} = :${scope}`),
  ];
  return updateWrite(keys.albumSummary(albumId), `SET ${sets.join(', ')}`, {
    condition: seen === undefined ? 'attribute_not_exists(contentId)' : 'contentId = :at',
    values: { ':at': at, ':summary': summary, ...Object.fromEntries(scopes.map((scope) => [`:${scope}`, markers[scope]])) },
    refusal: 'changed',
  });
};

export const create = (album: AlbumRecord): Write =>
  putWrite({ ...keys.album(album.ownerId, album.id), type: 'album', ...album }, { condition: 'absent' });
/** An entry and its asset's album count, written together: the entry must be new. */
export const join = (albumId: string, asset: AssetRecord, addedAt: string): Write[] => [
  putWrite(memberItem(albumId, asset, addedAt), { condition: 'absent' }),
  assetWrites.addAlbumCount(asset.id, 1),
];
/**
 * The reverse of `join`: the entry must exist. Its deletion is recorded for the album's users'
 * sync, unless the album itself is gone (`albumGone`: its deletion is what they get, as Immich's).
 */
export const leave = (albumId: string, assetId: string, options: { albumGone?: boolean } = {}): Write[] => [
  deleteWrite(keys.albumAsset(albumId, assetId), { condition: 'present', sync: options.albumGone ? 'with-parent' : 'recorded' }),
  assetWrites.addAlbumCount(assetId, -1),
  ...(options.albumGone ? [] : [deletionWrites.albumAsset(albumId, assetId)]),
];
/** One more (or one fewer) ALBUM shared link pointing at the album (Immich's `hasSharedLink`; not in the sync stream's album: it keeps its change id). */
export const addLinkCount = (ownerId: string, albumId: string, delta: 1 | -1): Write =>
  updateWrite(keys.album(ownerId, albumId), 'ADD sharedLinkCount :delta', {
    condition: 'present',
    values: { ':delta': delta },
    sync: 'unsent',
  });
/** Fields of the album itself (PATCH /album/:id), with `updatedAt`. */
export const set = (album: AlbumRecord, fields: Partial<AlbumRecord>): Write => {
  const { expression, names, values } = setFields(fields);
  return updateWrite(keys.album(album.ownerId, album.id), expression, { condition: 'present', names, values });
};
/** The thumbnail and `updatedAt`, after its assets changed. */
export const touch = (album: AlbumRecord, thumbnailId: string | null, now: string): Write =>
  updateWrite(keys.album(album.ownerId, album.id), 'SET albumThumbnailAssetId = :thumbnail, updatedAt = :now', {
    condition: 'present',
    values: { ':thumbnail': thumbnailId, ':now': now },
  });
/**
 * The thumbnail moved off an asset deleted for good (to `thumbnailId`, or none), in the asset's
 * deleting transaction, only while the album still shows it: a change meanwhile cancels the whole.
 */
export const replaceThumbnail = (album: AlbumRecord, goneId: string, thumbnailId: string | null, now: string): Write =>
  updateWrite(keys.album(album.ownerId, album.id), 'SET albumThumbnailAssetId = :thumbnail, updatedAt = :now', {
    condition: 'albumThumbnailAssetId = :gone',
    values: { ':thumbnail': thumbnailId, ':now': now, ':gone': goneId },
  });
/**
 * A check, in an asset's deleting transaction, that the album (gone, or) does not show the asset
 * as its thumbnail: an add that set it meanwhile cancels the delete, which reads it again.
 */
export const notShowing = (ownerId: string, albumId: string, goneId: string): Write =>
  checkWrite(keys.album(ownerId, albumId), {
    condition: 'attribute_not_exists(pk) OR attribute_not_exists(albumThumbnailAssetId) OR albumThumbnailAssetId <> :gone',
    values: { ':gone': goneId },
  });
/**
 * Shares the album with users: the album's list and their roles (only while the album is as
 * read) and each user's item; `changed` when the album changed (or went) meanwhile.
 */
export const shareWith = (album: AlbumRecord, shares: readonly AlbumShare[], now: string): Write<'changed'>[] => [
  updateWrite(keys.album(album.ownerId, album.id), 'SET sharedUserIds = :users, userRoles = :roles, updatedAt = :now', {
    condition: 'updatedAt = :was',
    values: {
      ':users': [...album.sharedUserIds, ...shares.map((share) => share.userId)],
      ':roles': rolesWith(album.userRoles, shares),
      ':now': now,
      ':was': album.updatedAt,
    },
    refusal: 'changed',
  }),
  ...shares.map(({ userId, role }) =>
    putWrite(
      {
        ...keys.albumUser(album.id, userId),
        ...indexKeys.albumsSharedWith(userId, album.id),
        type: 'albumUser',
        albumId: album.id,
        userId,
        ownerId: album.ownerId,
        role,
      },
      { condition: 'absent', refusal: 'changed' },
    ),
  ),
];
/** The reverse, for one user. */
export const unshareWith = (album: AlbumRecord, userId: string, now: string): Write<'changed'>[] => [
  updateWrite(keys.album(album.ownerId, album.id), 'SET sharedUserIds = :users, userRoles = :roles, updatedAt = :now', {
    condition: 'updatedAt = :was',
    values: {
      ':users': album.sharedUserIds.filter((id) => id !== userId),
      ':roles': Object.fromEntries(Object.entries(album.userRoles).filter(([id]) => id !== userId)),
      ':now': now,
      ':was': album.updatedAt,
    },
    refusal: 'changed',
  }),
  deleteWrite(keys.albumUser(album.id, userId), {
    condition: 'present',
    sync: 'recorded',
    refusal: 'changed',
  }),
  // The album's other users lose a user; the user loses the album.
  deletionWrites.albumUser(album.id, userId),
  deletionWrites.albumGone(userId, album.id),
];
/** A shared user's new role: on the album (only while it is as read) and on their item. */
export const setRole = (album: AlbumRecord, share: AlbumShare, now: string): Write<'changed'>[] => [
  updateWrite(keys.album(album.ownerId, album.id), 'SET userRoles = :roles, updatedAt = :now', {
    condition: 'updatedAt = :was',
    values: { ':roles': rolesWith(album.userRoles, [share]), ':now': now, ':was': album.updatedAt },
    refusal: 'changed',
  }),
  updateWrite(keys.albumUser(album.id, share.userId), 'SET #role = :role', {
    condition: 'present',
    names: { '#role': 'role' },
    values: { ':role': share.role },
    refusal: 'changed',
  }),
];
