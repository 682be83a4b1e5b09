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
import { inBatches } from '../core/concurrency.ts';
import { Forbidden, Inaccessible, Invalid, Unauthenticated } from '../core/errors.ts';
import { getActivity } from '../db/activity.repository.ts';
import {
  albumsOfShares,
  albumsOwnedAmong,
  albumsSharedWithAmong,
  getAlbum,
  getAlbumUser,
  listAlbumIdsOfAsset,
} from '../db/album.repository.ts';
import { getAssets, getAssetWithFaces } from '../db/asset.repository.ts';
import { getPartner, partnersAmong } from '../db/partner.repository.ts';
import { getPeople, getPerson } from '../db/person.repository.ts';
import { assetsLinkShows, getSharedLink, linkShowsAsset } from '../db/shared-link.repository.ts';
import type { ActivityRecord } from '../model/activity.ts';
import { type AlbumRecord, roleOf } from '../model/album.ts';
import { type AssetRecord, type AssetWithFaces, seenByOthers } from '../model/asset.ts';
import type { PartnerRecord } from '../model/partner.ts';
import type { PersonRecord } from '../model/person.ts';
import type { SharedLinkRecord } from '../model/shared-link.ts';
import type { Auth } from '../model/user.ts';
import { isGranted } from './api-key-permission.ts';
import { noAccess, Permission } from './permission.ts';

export { Permission } from './permission.ts';

/** Owners may do everything to their own resources. */
const owns = (auth: Auth, ownerId: string): boolean => ownerId === auth.user.id;

/** Whether the caller's session is unlocked with their PIN code now (Immich's `hasElevatedPermission`). */
export const isElevated = (auth: Auth): boolean => auth.elevatedUntil !== undefined;

/** Immich's `requireElevatedPermission`: the locked folder is read only in a session unlocked with the PIN code. */
export const requireElevation = (auth: Auth): void => {
  if (!isElevated(auth)) throw new Unauthenticated('Elevated permission is required');
};

/**
 * The caller's own asset, as Immich's owner check: a locked one (in the locked folder) only in a
 * session unlocked with the PIN code, and never to share (docs/immich-compatibility.md, "The
 * locked folder").
 */
const ownsReachable = (auth: Auth, asset: AssetRecord, permission: Permission): boolean =>
  owns(auth, asset.ownerId) && (asset.visibility !== 'locked' || (isElevated(auth) && permission !== Permission.AssetShare));

/**
 * What a user an album is shared with may do with it, whatever their role: read and download it
 * (an `editor`, every share made through v1.100, also changes its assets: `requireAlbumEditor`).
 * The rest is the owner's.
 */
const sharedAlbumPermissions: readonly Permission[] = [Permission.AlbumRead, Permission.AlbumDownload];

/**
 * An album the caller may read, then may change the assets of (`albumAsset.create` or `.delete`):
 * someone the album is not shared with gets v1.100's `album.read` answer, a viewer the permission's.
 */
export const requireAlbumEditor = async (
  auth: Auth,
  permission: typeof Permission.AlbumAssetCreate | typeof Permission.AlbumAssetDelete,
  albumId: string,
): Promise<AlbumRecord> => {
  const album = await requireAlbum(auth, Permission.AlbumRead, albumId);
  if (!owns(auth, album.ownerId) && roleOf(album, auth.user.id) !== 'editor') throw noAccess(permission);
  return album;
};

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

/**
 * The albums among `albumIds` the caller may use as `requireAlbum` decides for one, each once, in
 * the order asked: read 100 a call, consistently (their own, then the shares with them and those
 * albums), never one read per id (docs/api.md, "Limits").
 */
const allowedAlbums = async (auth: Auth, permission: Permission, albumIds: readonly string[]): Promise<AlbumRecord[]> => {
  const unique = [...new Set(albumIds)];
  // Read consistently, as `requireAlbum`'s GetItems: the albums' writes condition on what is read here.
  const consistent = { consistent: true };
  const found = new Map((await albumsOwnedAmong(unique, auth.user.id, consistent)).map((album) => [album.id, album]));
  const rest = unique.filter((id) => !found.has(id));
  if (rest.length > 0 && !auth.sharedLink && sharedAlbumPermissions.includes(permission)) {
    const shares = await albumsSharedWithAmong(rest, auth.user.id, consistent);
    for (const album of await albumsOfShares(shares, consistent)) found.set(album.id, album);
  }
  return unique.flatMap((id) => found.get(id) ?? []);
};

