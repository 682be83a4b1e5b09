/**
 * Face regions that photo managers write into XMP, as Immich's faces: a name and a pixel bounding
 * box on an image of a known size. Two conventions exist:
 *   - MWG regions (Lightroom, digiKam, Picasa, darktable): `mwg-rs:Regions` with
 *     `AppliedToDimensions` and a `RegionList` of `{Area {x,y,w,h} (centre-based, normalised), Type, Name}`;
 *   - Microsoft Photo regions (Windows Photo Gallery): `MP:RegionInfo/MPRI:Regions` of
 *     `{Rectangle "x, y, w, h" (top-left based, normalised), PersonDisplayName}`.
 * Only named face regions become faces: without machine learning a name is what makes a person.
 */

import type { FaceBox } from '../model/asset.ts';

/** A named face region: a would-be face of a person of that name. */
export interface FaceRegion extends FaceBox {
  name: string;
}

type Tags = Record<string, unknown>;

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

const clamp = (value: number, max: number): number => Math.min(Math.max(Math.round(value), 0), max);

const box = (
  name: string,
  size: { width: number; height: number },
  left: number,
  top: number,
  w: number,
  h: number,
): FaceRegion | undefined => {
  if (![left, top, w, h].every((n) => Number.isFinite(n)) || w <= 0 || h <= 0) return undefined;
  return {
    name,
    imageWidth: size.width,
    imageHeight: size.height,
    boundingBoxX1: clamp(left * size.width, size.width),
    boundingBoxY1: clamp(top * size.height, size.height),
    boundingBoxX2: clamp((left + w) * size.width, size.width),
    boundingBoxY2: clamp((top + h) * size.height, size.height),
  };
};

const mwgFaces = (tags: Tags, imageSize?: { width: number; height: number }): FaceRegion[] => {
  const regions = record(tags.Regions);
  if (!regions) return [];
  const applied = record(regions.AppliedToDimensions);
  const width = finite(applied?.w) ?? imageSize?.width;
  const height = finite(applied?.h) ?? imageSize?.height;
  if (!width || !height) return [];
  return list(regions.RegionList).flatMap((entry) => {
    const region = record(entry);
    const area = record(region?.Area);
    const name = nameOf(region?.Name);
    if (!region || !area || !name || (region.Type !== undefined && region.Type !== 'Face')) return [];
    if (area.unit !== undefined && area.unit !== 'normalized') return [];
    const [x, y, w, h] = [finite(area.x), finite(area.y), finite(area.w), finite(area.h)];
    if (x === undefined || y === undefined || w === undefined || h === undefined) return [];
    const face = box(name, { width, height }, x - w / 2, y - h / 2, w, h);
    return face ? [face] : [];
  });
};

const microsoftFaces = (tags: Tags, imageSize?: { width: number; height: number }): FaceRegion[] => {
  const info = record(tags.RegionInfo);
  if (!info || !imageSize) return [];
  return list(info.Regions).flatMap((entry) => {
    const region = record(entry);
    const name = nameOf(region?.PersonDisplayName);
    const rectangle = typeof region?.Rectangle === 'string' ? region.Rectangle.split(',').map((part) => Number(part.trim())) : [];
    if (!name || rectangle.length !== 4) return [];
    const [x, y, w, h] = rectangle as [number, number, number, number];
    const face = box(name, imageSize, x, y, w, h);
    return face ? [face] : [];
  });
};

/** Every named face region of the file, MWG first; a region both conventions describe counts once. */
export const faceRegionsOf = (tags: Tags, imageSize?: { width: number; height: number }): FaceRegion[] => {
  const faces = [...mwgFaces(tags, imageSize), ...microsoftFaces(tags, imageSize)];
  const seen = new Set<string>();
  return faces.filter((face) => {
    const key = [face.name.toLowerCase(), face.boundingBoxX1, face.boundingBoxY1, face.boundingBoxX2, face.boundingBoxY2].join('|');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};
