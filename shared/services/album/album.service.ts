import { randomUUID } from 'node:crypto';
import { allowedAlbumEditors, requireAlbum, requireAlbumEditor } from '../../access/album-access.ts';
import { allowedAssets } from '../../access/asset-access.ts';
import { accessLost, Permission } from '../../access/permission.ts';
import { Conflict, Inaccessible, Invalid } from '../../core/errors.ts';
import * as activityRepo from '../../db/activity.repository.ts';
import * as albumRepo from '../../db/album.repository.ts';
import * as assetRepo from '../../db/asset.repository.ts';
import * as sharedLinkRepo from '../../db/shared-link.repository.ts';
import * as userRepo from '../../db/user.repository.ts';
import { preferencesOf } from '../../domain/preferences.ts';
import type {
  AlbumChanges,
  AlbumFilter,
  AlbumMember,
  AlbumRecord,
  AlbumSummary,
  AlbumView,
  BulkIdResult,
  NewAlbum,
} from '../../model/album.ts';
import { newestLiveMember } from '../../model/album.ts';
import type { AssetRecord } from '../../model/asset.ts';
import { byFileCreatedAt, seenByOthers } from '../../model/asset.ts';
import type { Auth, UserRecord } from '../../model/user.ts';
import { raise } from '../../realtime/outbox.ts';
import { notifyAlbumInvite, notifyAlbumUpdate } from '../notification.service.ts';

/** A write that needed the album as read lost to another request's change: the client may retry. */
export const albumChanged = (): Conflict => new Conflict('The album was changed by another request; try again');

const owner = async (auth: Auth): Promise<UserRecord> => {
  const user = await userRepo.get(auth.user.id);
  if (!user) throw new Inaccessible('User not found');
  return user;
};

/** The album's owner and the users it is shared with, as its response shows them. */
export const usersOf = async (album: AlbumRecord): Promise<{ owner: UserRecord; sharedUsers: UserRecord[] }> => {
  const users = await userRepo.getMany([album.ownerId, ...album.sharedUserIds]);
  const found = users.find((user) => user.id === album.ownerId);
  if (!found) throw new Inaccessible('User not found');
  return { owner: found, sharedUsers: users.filter((user) => user.id !== album.ownerId) };
};

/** Each album's owner and shared users, read once for all of them. */
const usersOfAll = async (albums: readonly AlbumRecord[]) => {
  const users = new Map(
    (await userRepo.getMany(albums.flatMap((album) => [album.ownerId, ...album.sharedUserIds]))).map((user) => [user.id, user]),
  );
  return (album: AlbumRecord) => {
    const found = users.get(album.ownerId);
    if (!found) throw new Inaccessible('User not found');
    return { owner: found, sharedUsers: album.sharedUserIds.flatMap((id) => users.get(id) ?? []) };
  };
};

/** The users to share with, in the order asked: each an existing, active user other than the owner (Immich's messages). */
export const sharingTargets = async (
  album: Pick<AlbumRecord, 'ownerId' | 'sharedUserIds'>,
  userIds: readonly string[],
): Promise<UserRecord[]> => {
  const wanted = [...new Set(userIds)];
  const found = (await userRepo.getMany(wanted)).filter((user) => user.deletedAt === null);
  for (const userId of wanted) {
    if (userId === album.ownerId) throw new Invalid('Cannot be shared with owner');
    if (album.sharedUserIds.includes(userId)) throw new Invalid('User already added');
    if (!found.some((user) => user.id === userId)) throw new Invalid('User not found');
  }
  return found;
};

/** An album's live (not trashed) assets, in the album's order. */
const albumAssets = async (album: AlbumRecord, members: readonly AlbumMember[]): Promise<AssetRecord[]> => {
  const live = members.filter(seenByOthers).map((member) => member.assetId);
  return (await assetRepo.getMany(live)).filter(seenByOthers).sort(byFileCreatedAt(album.order));
};

/**
 * POST /album and POST /albums: the caller's own assets among `assetIds` go in (others are left
 * out, as in Immich), shared with `albumUsers` in their roles, in the order the owner's
 * preferences choose (v3's `albums.defaultAssetOrder`, newest first unless changed).
 */
