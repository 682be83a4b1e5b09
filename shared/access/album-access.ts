/** Access to albums: the owner's, and what sharing an album with a user allows them (Immich's album access). */
import * as albumRepo from '../db/album.repository.ts';
import { type AlbumRecord, roleOf } from '../model/album.ts';
import type { Auth } from '../model/user.ts';
import { noAccess, owns, Permission } from './permission.ts';

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
  const album = await albumRepo.get(auth.user.id, albumId);
  if (album) return album;
  if (!auth.sharedLink && sharedAlbumPermissions.includes(permission)) {
    const share = await albumRepo.getUser(albumId, auth.user.id);
    const shared = share ? await albumRepo.get(share.ownerId, albumId) : undefined;
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
  const found = new Map((await albumRepo.albumsOwnedAmong(unique, auth.user.id, consistent)).map((album) => [album.id, album]));
  const rest = unique.filter((id) => !found.has(id));
  if (rest.length > 0 && !auth.sharedLink && sharedAlbumPermissions.includes(permission)) {
    const shares = await albumRepo.albumsSharedWithAmong(rest, auth.user.id, consistent);
    for (const album of await albumRepo.albumsOfShares(shares, consistent)) found.set(album.id, album);
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

/**
 * Who may take a user off an album (Immich's album.share, or leaving): the owner may remove
 * anyone; a user it is shared with only themselves.
 */
export const requireAlbumUserRemoval = (auth: Auth, album: AlbumRecord, userId: string): void => {
  if (auth.user.id !== userId && !owns(auth, album.ownerId)) throw noAccess(Permission.AlbumShare);
};
