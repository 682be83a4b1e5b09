/**
 * Previews of an image, as Immich's thumbnail jobs make them (docs/immich-compatibility.md,
 * "Media"): a JPEG preview and a WebP thumbnail whose shorter side is the configured size (never
 * enlarged), the EXIF orientation applied, and a thumbhash of the preview. Decoded and encoded by
 * wasm-vips (libvips compiled to WebAssembly: the same code on this machine and on Lambda's arm64,
 * with no native binary to build or ship; chosen against sharp in docs/benchmarks.md, "Media").
 */
import { rgbaToThumbHash } from 'thumbhash';
import type Vips from 'wasm-vips';
import { isHevcHeif } from './heif.ts';

export type VipsModule = Awaited<ReturnType<typeof Vips>>;
type VipsImage = InstanceType<VipsModule['Image']>;

let loaded: Promise<VipsModule> | undefined;
// Loaded once per process (about 170 ms): only the media function and the local server need it.
// Its JavaScript (90 KB, outside the media function's bundle) is imported here too, with the
// WebAssembly it instantiates, rather than parsed at the media function's cold start
// (docs/benchmarks.md, "The background backup path").
export const vips = (): Promise<VipsModule> => (loaded ??= import('wasm-vips').then(({ default: start }) => start()));

export interface PreviewSettings {
  /** Shorter side of the WebP thumbnail (Immich's `thumbnail.webpSize`, 250). */
  webpSize: number;
  /** Shorter side of the JPEG preview (`thumbnail.jpegSize`, 1440). */
  jpegSize: number;
  quality: number;
  /** Wide-gamut sources are converted to Display P3 (`p3`, Immich's default) or sRGB. */
  colorspace: 'srgb' | 'p3';
}

export interface Previews {
  preview: Buffer;
  thumbnail: Buffer;
  /** Immich's thumbhash (of the preview), as bytes. */
  thumbhash: Buffer;
  /** The original's size, orientation applied. */
  width: number;
  height: number;
  /** The preview's size. */
  previewWidth: number;
  previewHeight: number;
}

/** The width and height of an image libvips reads (its header only), or undefined. */
export const imageSize = async (bytes: Uint8Array): Promise<{ width: number; height: number } | undefined> => {
  const { Image } = await vips();
  try {
    const header = Image.newFromBuffer(bytes, '', { access: 'sequential' });
    const size = { width: header.width, height: header.height };
    header.delete();
    return size;
  } catch {
    return undefined;
  }
};

/** A box whose shorter side is `size`: libvips fits inside it, which is sharp's `fit: 'outside'` that Immich uses. */
const outside = (width: number, height: number, size: number): { width: number; height: number } =>
  width <= height ? { width: size, height: 10_000_000 } : { width: 10_000_000, height: size };

const boxArgs = (box: { width: number; height: number }) => [box.width, { height: box.height, size: 'down' as const }] as const;

const using = <T>(images: VipsImage[], fn: () => T): T => {
  try {
    return fn();
  } finally {
    for (const image of images) image.delete();
  }
};

/** Runs `fn` with a `keep` that records each image it makes; every one is freed when `fn` is done or throws. */
const tracked = async <T>(fn: (keep: (image: VipsImage) => VipsImage) => T | Promise<T>): Promise<T> => {
  const made: VipsImage[] = [];
  try {
    return await fn((image) => {
      made.push(image);
      return image;
    });
  } finally {
    for (const image of made) image.delete();
  }
};

/**
 * An image's pixels as 8-bit RGB, its EXIF orientation applied (what the face detector reads:
 * shared/media/face-detect.ts); a preview is already upright, so this is its decoded JPEG.
 * `{ orient: false }` keeps the stored orientation, as Pillow's `Image.open` does (CLIP's
 * preprocessing: docs/clip-local.md).
 */
export const decodeRgb = async (
  bytes: Uint8Array,
  { orient = true }: { orient?: boolean } = {},
): Promise<{ width: number; height: number; data: Uint8Array }> => {
  const { Image } = await vips();
  return tracked((keep) => {
    const decoded = keep(Image.newFromBuffer(bytes));
    let image = orient ? keep(decoded.autorot()) : decoded;
    if (image.interpretation !== 'srgb') image = keep(image.colourspace('srgb'));
    if (image.bands === 1) image = keep(image.bandjoin([image, image]));
    if (image.bands > 3) image = keep(image.extractBand(0, { n: 3 }));
    if (image.format !== 'uchar') image = keep(image.cast('uchar'));
    return { width: image.width, height: image.height, data: new Uint8Array(image.writeToMemory()) };
  });
};

/**
 * HEVC-coded HEIF (iPhones' HEIC): libvips here has no HEVC decoder, so libheif in WebAssembly
 * decodes it to RGBA, its grid's tiles in parallel (shared/media/heic.ts), rotation and mirroring
 * applied as HEIF requires (its `irot` and `imir`, never the EXIF orientation). Loaded on first
 * use: other images never need it.
 */
