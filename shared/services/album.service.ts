import { randomUUID } from 'node:crypto';
import { allowedAssets, noAccess, Permission, requireAlbum } from '../access/access.ts';
import { Conflict, Invalid, NotFound } from '../core/errors.ts';
import {
  AlbumChangedError,
  addMembers,
  deleteAlbumItem,
  getAlbum,
  createAlbum as insertAlbum,
  listAlbumIdsOfAsset,
  listAlbums,
  listMembers,
  removeMembers,
  touchAlbum,
  updateAlbumFields,
} from '../db/album.repository.ts';
import { getAssets } from '../db/asset.repository.ts';
import { deleteSharedLink, getSharedLink, listSharedLinks } from '../db/shared-link.repository.ts';
import { getUser } from '../db/user.repository.ts';
import { type AlbumResponseDto, mapAlbum } from '../mappers/album.mapper.ts';
import { type AssetResponseDto, byFileCreatedAt, mapAsset } from '../mappers/asset.mapper.ts';
import type { AlbumMember, AlbumRecord, BulkIdResponseDto } from '../model/album.ts';
import { newestLiveMember } from '../model/album.ts';
import type { AssetRecord } from '../model/asset.ts';
import type { Auth, UserRecord } from '../model/user.ts';
import type { CreateAlbumInput, UpdateAlbumInput } from '../schemas/album.ts';

const owner = async (auth: Auth): Promise<UserRecord> => {
  const user = await getUser(auth.user.id);
  if (!user) throw new NotFound('User not found');
  return user;
};

/** An album's live (not trashed) assets, mapped with EXIF, in the album's order. */
export const albumAssets = async (auth: Auth, album: AlbumRecord, members: readonly AlbumMember[]): Promise<AssetResponseDto[]> => {
  const live = members.filter((member) => member.deletedAt === null).map((member) => member.assetId);
  const assets = (await getAssets(live)).filter((asset) => asset.deletedAt === null).sort(byFileCreatedAt(album.order));
  return assets.map((asset) => mapAsset(asset, { callerId: auth.user.id, withExif: true }));
};

/** POST /album: the caller's own assets among `assetIds` go in (others are left out, as in Immich). */
export const createAlbum = async (auth: Auth, dto: CreateAlbumInput): Promise<AlbumResponseDto> => {
  if (dto.sharedWithUserIds && dto.sharedWithUserIds.length > 0) throw new Invalid('Sharing albums with other users is not supported');
  const [user, assets] = await Promise.all([owner(auth), allowedAssets(auth, Permission.AssetShare, dto.assetIds ?? [])]);
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
    order: 'desc',
    sharedLinkCount: 0,
  };
  await insertAlbum(album, assets);
  const members = await listMembers(album.id);
  return mapAlbum(album, { owner: user, members, assets: await albumAssets(auth, album, members) });
};

/** GET /album: the caller's albums, newest first (`shared=true`: none, albums are not shared with users here). */
export const getAllAlbums = async (
  auth: Auth,
  query: { shared?: boolean | null; assetId?: string | null },
): Promise<AlbumResponseDto[]> => {
  if (query.shared === true) return [];
  let albums = await listAlbums(auth.user.id);
  if (query.assetId) {
    const ids = new Set(await listAlbumIdsOfAsset(query.assetId));
    albums = albums.filter((album) => ids.has(album.id));
  }
  const user = await owner(auth);
  const members = await Promise.all(albums.map((album) => listMembers(album.id)));
  return albums
    .map((album, index) => mapAlbum(album, { owner: user, members: members[index] ?? [] }))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
};

export interface AlbumCountResponseDto {
  owned: number;
  shared: number;
  notShared: number;
}

/**
 * GET /album/count, as Immich counts: the caller's albums, those shared (here: by a link; albums
 * shared with users do not exist yet) and those not. One Query of the caller's albums.
 */
export const getAlbumCount = async (auth: Auth): Promise<AlbumCountResponseDto> => {
  const albums = await listAlbums(auth.user.id);
  const shared = albums.filter((album) => album.sharedLinkCount > 0).length;
  return { owned: albums.length, shared, notShared: albums.length - shared };
};

/** GET /album/:id (with its assets unless `withoutAssets`). */
export const getAlbumInfo = async (auth: Auth, id: string, withoutAssets: boolean): Promise<AlbumResponseDto> => {
  const album = await requireAlbum(auth, Permission.AlbumRead, id);
  const [user, members] = await Promise.all([owner(auth), listMembers(album.id)]);
  return mapAlbum(album, { owner: user, members, assets: withoutAssets ? [] : await albumAssets(auth, album, members) });
};

/**
 * PATCH /album/:id (Immich's updateAlbumInfo): name, description, thumbnail (an asset in the
 * album, else 400 `Invalid album thumbnail`), activity, order; answered without assets.
 */