export const createAlbum = async (auth: Auth, dto: NewAlbum): Promise<AlbumView> => {
  const shares = dto.albumUsers ?? [];
  const [user, assets, sharedUsers] = await Promise.all([
    owner(auth),
    allowedAssets(auth, Permission.AssetShare, dto.assetIds ?? []),
    sharingTargets(
      { ownerId: auth.user.id, sharedUserIds: [] },
      shares.map((share) => share.userId),
    ),
  ]);
  const now = new Date().toISOString();
  const album: AlbumRecord = {
    id: randomUUID(),
    ownerId: auth.user.id,
    albumName: dto.albumName,
    description: dto.description ?? '',
    albumThumbnailAssetId: assets[0]?.id ?? null,
    createdAt: now,
    updatedAt: now,
    isActivityEnabled: true,
    order: preferencesOf(user).albums.defaultAssetOrder,
    sharedLinkCount: 0,
    sharedUserIds: sharedUsers.map((shared) => shared.id),
    userRoles: Object.fromEntries(shares.filter((share) => share.role !== 'editor').map((share) => [share.userId, share.role])),
  };
  await albumRepo.create(album, assets);
  await notifyAlbumInvite(album, album.sharedUserIds, user.name);
  const members = await albumRepo.listMembers(album.id);
  return { album, owner: user, sharedUsers, members, assets: await albumAssets(album, members) };
};

/**
 * GET /album and GET /albums (Immich v3's `getAll`): the albums the caller is in, theirs and those
 * shared with them, filtered (`AlbumFilter`); `assetId` alone: those holding that asset. Newest
 * first. Albums shared with the caller are read only when the filter can keep them.
 */
export const getAllAlbums = async (auth: Auth, filter: AlbumFilter): Promise<AlbumView[]> => {
  const own = filter.isOwned === false && !filter.assetId ? [] : await albumRepo.list(auth.user.id);
  const sharedWithMe = filter.isOwned === true && !filter.assetId ? [] : await albumRepo.listSharedWith(auth.user.id);
  let albums: AlbumRecord[];
  if (filter.assetId) {
    const ids = new Set(await albumRepo.listIdsOfAsset(filter.assetId));
    albums = [...own, ...sharedWithMe].filter((album) => ids.has(album.id));
  } else {
    albums = [...own, ...sharedWithMe].filter(
      (album) =>
        (filter.isShared === undefined || isShared(album) === filter.isShared) &&
        (filter.id === undefined || album.id === filter.id) &&
        (filter.name === undefined || album.albumName === filter.name),
    );
  }
  const [usersFor, summaries] = await Promise.all([usersOfAll(albums), albumSummaries(albums)]);
  return albums
    .map((album, index) => ({ album, ...usersFor(album), members: [], summary: summaries[index] ?? { assetCount: 0 } }))
    .sort((a, b) => b.album.createdAt.localeCompare(a.album.createdAt) || a.album.id.localeCompare(b.album.id));
};

/**
 * Each album's summary (its assets' count and dates): the summary items read at once (BatchGetItem),
 * and only the albums changed since their summary was kept read their entries again
 * (docs/data-model.md, "Album summaries"). Not one Query per album, as reading every entry was.
 */
const albumSummaries = async (albums: readonly AlbumRecord[]): Promise<AlbumSummary[]> => {
  const items = await albumRepo.summaryItems(albums.map((album) => album.id));
  return Promise.all(albums.map((album) => albumRepo.summaryOf(album.id, items.get(album.id))));
};

/** Shared with users or by a link (Immich's `shared`). */
const isShared = (album: AlbumRecord): boolean => album.sharedLinkCount > 0 || album.sharedUserIds.length > 0;

/** The caller's albums counted as Immich counts them. */
export interface AlbumCounts {
  owned: number;
  shared: number;
  notShared: number;
}

/**
 * GET /album/count, as Immich counts: the caller's albums; the shared ones (theirs shared with
 * users or by a link, and those others share with them: Immich's getShared); theirs not shared.
 */
export const getAlbumCount = async (auth: Auth): Promise<AlbumCounts> => {
  const [albums, sharedWithMe] = await Promise.all([albumRepo.list(auth.user.id), albumRepo.listIdsSharedWith(auth.user.id)]);
  const shared = albums.filter(isShared).length;
  return { owned: albums.length, shared: shared + sharedWithMe.length, notShared: albums.length - shared };
};

/** GET /album/:id (with its assets unless `withoutAssets`). */
export const getAlbumInfo = async (auth: Auth, id: string, withoutAssets: boolean): Promise<AlbumView> => {
  const album = await requireAlbum(auth, Permission.AlbumRead, id);
  const [users, members] = await Promise.all([usersOf(album), albumRepo.listMembers(album.id)]);
  return { album, ...users, members, ...(withoutAssets ? {} : { assets: await albumAssets(album, members) }) };
};

/**
 * PATCH /album/:id (Immich's updateAlbumInfo): name, description, thumbnail (an asset in the
 * album, else 400 `Invalid album thumbnail`), activity, order; answered without assets.
 */