/** Every one of `albumIds` (duplicates once), or nothing: one not allowed refuses them all, as `requireAlbum` would. */
export const requireAlbums = async (auth: Auth, permission: Permission, albumIds: readonly string[]): Promise<AlbumRecord[]> => {
  const albums = await allowedAlbums(auth, permission, albumIds);
  if (albums.length !== new Set(albumIds).size) throw noAccess(permission);
  return albums;
};

/** Those of `albumIds` whose assets the caller may add to or remove (`requireAlbumEditor` for each, the others left out). */
export const allowedAlbumEditors = async (auth: Auth, albumIds: readonly string[]): Promise<AlbumRecord[]> =>
  (await allowedAlbums(auth, Permission.AlbumRead, albumIds)).filter(
    (album) => owns(auth, album.ownerId) || roleOf(album, auth.user.id) === 'editor',
  );

/** What seeing someone else's asset through a shared album allows (Immich's asset read, view and download). */
const sharedAssetPermissions: readonly Permission[] = [Permission.AssetRead, Permission.AssetView, Permission.AssetDownload];

/**
 * Whether one of the albums the asset is in is shared with the caller, or is the caller's own (an
 * album's owner sees what its members added, as in Immich).
 */
const seesThroughAlbum = async (auth: Auth, assetId: string): Promise<boolean> => {
  const albumIds = await listAlbumIdsOfAsset(assetId);
  if (albumIds.length === 0) return false;
  const [shared, owned] = await Promise.all([albumsSharedWithAmong(albumIds, auth.user.id), albumsOwnedAmong(albumIds, auth.user.id)]);
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
    albumsOf.set(assetId, await listAlbumIdsOfAsset(assetId));
  });
  const albumIds = [...new Set([...albumsOf.values()].flat())];
  if (albumIds.length === 0) return new Set();
  const [shared, owned] = await Promise.all([albumsSharedWithAmong(albumIds, auth.user.id), albumsOwnedAmong(albumIds, auth.user.id)]);
  const visible = new Set([...shared.map((share) => share.albumId), ...owned.map((album) => album.id)]);
  return new Set(assetIds.filter((assetId) => (albumsOf.get(assetId) ?? []).some((albumId) => visible.has(albumId))));
};

/** Trashed or locked means gone for everyone but the owner: no partner, album member or link visitor reaches it. */
const trashed = (asset: AssetRecord): boolean => !seenByOthers(asset);

/** What a partner's share allows with their assets (Immich: read, view, download, and share them into albums). */
const partnerAssetPermissions: readonly Permission[] = [...sharedAssetPermissions, Permission.AssetShare];

/** Whether `ownerId` shares their library with the caller (Immich's partner access). */
const isPartnerOf = async (auth: Auth, ownerId: string): Promise<boolean> => (await getPartner(ownerId, auth.user.id)) !== undefined;

/** The caller's asset with its faces, or one an album shared with them or a partner shows (for reading it). */
export const requireAsset = async (auth: Auth, permission: Permission, assetId: string): Promise<AssetWithFaces> => {
  if (auth.sharedLink) return (await requireSharedAsset(auth, permission, assetId)).found;
  const found = await getAssetWithFaces(assetId);
  if (!found) throw noAccess(permission);
  if (ownsReachable(auth, found.asset, permission)) return found;
  if (owns(auth, found.asset.ownerId) || trashed(found.asset)) throw noAccess(permission);
  if (sharedAssetPermissions.includes(permission) && (await seesThroughAlbum(auth, assetId))) return found;
  if (partnerAssetPermissions.includes(permission) && (await isPartnerOf(auth, found.asset.ownerId))) return found;
  throw noAccess(permission);
};

/**
 * Whether the caller reads the archive and trash of `ownerId`'s library (Immich's archive.read):
 * only their own; a partner's stay theirs (docs/immich-compatibility.md, "Partners").
 */
export const readsArchiveOf = (auth: Auth, ownerId: string): boolean => owns(auth, ownerId);

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

