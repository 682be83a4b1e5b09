/**
 * File types Immich accepts, by extension (Immich server `utils/mime-types.ts`). The CLI reads
 * these lists from GET /server-info/media-types to decide what to upload.
 */
const raw: Record<string, string> = {
  '.3fr': 'image/x-hasselblad-3fr',
  '.ari': 'image/x-arriflex-ari',
  '.arw': 'image/x-sony-arw',
  '.cap': 'image/x-phaseone-cap',
  '.cin': 'image/x-phantom-cin',
  '.cr2': 'image/x-canon-cr2',
  '.cr3': 'image/x-canon-cr3',
  '.crw': 'image/x-canon-crw',
  '.dcr': 'image/x-kodak-dcr',
  '.dng': 'image/x-adobe-dng',
  '.erf': 'image/x-epson-erf',
  '.fff': 'image/x-hasselblad-fff',
  '.iiq': 'image/x-phaseone-iiq',
  '.k25': 'image/x-kodak-k25',
  '.kdc': 'image/x-kodak-kdc',
  '.mrw': 'image/x-minolta-mrw',
  '.nef': 'image/x-nikon-nef',
  '.nrw': 'image/x-nikon-nrw',
  '.orf': 'image/x-olympus-orf',
  '.ori': 'image/x-olympus-ori',
  '.pef': 'image/x-pentax-pef',
  '.psd': 'image/vnd.adobe.photoshop',
  '.raf': 'image/x-fuji-raf',
  '.raw': 'image/x-panasonic-raw',
  '.rw2': 'image/x-panasonic-rw2',
  '.rwl': 'image/x-leica-rwl',
  '.sr2': 'image/x-sony-sr2',
  '.srf': 'image/x-sony-srf',
  '.srw': 'image/x-samsung-srw',
  '.x3f': 'image/x-sigma-x3f',
};

const image: Record<string, string> = {
  ...raw,
  '.avif': 'image/avif',
  '.bmp': 'image/bmp',
  '.gif': 'image/gif',
  '.heic': 'image/heic',
  '.heif': 'image/heif',
  '.hif': 'image/hif',
  '.insp': 'image/jpeg',
  '.jpe': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.jpg': 'image/jpeg',
  '.jxl': 'image/jxl',
  '.png': 'image/png',
  '.svg': 'image/svg',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.webp': 'image/webp',
};

const video: Record<string, string> = {
  '.3gp': 'video/3gpp',
  '.3gpp': 'video/3gpp',
  '.avi': 'video/x-msvideo',
  '.flv': 'video/x-flv',
  '.insv': 'video/mp4',
  '.m2ts': 'video/mp2t',
  '.m4v': 'video/x-m4v',
  '.mkv': 'video/x-matroska',
  '.mov': 'video/quicktime',
  '.mp4': 'video/mp4',
  '.mpe': 'video/mpeg',
  '.mpeg': 'video/mpeg',
  '.mpg': 'video/mpeg',
  '.mts': 'video/mp2t',
  '.vob': 'video/mpeg',
  '.webm': 'video/webm',
  '.wmv': 'video/x-ms-wmv',
};

const sidecar: Record<string, string> = { '.xmp': 'application/xml' };

export const mediaTypes = {
  image: Object.keys(image),
  video: Object.keys(video),
  sidecar: Object.keys(sidecar),
};

/** `.JPG` → `.jpg`; '' without a dot. */
export const extensionOf = (fileName: string): string => {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot).toLowerCase();
};

export type AssetType = 'IMAGE' | 'VIDEO' | 'AUDIO' | 'OTHER';

/** The asset type Immich gives a file name, or undefined when Immich would refuse the file. */
export const assetTypeOf = (fileName: string): AssetType | undefined => {
  const extension = extensionOf(fileName);
  if (extension in image) return 'IMAGE';
  if (extension in video) return 'VIDEO';
  return undefined;
};

// Immich's `mimeTypes.isProfile`: the image types a profile picture may be.
const profileExtensions = new Set(['.avif', '.dng', '.heic', '.heif', '.jpeg', '.jpg', '.png', '.webp', '.svg']);

/** A file Immich takes as a profile image. */
export const isProfileImage = (fileName: string): boolean => {
  const extension = extensionOf(fileName);
  return profileExtensions.has(extension) && extension in image;
};

/** A camera RAW file (its previews come from the JPEG it embeds). */
export const isRaw = (fileName: string): boolean => extensionOf(fileName) in raw;

export const mimeTypeOf = (fileName: string): string => {
  const extension = extensionOf(fileName);
  return image[extension] ?? video[extension] ?? sidecar[extension] ?? 'application/octet-stream';
};

/** ServerMediaTypesResponseDto. */
export type ServerMediaTypesResponseDto = typeof mediaTypes;
