import { requireAsset, requireAssetFiles } from '../access/asset-access.ts';
import { isElevated } from '../access/elevation.ts';
import { Permission } from '../access/permission.ts';
import { requirePerson } from '../access/person-access.ts';
import { Invalid, NotFound } from '../core/errors.ts';
import * as assetRepo from '../db/asset.repository.ts';
import { mimeTypeOf } from '../domain/media-types.ts';
import type { AssetRecord } from '../model/asset.ts';
import { attachment, type Delivery, inline, type ServedFile } from '../model/file.ts';
import type { Auth } from '../model/user.ts';
import { originalsStore } from '../storage/originals.ts';

export type { Delivery, ServedFile } from '../model/file.ts';

// Serving only: the functions that serve files do not carry the image codecs that make previews (shared/services/media/steps/previews.ts).

/** Immich's two caching answers for files. */
export const cacheControl = {
  privateWithCache: 'private, max-age=86400, no-transform',
  privateWithoutCache: 'private, no-cache, no-transform',
  none: 'no-store',
} as const;

const presignedSeconds = 300;

/**
 * The store's signed URL when it has one, else the bytes; a file that is gone is Immich's 404.
 * `probe`: the caller wants only the file's headers (a HEAD request, as the web app's Cast sends):
 * a store with signed URLs is asked whether the file is there and no URL is signed, since a URL
 * signed for GET answers a HEAD with S3's 403.
 */
export const deliver = async (file: ServedFile, missing: string, probe = false): Promise<Delivery> => {
  const store = await originalsStore();
  if (store.signedUrl && probe) {
    if (!(await store.exists(file.key))) throw new NotFound(missing);
    return { found: true };
  }
  if (store.signedUrl) {
    const contentDisposition = file.downloadName ? attachment(file.downloadName) : file.inlineName ? inline(file.inlineName) : undefined;
    const url = await store.signedUrl(file.key, {
      contentType: file.contentType,
      cacheControl: file.cacheControl,
      ...(contentDisposition ? { contentDisposition } : {}),
      expiresSeconds: presignedSeconds,
    });
    return { url };
  }
  const bytes = await store.get(file.key);
  if (!bytes) throw new NotFound(missing);
  return { bytes };
};

/**
 * An original's media type by its stored key's extension, as Immich types a file it serves by its
 * path: the key carries the uploaded file's extension, and a motion photo's video its container's
 * (`.mp4`), also for one stored before it was named as a video (docs/immich-compatibility.md, "Media").
 */
const originalType = (asset: Pick<AssetRecord, 'originalPath'>): string => mimeTypeOf(asset.originalPath);

const previewType = (key: string): string => (key.endsWith('.webp') ? 'image/webp' : 'image/jpeg');

export type ThumbnailFormat = 'WEBP' | 'JPEG';

/**
 * GET /asset/thumbnail/:id: the WebP thumbnail, or with `format=JPEG` the preview (a WebP asked
 * of an asset that has only a preview gets the preview, as Immich does); 404 before they exist.
 */
export const thumbnailFile = async (auth: Auth, id: string, format: ThumbnailFormat = 'WEBP'): Promise<ServedFile> => {
  const { asset } = await requireAsset(auth, Permission.AssetView, id);
  const key = format === 'WEBP' && asset.webpPath ? asset.webpPath : asset.resizePath;
  if (!key) throw new NotFound(`No thumbnail found for asset ${asset.id}`);
  return { key, contentType: previewType(key), cacheControl: cacheControl.privateWithCache };
};

const servePath = (asset: AssetRecord, isThumb: boolean, isWeb: boolean): string | undefined => {
  const gif = mimeTypeOf(asset.originalFileName) === 'image/gif';
  // A video: its encoded version when it has one, else its original, whatever was asked (Immich v1.100's serveFile).
  if (asset.type !== 'IMAGE') return asset.encodedVideoPath ?? asset.originalPath;
  // The web viewer's image: the preview (a GIF stays itself, to keep moving).
  if (isWeb && !gif) return asset.resizePath ?? undefined;
  if (!isThumb || (isWeb && gif)) return asset.originalPath;
  return asset.webpPath || asset.resizePath || undefined;
};

/**
 * GET /asset/file/:id?isThumb=&isWeb=: as Immich's serveFile, the original by default, the
 * preview for the web viewer (`isWeb`), the thumbnail (`isThumb`); a video its encoded version
 * (`video/mp4`) once the transcode function made one, else its original (v1.100's web app plays
 * videos from here: docs/media.md, "Transcoding").
 */
export const assetFile = async (auth: Auth, id: string, options: { isThumb?: boolean; isWeb?: boolean }): Promise<ServedFile> => {
  // A visitor sees originals only when the link allows downloads; otherwise the thumbnail.
  const { asset, original } = await requireAssetFiles(auth, id);
  const key = servePath(asset, (options.isThumb ?? false) || !original, options.isWeb ?? false);
  // Immich answers 500 for a web image before its preview exists; not made yet is a 404 here.
  if (!key) throw new NotFound(`No preview found for asset ${asset.id}`);
  const contentType = key === asset.originalPath ? originalType(asset) : key === asset.encodedVideoPath ? 'video/mp4' : previewType(key);
  return { key, contentType, cacheControl: cacheControl.privateWithCache };
};