/** The locked folder's timeline is the caller's own only (Immich's answer, after timeline.read). */
export const requireOwnLockedTimeline = (auth: Auth, userId: string): void => {
  if (!owns(auth, userId)) throw new Invalid("You may not access another user's locked timeline");
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
  if (!link || !found || found.asset.ownerId !== link.userId || trashed(found.asset)) throw noAccess(permission);
  if (permission === Permission.AssetDownload && !link.allowDownload) throw noAccess(permission);
  if (!(await linkShowsAsset(link, assetId))) throw noAccess(permission);
  return { found, link };
};

/**
 * The allowed ones among `assetIds`, in the order asked: the caller's own (trashed ones included,
 * as Immich's checks do); for sharing into an album also their partners'; for reading, viewing
 * and downloading also those a partner or an album shared with them shows (never trashed ones).
 */
export const allowedAssets = async (auth: Auth, permission: Permission, assetIds: readonly string[]): Promise<AssetRecord[]> => {
  const assets = (await getAssets(assetIds)).filter((asset) =>
    owns(auth, asset.ownerId) ? ownsReachable(auth, asset, permission) : !trashed(asset),
  );
  const others = assets.filter((asset) => !owns(auth, asset.ownerId));
  if (others.length === 0 || !partnerAssetPermissions.includes(permission)) return assets.filter((asset) => owns(auth, asset.ownerId));
  const partners = new Set(
    (await partnersAmong([...new Set(others.map((asset) => asset.ownerId))], auth.user.id)).map((p) => p.sharedById),
  );
  const throughAlbums = sharedAssetPermissions.includes(permission)
    ? await seenThroughAlbums(
        auth,
        others.filter((each) => !partners.has(each.ownerId)).map((asset) => asset.id),
      )
    : new Set<string>();
  return assets.filter((asset) => owns(auth, asset.ownerId) || partners.has(asset.ownerId) || throughAlbums.has(asset.id));
};

/**
 * What a shared-link visitor may download (Immich's `asset.download` and `album.download` for
 * links): only with `allowDownload`, only what the link shows — every one of `assetIds`, or the
 * link's own album. Returns the assets, or the album's id checked.
 */
