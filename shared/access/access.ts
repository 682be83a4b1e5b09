/**
 * Who may do what to which ids: the one access module, as Immich's `AccessCore.requirePermission`.
 * Every service asks here; nothing else decides. A resource that is missing and one that is
 * someone else's get the same answer (Immich's 400 `Not found or no <permission> access`), so an
 * id never reveals whether it exists.
 *
 * Each check also returns what it read to decide (the album, the asset with its faces…), so that
 * the service does not read it again. The checks are separate functions, not one switch, so that
 * esbuild keeps in each function's bundle only the repositories its checks need.
 */
import { NotFound } from '../core/errors.ts';
import { albumsSharedWithAmong, getAlbum, getAlbumUser, listAlbumIdsOfAsset } from '../db/album.repository.ts';
import { getAssets, getAssetWithFaces } from '../db/asset.repository.ts';
import { getPartner, partnersAmong } from '../db/partner.repository.ts';
import { getPerson } from '../db/person.repository.ts';
import { assetsLinkShows, getSharedLink, linkShowsAsset } from '../db/shared-link.repository.ts';
import type { AlbumRecord } from '../model/album.ts';
import type { AssetRecord, AssetWithFaces } from '../model/asset.ts';
import type { PersonRecord } from '../model/person.ts';
import type { SharedLinkRecord } from '../model/shared-link.ts';
import type { Auth } from '../model/user.ts';
import { noAccess, Permission } from './permission.ts';

export { noAccess, Permission } from './permission.ts';

/** Owners may do everything to their own resources. */
const owns = (auth: Auth, ownerId: string): boolean => ownerId === auth.user.id;

/** What a user an album is shared with may do with it (Immich: read and download; the rest is the owner's). */
const sharedAlbumPermissions: readonly Permission[] = [Permission.AlbumRead, Permission.AlbumDownload];

/** An album the caller owns, or one shared with them for what sharing allows (Immich's album.read). */
export const requireAlbum = async (auth: Auth, permission: Permission, albumId: string): Promise<AlbumRecord> => {
  const album = await getAlbum(auth.user.id, albumId);
  if (album) return album;
  if (!auth.sharedLink && sharedAlbumPermissions.includes(permission)) {
    const share = await getAlbumUser(albumId, auth.user.id);
    const shared = share ? await getAlbum(share.ownerId, albumId) : undefined;
    if (shared) return shared;
  }
  throw noAccess(permission);
};

/** What seeing someone else's asset through a shared album allows (Immich's asset read, view and download). */
const sharedAssetPermissions: readonly Permission[] = [Permission.AssetRead, Permission.AssetView, Permission.AssetDownload];

/** Whether one of the albums the asset is in is shared with the caller. */
const seesThroughAlbum = async (auth: Auth, assetId: string): Promise<boolean> =>
  (await albumsSharedWithAmong(await listAlbumIdsOfAsset(assetId), auth.user.id)).length > 0;

/** What a partner's share allows with their assets (Immich: read, view, download, and share them into albums). */
const partnerAssetPermissions: readonly Permission[] = [...sharedAssetPermissions, Permission.AssetShare];

/** Whether `ownerId` shares their library with the caller (Immich's partner access). */
const isPartnerOf = async (auth: Auth, ownerId: string): Promise<boolean> => (await getPartner(ownerId, auth.user.id)) !== undefined;

/** The caller's asset with its faces, or one an album shared with them or a partner shows (for reading it). */
export const requireAsset = async (auth: Auth, permission: Permission, assetId: string): Promise<AssetWithFaces> => {
  if (auth.sharedLink) return (await requireSharedAsset(auth, permission, assetId)).found;
  const found = await getAssetWithFaces(assetId);
  if (!found) throw noAccess(permission);
  if (owns(auth, found.asset.ownerId)) return found;
  if (sharedAssetPermissions.includes(permission) && (await seesThroughAlbum(auth, assetId))) return found;
  if (partnerAssetPermissions.includes(permission) && (await isPartnerOf(auth, found.asset.ownerId))) return found;
  throw noAccess(permission);
};

/**
 * A timeline the caller may read (Immich's timeline.read): their own, or a partner's who shares
 * with them. Archived assets of someone else's timeline stay theirs (archive.read).
 */
export const requireTimeline = async (auth: Auth, userId: string, withArchived = false): Promise<void> => {
  if (auth.sharedLink) throw noAccess(Permission.TimelineRead);
  if (owns(auth, userId)) return;
  if (!(await isPartnerOf(auth, userId))) throw noAccess(Permission.TimelineRead);
  if (withArchived) throw noAccess(Permission.ArchiveRead);
};