export const updateAlbumInfo = async (auth: Auth, id: string, dto: AlbumChanges): Promise<AlbumView> => {
  const album = await requireAlbum(auth, Permission.AlbumUpdate, id);
  const fields: Partial<AlbumRecord> = { updatedAt: new Date().toISOString() };
  if (dto.albumName !== undefined && dto.albumName !== null) fields.albumName = dto.albumName;
  if (dto.description !== undefined && dto.description !== null) fields.description = dto.description;
  if (dto.albumThumbnailAssetId) fields.albumThumbnailAssetId = dto.albumThumbnailAssetId;
  if (dto.isActivityEnabled !== undefined && dto.isActivityEnabled !== null) fields.isActivityEnabled = dto.isActivityEnabled;
  if (dto.order) fields.order = dto.order;
  const members = await albumRepo.listMembers(album.id);
  if (dto.albumThumbnailAssetId && !members.some((member) => member.assetId === dto.albumThumbnailAssetId)) {
    throw new Invalid('Invalid album thumbnail');
  }
  const outcome = await albumRepo.updateFields(album, fields);
  if (!outcome.ok && outcome.reason === 'album-gone') throw accessLost(Permission.AlbumUpdate);
  if (!outcome.ok && outcome.reason === 'thumbnail-gone') throw new Invalid('Invalid album thumbnail');
  return { album: { ...album, ...fields }, ...(await usersOf(album)), members };
};

/**
 * DELETE /album/:id: the album, the shared links that show it (Immich's cascade) and its entries
 * (each asset's album count with it); the assets stay. The album item goes only while no link
 * points at it, so a link made meanwhile is found and deleted on the next round.
 */
export const deleteAlbum = async (auth: Auth, id: string): Promise<void> => {
  await removeAlbum(await requireAlbum(auth, Permission.AlbumDelete, id));
};

/** An album deleted as DELETE /album/:id deletes it (also a purged owner's: shared/services/user/purge.service.ts). */
export const removeAlbum = async (read: AlbumRecord): Promise<void> => {
  let album = read;
  for (let round = 1; ; round++) {
    const links = (await sharedLinkRepo.list(album.ownerId)).filter((link) => link.albumId === album.id);
    for (const link of links) {
      // A link deleted meanwhile by another request (`gone`) is done already.
      await sharedLinkRepo.remove(link, []);
    }
    const outcome = await albumRepo.deleteItem(album);
    if (outcome.ok) break;
    // Deleted by a concurrent request: done. Otherwise a link was made or a user added meanwhile: read it again.
    if (outcome.reason === 'gone') return;
    if (round >= 3) throw new Conflict('The album changed while it was being deleted; try again');
    const again = await albumRepo.get(album.ownerId, album.id);
    if (!again) return;
    album = again;
  }
  // No request can add entries now (the album is gone); an add already under way may still land one.
  for (let round = 0; round < 3; round++) {
    const members = await albumRepo.listMembers(album.id);
    if (members.length === 0) break;
    await albumRepo.removeMembers(
      album,
      members.map((member) => member.assetId),
      { albumGone: true },
    );
  }
  // The users it was shared with no longer see it; its likes and comments go with it.
  await albumRepo.removeUsers(album);
  await albumRepo.removeSummary(album.id);
  await activityRepo.deleteAlbumActivities(album.id);
};

/** PUT /album/:id/assets: per id `success`, or `duplicate` (already in), or `no_permission` (not the caller's). */
export const addAssetsToAlbum = async (auth: Auth, id: string, ids: readonly string[]): Promise<BulkIdResult[]> => {
  const album = await requireAlbumEditor(auth, Permission.AlbumAssetCreate, id);
  return addAllowedAssets(auth, album, ids, allowedAssets(auth, Permission.AssetShare, ids));
};

/**
 * Adds to an album the caller may add to the assets of `ids` they may share (`allowed`, read
 * beside the album's entries), reporting each id; the album's other users are told (Immich's
 * `AlbumUpdate` notification).
 */