const requireLinkDownload = async (
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
  const assets = (await getAssets(unique)).filter((asset) => shown.has(asset.id) && asset.ownerId === link.userId && !trashed(asset));
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

/** Those of `personIds` that are the caller's people (one BatchGetItem per 100 ids). */
export const allowedPeople = async (auth: Auth, personIds: readonly string[]): Promise<Set<string>> =>
  new Set((await getPeople(auth.user.id, personIds)).map((person) => person.id));

/**
 * A live photo's video named by its photo's upload (Immich v3's `onBeforeLink`): it exists, is a
 * video, and is the caller's own.
 */
export const requireLivePhotoVideo = async (auth: Auth, videoId: string): Promise<AssetWithFaces> => {
  const found = await getAssetWithFaces(videoId);
  if (!found) throw new Invalid('Live photo video not found');
  if (found.asset.type !== 'VIDEO') throw new Invalid('Live photo video must be a video');
  if (!owns(auth, found.asset.ownerId)) throw new Invalid('Live photo video does not belong to the user');
  return found;
};

/** A library the caller may upload into: their own upload library. */
export const requireLibrary = (permission: Permission, libraryId: string, user: { defaultLibraryId: string }): void => {
  if (libraryId !== user.defaultLibraryId) throw noAccess(permission);
};

/** One of the caller's own shared links (Immich's shared-link service answers `Shared link not found`). */
export const requireSharedLink = async (auth: Auth, linkId: string): Promise<SharedLinkRecord> => {
  const link = await getSharedLink(auth.user.id, linkId);
  if (!link) throw new Inaccessible('Shared link not found');
  return link;
};

/**
 * The link a visitor came with (Immich's `@SharedLinkRoute()` services): a signed-in user without
 * a key has none (403); a link deleted since the key was checked is an invalid key (401).
 */
export const requireVisit = async (auth: Auth): Promise<SharedLinkRecord> => {
  if (!auth.sharedLink) throw new Forbidden();
  const link = await getSharedLink(auth.user.id, auth.sharedLink.id);
  if (!link) throw new Unauthenticated('Invalid share key');
  return link;
};

/** A visitor reads the album of their link and nothing else (Immich's album.read for links). */
export const requireVisitorAlbum = async (auth: Auth, albumId: string): Promise<SharedLinkRecord> => {
  const link = auth.sharedLink ? await getSharedLink(auth.user.id, auth.sharedLink.id) : undefined;
  if (!link || link.albumId !== albumId) throw noAccess(Permission.AlbumRead);
  return link;
};

/**
 * An album to download (Immich's album.download): the owner's, one shared with the caller, or a
 * visitor's link's album when the link allows downloads (read under the link's owner).
 */
export const requireAlbumDownload = async (auth: Auth, albumId: string): Promise<AlbumRecord> => {
  if (!auth.sharedLink) return requireAlbum(auth, Permission.AlbumDownload, albumId);
  const { link } = await requireLinkDownload(auth, { albumId });
  const album = await getAlbum(link.userId, albumId);
  if (!album) throw noAccess(Permission.AlbumDownload);
  return album;
};

/** A whole library to download (Immich's timeline.download): only the caller's own, never a visitor's. */
export const requireTimelineDownload = (auth: Auth, userId: string): void => {
  if (auth.sharedLink || userId !== auth.user.id) throw noAccess(Permission.TimelineDownload);
};

/** The assets of `assetIds` (duplicates once, in the order asked), every one downloadable by the caller (a visitor: shown by a link that allows downloads). */
export const requireDownloadable = async (auth: Auth, assetIds: readonly string[]): Promise<AssetRecord[]> => {
  if (!auth.sharedLink) return requireAssets(auth, Permission.AssetDownload, assetIds);
  const { assets } = await requireLinkDownload(auth, { assetIds });
  const byId = new Map(assets.map((asset) => [asset.id, asset]));
  return [...new Set(assetIds)].flatMap((id) => byId.get(id) ?? []);
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

/**
 * Who may take a user off an album (Immich's album.share, or leaving): the owner may remove
 * anyone; a user it is shared with only themselves.
 */
export const requireAlbumUserRemoval = (auth: Auth, album: AlbumRecord, userId: string): void => {
  if (auth.user.id !== userId && !owns(auth, album.ownerId)) throw noAccess(Permission.AlbumShare);
};

/** The partnership in which `sharedById` shares with the caller (Immich's partner.update). */
export const requirePartner = async (auth: Auth, sharedById: string): Promise<PartnerRecord> => {
  const partner = await getPartner(sharedById, auth.user.id);
  if (!partner) throw noAccess(Permission.PartnerUpdate);
  return partner;
};

/**
 * Whether the caller manages users (roles, storage labels, other users' accounts): the admin, and
 * through an API key only one that holds `adminUser.update` (v1.100's `PUT /user` serves both v3's
 * `PUT /users/me` and `PUT /admin/users/{id}`).
 */
export const managesUsers = (auth: Auth): boolean =>
  auth.user.isAdmin && (!auth.apiKey || isGranted(['adminUser.update'], auth.apiKey.permissions));

/** Who sees every user in GET /users (Immich v3): an admin always, a user when the configuration's `server.publicUsers` is on. */
export const seesAllUsers = (auth: Auth, publicUsers: boolean): boolean => publicUsers || auth.user.isAdmin;

/** Who may change a user's account (Immich's user update): an admin anyone's, a user only their own. */
export const requireUserUpdate = (auth: Auth, userId: string): void => {
  if (!managesUsers(auth) && auth.user.id !== userId) throw new Forbidden('You are not allowed to update this user');
};

/**
 * A resource that passed its check and was then deleted (or changed away) by a concurrent request
 * before the write landed: answered as if it had never been the caller's, the check's own answer.
 */
export const accessLost = (permission: Permission): Inaccessible => noAccess(permission);

/** An album to like or comment on: one the caller may read, whose activity is on (Immich's activity.create). */
export const requireActivityAlbum = async (auth: Auth, albumId: string): Promise<AlbumRecord> => {
  const album = await requireAlbum(auth, Permission.AlbumRead, albumId).catch(() => undefined);
  if (!album?.isActivityEnabled) throw noAccess(Permission.ActivityCreate);
  return album;
};

/** A like or comment the caller may delete: their own, or one on their album (Immich's activity.delete). */
export const requireActivity = async (auth: Auth, activityId: string): Promise<ActivityRecord> => {
  const activity = await getActivity(activityId);
  if (!activity || (!owns(auth, activity.userId) && !owns(auth, activity.albumOwnerId))) throw noAccess(Permission.ActivityDelete);
  return activity;
};