/** POST /download/asset/:id: the original, as an attachment named as it was uploaded, not cached. */
export const downloadFile = async (auth: Auth, id: string): Promise<ServedFile> => {
  const { asset } = await requireAsset(auth, Permission.AssetDownload, id);
  if (asset.isOffline) throw new Invalid('Asset is offline');
  return {
    key: asset.originalPath,
    contentType: originalType(asset),
    cacheControl: cacheControl.none,
    downloadName: asset.originalFileName,
  };
};

/** The sizes of v3's `GET /assets/:id/thumbnail?size=`. */
export type ThumbnailSize = 'thumbnail' | 'preview' | 'fullsize';

/** What v3's thumbnail route answers: a file, or the route to redirect to (Immich's `AssetMediaRedirectResponse`). */
export type ThumbnailAnswer = { file: ServedFile } | { redirect: 'original' | 'preview' };

// Images a browser shows as they are: their full size is the original (Immich's isWebSupportedImage).
const webImageTypes = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/svg+xml']);

/**
 * v3's GET /assets/:id/thumbnail?size=: the WebP thumbnail (the default) or the JPEG preview, named
 * `<name>_<size>.<ext>` inline. `fullsize` of an image a browser shows is its original (a
 * redirect); no other full size is made here, so it is the preview (a redirect, as Immich answers
 * before its full size exists). With `edited` (always for a link's visitor, as Immich's) an edited
 * asset's edited files are answered first, its edited full size included; before the media
 * function made them, the unedited ones. 404 before the previews exist.
 */
export const viewThumbnail = async (auth: Auth, id: string, size: ThumbnailSize, edited = false): Promise<ThumbnailAnswer> => {
  const { asset } = await requireAsset(auth, Permission.AssetView, id);
  const useEdits = (edited || auth.sharedLink !== undefined) && asset.edits.length > 0;
  if (size === 'fullsize') {
    if (useEdits && asset.editedFullsizePath) return { file: thumbnailServed(auth, asset, asset.editedFullsizePath, size) };
    if (useEdits) return { redirect: 'preview' };
    return { redirect: asset.type === 'IMAGE' && webImageTypes.has(mimeTypeOf(asset.originalFileName)) ? 'original' : 'preview' };
  }
  const editedKey = useEdits ? (size === 'thumbnail' ? asset.editedThumbnailPath : asset.editedPreviewPath) : null;
  const key = editedKey ?? (size === 'thumbnail' ? (asset.webpPath ?? asset.resizePath) : asset.resizePath);
  if (!key) throw new NotFound('Asset media not found');
  return { file: thumbnailServed(auth, asset, key, size) };
};

const thumbnailServed = (auth: Auth, asset: AssetRecord, key: string, size: ThumbnailSize): ServedFile => {
  // A visitor does not learn the file's name from it (Immich names it by id for a link that hides metadata).
  const base = auth.sharedLink ? asset.id : baseName(asset.originalFileName);
  return {
    key,
    contentType: previewType(key),
    cacheControl: cacheControl.privateWithCache,
    inlineName: `${base}_${size}${key.endsWith('.webp') ? '.webp' : '.jpeg'}`,
  };
};

const baseName = (fileName: string): string => fileName.replace(/\.[^.]*$/, '');

/**
 * v3's GET /assets/:id/original: the original, inline under its uploaded name, cached privately;
 * with `edited` (always for a link's visitor) an edited asset's edited full size once made, named
 * as the original with its own extension (Immich's).
 */
export const originalFile = async (auth: Auth, id: string, edited = false): Promise<ServedFile> => {
  const { asset } = await requireAsset(auth, Permission.AssetDownload, id);
  if ((edited || auth.sharedLink !== undefined) && asset.edits.length > 0 && asset.editedFullsizePath) {
    return {
      key: asset.editedFullsizePath,
      contentType: 'image/jpeg',
      cacheControl: cacheControl.privateWithCache,
      inlineName: `${baseName(asset.originalFileName)}.jpeg`,
    };
  }
  return {
    key: asset.originalPath,
    contentType: originalType(asset),
    cacheControl: cacheControl.privateWithCache,
    inlineName: asset.originalFileName,
  };
};

/**
 * v3's GET /assets/:id/video/playback: a video's encoded version (`video/mp4`) once the transcode
 * function made one, else its original (Immich's `encodedVideoPath || originalPath`); 404 for
 * anything else.
 */
export const playbackFile = async (auth: Auth, id: string): Promise<ServedFile> => {
  const { asset } = await requireAsset(auth, Permission.AssetView, id);
  if (asset.type !== 'VIDEO') throw new NotFound('Asset not found or asset is not a video');
  if (asset.encodedVideoPath) return { key: asset.encodedVideoPath, contentType: 'video/mp4', cacheControl: cacheControl.privateWithCache };
  return { key: asset.originalPath, contentType: originalType(asset), cacheControl: cacheControl.privateWithCache };
};

/**
 * GET /person/:id/thumbnail: the person's face, cropped by the media function; Immich's bare 404
 * before it exists, and while the photo it is cropped from is in the locked folder, to a session
 * not unlocked with the PIN code (the crop is of a locked photo: docs/immich-compatibility.md, "Faces").
 */
export const personThumbnailFile = async (auth: Auth, id: string): Promise<ServedFile> => {
  const person = await requirePerson(auth, Permission.PersonRead, id);
  if (!person.thumbnailPath) throw new NotFound();
  if (person.faceAssetId !== null && !isElevated(auth) && (await assetRepo.get(person.faceAssetId))?.visibility === 'locked')
    throw new NotFound();
  return { key: person.thumbnailPath, contentType: 'image/jpeg', cacheControl: cacheControl.privateWithoutCache };
};