const addAllowedAssets = async (
  auth: Auth,
  album: AlbumRecord,
  ids: readonly string[],
  allowedAssetsOf: Promise<AssetRecord[]> | readonly AssetRecord[],
): Promise<BulkIdResult[]> => {
  const [members, allowed] = await Promise.all([albumRepo.listMembers(album.id), allowedAssetsOf]);
  const present = new Set(members.map((member) => member.assetId));
  const allowedById = new Map(allowed.map((asset) => [asset.id, asset]));
  const added: AssetRecord[] = [];
  const results = ids.map((assetId): BulkIdResult => {
    if (present.has(assetId)) return { id: assetId, success: false, error: 'duplicate' };
    const asset = allowedById.get(assetId);
    if (!asset) return { id: assetId, success: false, error: 'no_permission' };
    present.add(assetId);
    added.push(asset);
    return { id: assetId, success: true };
  });
  if (added.length === 0) return results;
  // A concurrent request may add the same asset first (then it is a duplicate here), or delete it
  // (then it is no longer the caller's to add): each id reports what happened to it.
  const outcomes = new Map((await albumRepo.addMembers(album, added)).map((outcome, index) => [added[index]?.id, outcome]));
  const reported = results.map((result): BulkIdResult => {
    const outcome = result.success ? outcomes.get(result.id) : undefined;
    if (outcome?.ok !== false) return result;
    return { id: result.id, success: false, error: outcome.reason === 'member-condition' ? 'duplicate' : 'no_permission' };
  });
  const first = added.find((asset) => outcomes.get(asset.id)?.ok);
  if (first) {
    await albumRepo.touch(album, album.albumThumbnailAssetId ?? first.id, new Date().toISOString());
    albumAssetsChanged(album);
    await notifyAlbumUpdate(album, auth.user.id);
  }
  return reported;
};

/**
 * Every member's apps, its owner's too, are told the album's assets changed (`on_album_update`),
 * as Immich tells them when assets were added or removed (not for its name, users or roles).
 */
const albumAssetsChanged = (album: AlbumRecord): void =>
  raise({ kind: 'album-changed', albumId: album.id, userIds: [album.ownerId, ...album.sharedUserIds] });

/**
 * DELETE /album/:id/assets: per id `success`, `not_found` (not in the album) or `no_permission`.
 * As Immich: whoever may read the album removes the assets they may share (their own, a
 * partner's), the owner too; someone else's asset stays (Immich's e2e cases).
 */
export const removeAssetsFromAlbum = async (auth: Auth, id: string, ids: readonly string[]): Promise<BulkIdResult[]> => {
  const album = await requireAlbumEditor(auth, Permission.AlbumAssetDelete, id);
  const members = await albumRepo.listMembers(album.id);
  const present = new Set(members.map((member) => member.assetId));
  const own = new Set((await allowedAssets(auth, Permission.AssetShare, ids)).map((a) => a.id));
  const results = ids.map((assetId): BulkIdResult => {
    if (!present.has(assetId)) return { id: assetId, success: false, error: 'not_found' };
    if (!own.has(assetId)) return { id: assetId, success: false, error: 'no_permission' };
    present.delete(assetId);
    return { id: assetId, success: true };
  });
  const removing = results.filter((result) => result.success).map((result) => result.id);
  if (removing.length === 0) return results;
  // A concurrent request may remove the same entry first: then it was not found here.
  const outcomes = new Map((await albumRepo.removeMembers(album, removing)).map((outcome, index) => [removing[index], outcome]));
  const reported = results.map((result): BulkIdResult => {
    const outcome = result.success ? outcomes.get(result.id) : undefined;
    return outcome?.ok === false ? { id: result.id, success: false, error: 'not_found' } : result;
  });
  const removed = reported.filter((result) => result.success).map((result) => result.id);
  if (removed.length > 0) {
    // Immich's updateThumbnails: a removed thumbnail is replaced by the newest remaining asset.
    let thumbnail = album.albumThumbnailAssetId;
    if (thumbnail && removed.includes(thumbnail)) {
      thumbnail = newestLiveMember(members.filter((member) => !removed.includes(member.assetId)));
    }
    await albumRepo.touch(album, thumbnail, new Date().toISOString());
    albumAssetsChanged(album);
  }
  return reported;
};

/**
 * PUT /albums/assets (v3): the caller's shareable assets into each album they may add to, as
 * Immich answers: `success` once any album got any, else `no_permission` (no album or asset
 * allowed) or `duplicate` (all already in).
 */
export const addAssetsToAlbums = async (
  auth: Auth,
  albumIds: readonly string[],
  assetIds: readonly string[],
): Promise<{ success: boolean; error?: BulkIdResult['error'] }> => {
  // An album the caller may not add to is left out, as Immich's checkAccess leaves it; they are
  // checked 100 a read, never one read per id (docs/api.md, "Limits").
  const allowed = await allowedAlbumEditors(auth, albumIds);
  if (allowed.length === 0) return { success: false, error: 'no_permission' };
  // The assets are checked once for every album.
  const assets = await allowedAssets(auth, Permission.AssetShare, assetIds);
  if (assets.length === 0) return { success: false, error: 'no_permission' };
  let success = false;
  for (const album of allowed) {
    const results = await addAllowedAssets(auth, album, assetIds, assets);
    success ||= results.some((result) => result.success);
  }
  return success ? { success } : { success, error: 'duplicate' };
};