const decodeHeicImage = async (original: Uint8Array, { Image, BandFormat }: VipsModule): Promise<VipsImage> => {
  const { decodeHeic } = await import('./heic.ts');
  const { width, height, data } = await decodeHeic(original);
  const rgba = Image.newFromMemory(data, width, height, 4, BandFormat.uchar);
  // Opaque photos (nearly all) lose the alpha band: JPEG has none, and WebP is smaller without it.
  const opaque = rgba.extractBand(3).min() === 255;
  const image = opaque ? rgba.extractBand(0, { n: 3 }) : rgba.copy();
  rgba.delete();
  return image.copy({ interpretation: 'srgb' });
};

/** A photo edit as the media function applies it (shared/model/asset.ts's PhotoEdit, without its id). */
export type ImageEdit =
  | { action: 'crop'; parameters: { x: number; y: number; width: number; height: number } }
  | { action: 'rotate'; parameters: { angle: number } }
  | { action: 'mirror'; parameters: { axis: 'horizontal' | 'vertical' } };

export interface EditedImage extends Previews {
  /** The whole edited image, a JPEG (Immich's edited full size). */
  fullsize: Buffer;
}

/**
 * Immich's photo editor's output: the original decoded whole and oriented, then each edit in
 * order (a crop in the oriented image's pixels, a clockwise quarter turn, a mirror), encoded full
 * size, with its previews and thumbhash.
 */
export const renderEdited = async (
  original: Uint8Array,
  edits: readonly ImageEdit[],
  settings: PreviewSettings,
  options: SourceOptions = {},
): Promise<EditedImage> => {
  const module = await vips();
  const { Image } = module;
  return tracked(async (keep) => {
    let image: VipsImage;
    if (isHevcHeif(Buffer.from(original.buffer, original.byteOffset, Math.min(original.byteLength, 64)))) {
      image = keep(await decodeHeicImage(original, module));
    } else {
      const decoded = keep(Image.newFromBuffer(original));
      const tagged = keep(decoded.copy());
      if (options.orientation && options.orientation > 1 && (decoded.getTypeof('orientation') === 0 || decoded.getInt('orientation') <= 1))
        tagged.setInt('orientation', options.orientation);
      image = keep(tagged.autorot());
    }
    for (const edit of edits) {
      if (edit.action === 'crop')
        image = keep(image.crop(edit.parameters.x, edit.parameters.y, edit.parameters.width, edit.parameters.height));
      else if (edit.action === 'rotate')
        image =
          edit.parameters.angle === 90
            ? keep(image.rot90())
            : edit.parameters.angle === 180
              ? keep(image.rot180())
              : edit.parameters.angle === 270
                ? keep(image.rot270())
                : image;
      else image = keep(image.flip(edit.parameters.axis));
    }
    const fullsize = Buffer.from(
      image.jpegsaveBuffer({ Q: settings.quality, subsample_mode: settings.quality >= 80 ? 'off' : 'on', keep: 'icc' }),
    );
    return { ...previewsOfImage(Image, settings, image), fullsize };
  });
};

/** Previews of an image already decoded (and oriented). */
const previewsOfImage = (Image: VipsModule['Image'], settings: PreviewSettings, decoded: VipsImage): Previews =>
  previewsOf(Image, settings, decoded.width, decoded.height, (size) => {
    const box = outside(decoded.width, decoded.height, size);
    return decoded.thumbnailImage(box.width, { height: box.height, size: 'down' });
  });

export interface SourceOptions {
  /**
   * The EXIF orientation of the file the image came from, for an image that has none of its own
   * (a RAW file's embedded preview: the orientation is in the RAW's IFD0).
   */
  orientation?: number;
}

/** Makes an image's previews; throws when the bytes are not an image libvips (or, for HEIC, libheif) reads. */
export const renderPreviews = async (original: Uint8Array, settings: PreviewSettings, options: SourceOptions = {}): Promise<Previews> => {
  const module = await vips();
  const { Image } = module;
  if (isHevcHeif(Buffer.from(original.buffer, original.byteOffset, Math.min(original.byteLength, 64)))) {
    const decoded = await decodeHeicImage(original, module);
    return using([decoded], () => previewsOfImage(Image, settings, decoded));
  }
  if (options.orientation && options.orientation > 1) {
    const image = Image.newFromBuffer(original);
    if (image.getTypeof('orientation') === 0 || image.getInt('orientation') <= 1) {
      const tagged = image.copy();
      tagged.setInt('orientation', options.orientation);
      const oriented = tagged.autorot();
      return using([image, tagged, oriented], () => previewsOfImage(Image, settings, oriented));
    }
    image.delete();
  }
  const header = Image.newFromBuffer(original, '', { access: 'sequential' });
  const rotated = header.getTypeof('orientation') !== 0 && header.getInt('orientation') >= 5;
  const width = rotated ? header.height : header.width;
  const height = rotated ? header.width : header.height;
  // Sources with an ICC profile other than sRGB are converted; untagged ones are sRGB already.
  const wide = header.getTypeof('icc-profile-data') !== 0;
  header.delete();
  const profile = wide ? { export_profile: settings.colorspace === 'p3' ? 'p3' : 'srgb' } : {};
  return previewsOf(Image, settings, width, height, (size) => {
    const box = outside(width, height, size);
    return Image.thumbnailBuffer(original, box.width, { height: box.height, size: 'down', ...profile });
  });
};

