/**
 * Access to assets (Immich's asset access): the owner's, one an album shared with the caller or a
 * partner shows, one a shared link shows its visitor, and a live photo's video.
 */
import { inBatches } from '../core/concurrency.ts';
import { Invalid } from '../core/errors.ts';
import * as albumRepo from '../db/album.repository.ts';
import * as assetRepo from '../db/asset.repository.ts';
import * as partnerRepo from '../db/partner.repository.ts';
import * as sharedLinkRepo from '../db/shared-link.repository.ts';
import { type AssetRecord, type AssetWithFaces, seenByOthers } from '../model/asset.ts';
import type { SharedLinkRecord } from '../model/shared-link.ts';
import type { Auth } from '../model/user.ts';
import { isElevated } from './elevation.ts';
import { isPartnerOf } from './partner-access.ts';
import { noAccess, owns, Permission } from './permission.ts';

/**
 * The caller's own asset, as Immich's owner check: a locked one (in the locked folder) only in a
 * session unlocked with the PIN code, and never to share (docs/immich-compatibility.md, "The
 * locked folder").
 */
const ownsReachable = (auth: Auth, asset: AssetRecord, permission: Permission): boolean =>
  owns(auth, asset.ownerId) && (asset.visibility !== 'locked' || (isElevated(auth) && permission !== Permission.AssetShare));

/** What seeing someone else's asset through a shared album allows (Immich's asset read, view and download). */
const sharedAssetPermissions: readonly Permission[] = [Permission.AssetRead, Permission.AssetView, Permission.AssetDownload];

/**
 * Whether one of the albums the asset is in is shared with the caller, or is the caller's own (an
 * album's owner sees what its members added, as in Immich).
 */
const seesThroughAlbum = async (auth: Auth, assetId: string): Promise<boolean> => {
  const albumIds = await albumRepo.listIdsOfAsset(assetId);
  if (albumIds.length === 0) return false;
  const [shared, owned] = await Promise.all([
    albumRepo.albumsSharedWithAmong(albumIds, auth.user.id),
    albumRepo.albumsOwnedAmong(albumIds, auth.user.id),
  ]);
  return shared.length > 0 || owned.length > 0;
};

/** Queries one request has in flight when each asset's albums are listed (one Query an asset). */
const albumQueriesInFlight = 8;

/**
 * Those of `assetIds` that `seesThroughAlbum` would show: each asset's albums listed, a few at a
 * time, then the albums' shares and owners read 100 a call for all of them at once.
 */
const seenThroughAlbums = async (auth: Auth, assetIds: readonly string[]): Promise<Set<string>> => {
  const albumsOf = new Map<string, string[]>();
  await inBatches(assetIds, albumQueriesInFlight, async (assetId) => {
    albumsOf.set(assetId, await albumRepo.listIdsOfAsset(assetId));
  });
  const albumIds = [...new Set([...albumsOf.values()].flat())];
  if (albumIds.length === 0) return new Set();
  const [shared, owned] = await Promise.all([
    albumRepo.albumsSharedWithAmong(albumIds, auth.user.id),
    albumRepo.albumsOwnedAmong(albumIds, auth.user.id),
  ]);
  const visible = new Set([...shared.map((share) => share.albumId), ...owned.map((album) => album.id)]);
  return new Set(assetIds.filter((assetId) => (albumsOf.get(assetId) ?? []).some((albumId) => visible.has(albumId))));
};

/** Trashed or locked means gone for everyone but the owner: no partner, album member or link visitor reaches it. */
export const trashed = (asset: AssetRecord): boolean => !seenByOthers(asset);

/** What a partner's share allows with their assets (Immich: read, view, download, and share them into albums). */
const partnerAssetPermissions: readonly Permission[] = [...sharedAssetPermissions, Permission.AssetShare];