export const updateAlbumInfo = async (auth: Auth, id: string, dto: UpdateAlbumInput): Promise<AlbumResponseDto> => {
  const album = await requireAlbum(auth, Permission.AlbumUpdate, id);
  const fields: Partial<AlbumRecord> = { updatedAt: new Date().toISOString() };
  if (dto.albumName !== undefined && dto.albumName !== null) fields.albumName = dto.albumName;
  if (dto.description !== undefined && dto.description !== null) fields.description = dto.description;
  if (dto.albumThumbnailAssetId) fields.albumThumbnailAssetId = dto.albumThumbnailAssetId;
  if (dto.isActivityEnabled !== undefined && dto.isActivityEnabled !== null) fields.isActivityEnabled = dto.isActivityEnabled;
  if (dto.order) fields.order = dto.order;
  const members = await listMembers(album.id);
  if (dto.albumThumbnailAssetId && !members.some((member) => member.assetId === dto.albumThumbnailAssetId)) {
    throw new Invalid('Invalid album thumbnail');
  }
  try {
    await updateAlbumFields(album, fields);
  } catch (error) {
    if (!(error instanceof AlbumChangedError)) throw error;
    // Deleted meanwhile, or the thumbnail left the album meanwhile.
    if (!(await getAlbum(auth.user.id, album.id))) throw noAccess(Permission.AlbumUpdate);
    throw new Invalid('Invalid album thumbnail');
  }
  const user = await owner(auth);
  return mapAlbum({ ...album, ...fields }, { owner: user, members, assets: [] });
};

/**
 * DELETE /album/:id: the album, the shared links that show it (Immich's cascade) and its entries
 * (each asset's album count with it); the assets stay. The album item goes only while no link
 * points at it, so a link made meanwhile is found and deleted on the next round.
 */
export const deleteAlbum = async (auth: Auth, id: string): Promise<void> => {
  const album = await requireAlbum(auth, Permission.AlbumDelete, id);
  for (let round = 1; ; round++) {
    const links = (await listSharedLinks(auth.user.id)).filter((link) => link.albumId === album.id);
    for (const link of links) {
      // A link deleted meanwhile by another request is done already.
      await deleteSharedLink(link, []).catch(async (error: unknown) => {
        if (await getSharedLink(auth.user.id, link.id)) throw error;
      });
    }
    try {
      await deleteAlbumItem(album);
      break;
    } catch (error) {
      if (!(error instanceof AlbumChangedError)) throw error;
      // Deleted by a concurrent request: done. Otherwise a link was made meanwhile: again.
      if (!(await getAlbum(auth.user.id, album.id))) return;
      if (round >= 3) throw new Conflict('The album changed while it was being deleted; try again');
    }
  }
  // No request can add entries now (the album is gone); an add already under way may still land one.
  for (let round = 0; round < 3; round++) {
    const members = await listMembers(album.id);
    if (members.length === 0) break;
    await removeMembers(
      album,
      members.map((member) => member.assetId),
    );
  }
};

/** PUT /album/:id/assets: per id `success`, or `duplicate` (already in), or `no_permission` (not the caller's). */
export const addAssetsToAlbum = async (auth: Auth, id: string, ids: readonly string[]): Promise<BulkIdResponseDto[]> => {
  const album = await requireAlbum(auth, Permission.AlbumRead, id);
  const [members, allowed] = await Promise.all([listMembers(album.id), allowedAssets(auth, Permission.AssetShare, ids)]);
  const present = new Set(members.map((member) => member.assetId));
  const allowedById = new Map(allowed.map((asset) => [asset.id, asset]));
  const added: AssetRecord[] = [];
  const results = ids.map((assetId): BulkIdResponseDto => {
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
  const outcomes = new Map((await addMembers(album, added)).map((outcome, index) => [added[index]?.id, outcome]));
  const reported = results.map((result): BulkIdResponseDto => {
    const outcome = result.success ? outcomes.get(result.id) : undefined;
    if (outcome === 'member-condition') return { id: result.id, success: false, error: 'duplicate' };
    if (outcome === 'asset-missing') return { id: result.id, success: false, error: 'no_permission' };
    return result;
  });
  const first = added.find((asset) => outcomes.get(asset.id) === 'done');
  if (first) await touchAlbum(album, album.albumThumbnailAssetId ?? first.id, new Date().toISOString());
  return reported;
};

/** DELETE /album/:id/assets: per id `success`, or `not_found` (not in the album). */
export const removeAssetsFromAlbum = async (auth: Auth, id: string, ids: readonly string[]): Promise<BulkIdResponseDto[]> => {
  const album = await requireAlbum(auth, Permission.AlbumRead, id);
  const members = await listMembers(album.id);
  const present = new Set(members.map((member) => member.assetId));
  const results = ids.map((assetId): BulkIdResponseDto => {
    if (!present.has(assetId)) return { id: assetId, success: false, error: 'not_found' };
    present.delete(assetId);
    return { id: assetId, success: true };
  });
  const removing = results.filter((result) => result.success).map((result) => result.id);
  if (removing.length === 0) return results;
  // A concurrent request may remove the same entry first: then it was not found here.
  const outcomes = new Map((await removeMembers(album, removing)).map((outcome, index) => [removing[index], outcome]));
  const reported = results.map((result): BulkIdResponseDto => {
    const outcome = result.success ? outcomes.get(result.id) : undefined;
    return outcome === 'member-condition' || outcome === 'asset-missing' ? { id: result.id, success: false, error: 'not_found' } : result;
  });
  const removed = reported.filter((result) => result.success).map((result) => result.id);
  if (removed.length > 0) {
    // Immich's updateThumbnails: a removed thumbnail is replaced by the newest remaining asset.
    let thumbnail = album.albumThumbnailAssetId;
    if (thumbnail && removed.includes(thumbnail)) {
      thumbnail = newestLiveMember(members.filter((member) => !removed.includes(member.assetId)));
    }
    await touchAlbum(album, thumbnail, new Date().toISOString());
  }
  return reported;
};