/** The preview, the thumbnail and the thumbhash, given a way to make the source's image at a size (shorter side). */
const previewsOf = (
  Image: VipsModule['Image'],
  settings: PreviewSettings,
  width: number,
  height: number,
  resize: (size: number) => VipsImage,
): Previews => {
  const previewImage = resize(settings.jpegSize);
  const previewWidth = previewImage.width;
  const previewHeight = previewImage.height;
  const preview = using([previewImage], () =>
    // libvips keeps full-resolution chroma from quality 90; Immich (sharp) asks for it from 80.
    Buffer.from(previewImage.jpegsaveBuffer({ Q: settings.quality, subsample_mode: settings.quality >= 80 ? 'off' : 'on', keep: 'icc' })),
  );
  // The thumbnail from the preview (already oriented and converted): decoding the original once
  // instead of twice halves the work, and at these sizes the result is the same.
  const thumbnailImage =
    settings.webpSize <= settings.jpegSize
      ? Image.thumbnailBuffer(preview, ...boxArgs(outside(width, height, settings.webpSize)))
      : resize(settings.webpSize);
  const thumbnail = using([thumbnailImage], () => Buffer.from(thumbnailImage.webpsaveBuffer({ Q: settings.quality, keep: 'icc' })));
  // Immich hashes the preview, fitted inside 100×100, as RGBA.
  const small = Image.thumbnailBuffer(preview, 100, { height: 100, size: 'down' });
  const srgb = small.colourspace('srgb');
  const rgba = srgb.hasAlpha() ? srgb.copy() : srgb.bandjoin(255);
  const thumbhash = using([small, srgb, rgba], () =>
    Buffer.from(rgbaToThumbHash(rgba.width, rgba.height, new Uint8Array(rgba.cast('uchar').writeToMemory()))),
  );
  return { preview, thumbnail, thumbhash, width, height, previewWidth, previewHeight };
};

/** A face box in the preview's pixels. */
export interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** Immich's person thumbnail size. */
const faceThumbnailSize = 250;

/**
 * A person's thumbnail, as Immich's person job crops it: a square around the face's centre, 10%
 * wider than the face, kept inside the image, cut from the preview and made 250 px JPEG.
 */
export const renderFaceCrop = async (preview: Uint8Array, box: Box, quality: number): Promise<Buffer> => {
  const { Image } = await vips();
  const image = Image.newFromBuffer(preview);
  const halfWidth = (box.x2 - box.x1) / 2;
  const halfHeight = (box.y2 - box.y1) / 2;
  const middleX = Math.round(box.x1 + halfWidth);
  const middleY = Math.round(box.y1 + halfHeight);
  const target = Math.floor(Math.max(halfWidth, halfHeight) * 1.1);
  const half = Math.max(
    1,
    Math.min(
      middleX - Math.max(0, middleX - target),
      middleY - Math.max(0, middleY - target),
      Math.min(image.width - 1, middleX + target) - middleX,
      Math.min(image.height - 1, middleY + target) - middleY,
    ),
  );
  const crop = image.crop(middleX - half, middleY - half, half * 2, half * 2);
  const sized = crop.thumbnailImage(faceThumbnailSize, { height: faceThumbnailSize, size: 'down' });
  return using([image, crop, sized], () =>
    Buffer.from(sized.jpegsaveBuffer({ Q: quality, subsample_mode: quality >= 80 ? 'off' : 'on', keep: 'icc' })),
  );
};

/**
 * An image's pixels in grey, squeezed to `size`×`size` for each size asked (its aspect ratio
 * dropped), decoded once: what the perceptual hashes read (shared/media/perceptual-hash.ts). A
 * preview is already upright (another file is turned upright by its EXIF orientation); alpha is dropped.
 */
export const greySquares = async (bytes: Uint8Array, sizes: readonly number[]): Promise<Uint8Array[]> => {
  const { Image } = await vips();
  return tracked((keep) => {
    // Shrunk on load (a JPEG decodes at 1/8 scale where it can): the hashes need 32 pixels a side.
    let image = keep(Image.thumbnailBuffer(bytes, 128, { height: 128, size: 'force' }));
    if (image.hasAlpha()) image = keep(image.flatten({ background: [255] }));
    image = keep(image.colourspace('b-w'));
    if (image.bands > 1) image = keep(image.extractBand(0));
    // In memory: the two sizes are read from it one after the other (the shrink-on-load reads in order only).
    const source = keep(image.copyMemory());
    return sizes.map((size) => {
      const squeezed = keep(source.resize(size / source.width, { vscale: size / source.height }));
      const grey = squeezed.format === 'uchar' ? squeezed : keep(squeezed.cast('uchar'));
      return new Uint8Array(grey.writeToMemory());
    });
  });
};
