/**
 * Face regions that photo managers write into XMP, as Immich's faces: a name and a pixel bounding
 * box on the image as it is shown (its EXIF orientation applied). Two conventions exist:
 *   - MWG regions (Lightroom, digiKam, Picasa, darktable): `mwg-rs:Regions` with
 *     `AppliedToDimensions` and a `RegionList` of `{Area {x,y,w,h} (centre-based, normalised), Type, Name}`;
 *   - Microsoft Photo regions (Windows Photo Gallery): `MP:RegionInfo/MPRI:Regions` of
 *     `{Rectangle "x, y, w, h" (top-left based, normalised), PersonDisplayName}`.
 * Both are applied to the image as stored (MWG's guidelines, "Image Region Metadata": a rotation by
 * the EXIF orientation must be applied to the regions too), so a photo turned by its orientation
 * has its regions turned the same way here.
 *
 * One set is read, as Immich v3's metadata job reads one (exiftool's `RegionInfo`, the MWG set):
 * a file written by digiKam or ExifToolGui carries both sets for the same people, and reading both
 * made each person two faces. The Microsoft set is read only when the file has no named MWG face
 * (Immich never reads it: docs/immich-compatibility.md, "Faces"). Only named face regions become
 * faces: without machine learning a name is what makes a person (docs/faces.md).
 */

import type { FaceBox } from '../model/asset.ts';

/** A named face region: a would-be face of a person of that name. */
export interface FaceRegion extends FaceBox {
  name: string;
}

type Tags = Record<string, unknown>;

/** A region in fractions of the image: its centre and size. */
interface Area {
  name: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

interface Size {
  width: number;
  height: number;
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]);

const record = (value: unknown): Tags | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Tags) : undefined;

const finite = (value: unknown): number | undefined => {
  const parsed = typeof value === 'string' ? Number(value) : value;
  return typeof parsed === 'number' && Number.isFinite(parsed) ? parsed : undefined;
};

const nameOf = (value: unknown): string | undefined => {
  const name = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
  return name || undefined;
};

const positiveSize = (width: number | undefined, height: number | undefined): Size | undefined =>
  width !== undefined && height !== undefined && width > 0 && height > 0 ? { width, height } : undefined;

/** EXIF orientations 5 to 8 turn the image on its side: the shown width is the stored height. */
const isSideways = (orientation: number): boolean => orientation >= 5 && orientation <= 8;

/**
 * A region of the stored image as it lies on the shown image (EXIF orientation 1 to 8; anything
 * else is 1): its centre moved as the pixels are, its width and height swapped when sideways.
 * The same transforms as Immich v3's metadata job (`orientRegionInfo`).
 */
const orientArea = <T extends Omit<Area, 'name'>>(area: T, orientation: number): T => {
  const { x, y } = area;
  const moved: Record<number, [number, number]> = {
    2: [1 - x, y], // mirrored horizontally
    3: [1 - x, 1 - y], // turned 180°
    4: [x, 1 - y], // mirrored vertically
    5: [y, x], // mirrored horizontally, turned 270° clockwise (transposed)
    6: [1 - y, x], // turned 90° clockwise
    7: [1 - y, 1 - x], // mirrored horizontally, turned 90° clockwise (transversed)
    8: [y, 1 - x], // turned 270° clockwise
  };
  const [nx, ny] = moved[orientation] ?? [x, y];
  return isSideways(orientation) ? { ...area, x: nx, y: ny, w: area.h, h: area.w } : { ...area, x: nx, y: ny };
};

/** The file's named MWG face regions (centre-based), with the size they were applied to (the stored image's). */
const mwgAreas = (tags: Tags): { areas: Area[]; size?: Size | undefined } => {
  const regions = record(tags.Regions);
  if (!regions) return { areas: [] };
  const applied = record(regions.AppliedToDimensions);
  const areas = list(regions.RegionList).flatMap((entry): Area[] => {
    const region = record(entry);
    const area = record(region?.Area);
    const name = nameOf(region?.Name);
    if (!region || !area || !name || (region.Type !== undefined && region.Type !== 'Face')) return [];
    if (area.unit !== undefined && area.unit !== 'normalized') return [];
    const [x, y, w, h] = [finite(area.x), finite(area.y), finite(area.w), finite(area.h)];
    if (x === undefined || y === undefined || w === undefined || h === undefined || w <= 0 || h <= 0) return [];
    return [{ name, x, y, w, h }];
  });
  return { areas, size: positiveSize(finite(applied?.w), finite(applied?.h)) };
};

/** The file's named Microsoft Photo regions, as centre-based areas of the stored image. */
const microsoftAreas = (tags: Tags): Area[] => {
  const info = record(tags.RegionInfo);
  if (!info) return [];
  return list(info.Regions).flatMap((entry): Area[] => {
    const region = record(entry);
    const name = nameOf(region?.PersonDisplayName);
    const rectangle = typeof region?.Rectangle === 'string' ? region.Rectangle.split(',').map((part) => Number(part.trim())) : [];
    if (!name || rectangle.length !== 4 || !rectangle.every((n) => Number.isFinite(n))) return [];
    const [left, top, w, h] = rectangle as [number, number, number, number];
    return w > 0 && h > 0 ? [{ name, x: left + w / 2, y: top + h / 2, w, h }] : [];
  });
};

const clamp = (value: number, max: number): number => Math.min(Math.max(value, 0), max);

/**
 * Immich floors each edge (metadata.service `applyTaggedFaces`); a hair is added first so that a
 * fraction written in decimal (0.3 of 100 pixels is 29.999999999999996 in binary) keeps its pixel.
 */
const pixel = (fraction: number, size: number): number => clamp(Math.floor(fraction * size + 1e-6), size);

/**
 * Every named face region of the file, in its order, boxed in the pixels of the image as shown.
 * `image` is the stored image's size (EXIF's, before the orientation), used where the regions do
 * not say theirs; `orientation` the file's EXIF orientation.
 */
export const faceRegionsOf = (tags: Tags, image: Size | undefined, orientation: number | string | null = null): FaceRegion[] => {
  const mwg = mwgAreas(tags);
  const [areas, stored] = mwg.areas.length > 0 ? [mwg.areas, mwg.size ?? image] : [microsoftAreas(tags), image];
  if (!stored || areas.length === 0) return [];
  const turn = Number(orientation ?? 1);
  const shown = isSideways(turn) ? { width: stored.height, height: stored.width } : stored;
  return areas.map((area) => {
    const { name, x, y, w, h } = orientArea(area, turn);
    return {
      name,
      imageWidth: shown.width,
      imageHeight: shown.height,
      boundingBoxX1: pixel(x - w / 2, shown.width),
      boundingBoxY1: pixel(y - h / 2, shown.height),
      boundingBoxX2: pixel(x + w / 2, shown.width),
      boundingBoxY2: pixel(y + h / 2, shown.height),
    };
  });
};