/** The caller's asset with its faces, or one an album shared with them or a partner shows (for reading it). */
export const requireAsset = async (auth: Auth, permission: Permission, assetId: string): Promise<AssetWithFaces> => {
  if (auth.sharedLink) return (await requireSharedAsset(auth, permission, assetId)).found;
  const found = await assetRepo.getWithFaces(assetId);
  if (!found) throw noAccess(permission);
  if (ownsReachable(auth, found.asset, permission)) return found;
  if (owns(auth, found.asset.ownerId) || trashed(found.asset)) throw noAccess(permission);
  if (sharedAssetPermissions.includes(permission) && (await seesThroughAlbum(auth, assetId))) return found;
  if (partnerAssetPermissions.includes(permission) && (await isPartnerOf(auth, found.asset.ownerId))) return found;
  throw noAccess(permission);
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
  const [link, found] = await Promise.all([sharedLinkRepo.get(auth.user.id, visit.id), assetRepo.getWithFaces(assetId)]);
  if (!link || !found || found.asset.ownerId !== link.userId || trashed(found.asset)) throw noAccess(permission);
  if (permission === Permission.AssetDownload && !link.allowDownload) throw noAccess(permission);
  if (!(await sharedLinkRepo.linkShowsAsset(link, assetId))) throw noAccess(permission);
  return { found, link };
};

/**
 * The allowed ones among `assetIds`, in the order asked: the caller's own (trashed ones included,
 * as Immich's checks do); for sharing into an album also their partners'; for reading, viewing
 * and downloading also those a partner or an album shared with them shows (never trashed ones).
 */
export const allowedAssets = async (auth: Auth, permission: Permission, assetIds: readonly string[]): Promise<AssetRecord[]> => {
  const assets = (await assetRepo.getMany(assetIds)).filter((asset) =>
    owns(auth, asset.ownerId) ? ownsReachable(auth, asset, permission) : !trashed(asset),
  );
  const others = assets.filter((asset) => !owns(auth, asset.ownerId));
  if (others.length === 0 || !partnerAssetPermissions.includes(permission)) return assets.filter((asset) => owns(auth, asset.ownerId));
  const partners = new Set(
    (await partnerRepo.partnersAmong([...new Set(others.map((asset) => asset.ownerId))], auth.user.id)).map((p) => p.sharedById),
  );
  const throughAlbums = sharedAssetPermissions.includes(permission)
    ? await seenThroughAlbums(
        auth,
        others.filter((each) => !partners.has(each.ownerId)).map((asset) => asset.id),
      )
    : new Set<string>();
  return assets.filter((asset) => owns(auth, asset.ownerId) || partners.has(asset.ownerId) || throughAlbums.has(asset.id));
};

/** Every one of `assetIds` (duplicates ignored), or nothing: one id not allowed refuses them all. */
export const requireAssets = async (auth: Auth, permission: Permission, assetIds: readonly string[]): Promise<AssetRecord[]> => {
  const unique = [...new Set(assetIds)];
  const allowed = await allowedAssets(auth, permission, unique);
  if (allowed.length !== unique.length) throw noAccess(permission);
  return allowed;
};

/**
 * A live photo's video named by its photo's upload (Immich v3's `onBeforeLink`): it exists, is a
 * video, and is the caller's own.
 */
export const requireLivePhotoVideo = async (auth: Auth, videoId: string): Promise<AssetWithFaces> => {
  const found = await assetRepo.getWithFaces(videoId);
  if (!found) throw new Invalid('Live photo video not found');
  if (found.asset.type !== 'VIDEO') throw new Invalid('Live photo video must be a video');
  if (!owns(auth, found.asset.ownerId)) throw new Invalid('Live photo video does not belong to the user');
  return found;
};

/**
 * An asset whose files are asked for (asset.view), and whether its original may be served: always
 * to a user who may view it; to a visitor only when the link allows downloads (else previews only).
 */
export const requireAssetFiles = async (auth: Auth, assetId: string): Promise<{ asset: AssetRecord; original: boolean }> => {
  if (!auth.sharedLink) return { asset: (await requireAsset(auth, Permission.AssetView, assetId)).asset, original: true };
  const { found, link } = await requireSharedAsset(auth, Permission.AssetView, assetId);
  return { asset: found.asset, original: link.allowDownload };
};