/** What a shared-link visitor may do to the link's assets (Immich's shared-link access checks): see them; download them if the link allows. */
const visitorPermissions: readonly Permission[] = [Permission.AssetRead, Permission.AssetView, Permission.AssetDownload];

/**
 * An asset a shared-link visitor asks for: one the link shows (its own assets, or its album's),
 * with the permission the link gives (`asset.download` only with `allowDownload`). Also returns
 * the link, for what else it decides (whether the original may be served).
 */
export const requireSharedAsset = async (
  auth: Auth,
  permission: Permission,
  assetId: string,
): Promise<{ found: AssetWithFaces; link: SharedLinkRecord }> => {
  const visit = auth.sharedLink;
  if (!visit || !visitorPermissions.includes(permission)) throw noAccess(permission);
  const [link, found] = await Promise.all([getSharedLink(auth.user.id, visit.id), getAssetWithFaces(assetId)]);
  if (!link || !found || found.asset.ownerId !== link.userId) throw noAccess(permission);
  if (permission === Permission.AssetDownload && !link.allowDownload) throw noAccess(permission);
  if (!(await linkShowsAsset(link, assetId))) throw noAccess(permission);
  return { found, link };
};

/**
 * The allowed ones among `assetIds` (trashed ones included, as Immich's checks do), in the order
 * asked: the caller's own; for sharing into an album also their partners'; for reading, viewing
 * and downloading also those a partner or an album shared with them shows.
 */
export const allowedAssets = async (auth: Auth, permission: Permission, assetIds: readonly string[]): Promise<AssetRecord[]> => {
  const assets = await getAssets(assetIds);
  const others = assets.filter((asset) => !owns(auth, asset.ownerId));
  if (others.length === 0 || !partnerAssetPermissions.includes(permission)) return assets.filter((asset) => owns(auth, asset.ownerId));
  const partners = new Set(
    (await partnersAmong([...new Set(others.map((asset) => asset.ownerId))], auth.user.id)).map((p) => p.sharedById),
  );
  const throughAlbums = new Set<string>();
  if (sharedAssetPermissions.includes(permission)) {
    for (const asset of others.filter((each) => !partners.has(each.ownerId))) {
      if (await seesThroughAlbum(auth, asset.id)) throughAlbums.add(asset.id);
    }
  }
  return assets.filter((asset) => owns(auth, asset.ownerId) || partners.has(asset.ownerId) || throughAlbums.has(asset.id));
};

/**
 * What a shared-link visitor may download (Immich's `asset.download` and `album.download` for
 * links): only with `allowDownload`, only what the link shows — every one of `assetIds`, or the
 * link's own album. Returns the assets, or the album's id checked.
 */
export const requireLinkDownload = async (
  auth: Auth,
  request: { assetIds: readonly string[] } | { albumId: string },
): Promise<{ assets: AssetRecord[]; link: SharedLinkRecord }> => {
  const visit = auth.sharedLink;
  const link = visit ? await getSharedLink(auth.user.id, visit.id) : undefined;
  if ('albumId' in request) {
    if (!link?.allowDownload || link.albumId !== request.albumId) throw noAccess(Permission.AlbumDownload);
    return { assets: [], link };
  }
  if (!link?.allowDownload) throw noAccess(Permission.AssetDownload);
  const unique = [...new Set(request.assetIds)];
  const shown = await assetsLinkShows(link, unique);
  const assets = (await getAssets(unique)).filter((asset) => shown.has(asset.id) && asset.ownerId === link.userId);
  if (assets.length !== unique.length) throw noAccess(Permission.AssetDownload);
  return { assets, link };
};

/** Every one of `assetIds` (duplicates ignored), or nothing: one id not allowed refuses them all. */
export const requireAssets = async (auth: Auth, permission: Permission, assetIds: readonly string[]): Promise<AssetRecord[]> => {
  const unique = [...new Set(assetIds)];
  const allowed = await allowedAssets(auth, permission, unique);
  if (allowed.length !== unique.length) throw noAccess(permission);
  return allowed;
};

/** The caller's person. */
export const requirePerson = async (auth: Auth, permission: Permission, personId: string): Promise<PersonRecord> => {
  const person = await getPerson(auth.user.id, personId);
  if (!person) throw noAccess(permission);
  return person;
};

/** A library the caller may upload into: their own upload library. */
export const requireLibrary = (permission: Permission, libraryId: string, user: { defaultLibraryId: string }): void => {
  if (libraryId !== user.defaultLibraryId) throw noAccess(permission);
};

/** One of the caller's own shared links (Immich's shared-link service answers `Shared link not found`). */
export const requireSharedLink = async (auth: Auth, linkId: string): Promise<SharedLinkRecord> => {
  const link = await getSharedLink(auth.user.id, linkId);
  if (!link) throw new NotFound('Shared link not found');
  return link;
};
