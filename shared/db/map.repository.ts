import type { AssetRecord, AssetVisibility } from '../model/asset.ts';
import { legacyVisibility } from './items/legacy.ts';
import { assetIdOfPk, dateOrder } from './keys.ts';
import * as partitions from './partitions.ts';
import { queryPages } from './query.ts';

/** An asset with a position, as the map index holds it (docs/data-model.md pattern 81). */
export interface PositionedAsset {
  assetId: string;
  ownerId: string;
  fileCreatedAt: string;
  latitude: number;
  longitude: number;
  city: string | null;
  state: string | null;
  country: string | null;
  visibility: AssetVisibility;
  deletedAt: string | null;
  isFavorite: boolean;
}

/** An asset as a positioned asset (one read by key: an album's), or undefined without a position. */
export const positionOf = (asset: AssetRecord): PositionedAsset | undefined => {
  const { latitude, longitude, city, state, country } = asset.exif;
  if (latitude === null || longitude === null) return undefined;
  return {
    assetId: asset.id,
    ownerId: asset.ownerId,
    fileCreatedAt: asset.fileCreatedAt,
    latitude,
    longitude,
    city,
    state,
    country,
    visibility: asset.visibility,
    deletedAt: asset.deletedAt,
    isFavorite: asset.isFavorite,
  };
};

/** A taken window: assets taken within [after, before], either bound may be absent. */
export interface MapWindow {
  after?: string;
  before?: string;
}

/** A range of the map index's sort keys (`<fileCreatedAt>#<assetId>`), inclusive; either bound may be absent. */
export interface KeyRange {
  from?: string;
  to?: string;
}

const windowRange = (window: MapWindow): KeyRange => ({
  ...(window.after ? { from: window.after } : {}),
  ...(window.before ? { to: dateOrder(window.before, '\uffff') } : {}),
});

/** The newest or the oldest sort key in a range (one Query of one key). */
const edgeKey = async (ownerId: string, range: KeyRange, descending: boolean): Promise<string | undefined> => {
  for await (const page of queryPages(partitions.geo(ownerId), { ...range, descending, pageSize: 1, attributes: ['gsi1sk'] }))
    return typeof page[0]?.gsi1sk === 'string' ? page[0].gsi1sk : undefined;
  return undefined;
};

/**
 * An owner's window in the map index cut into at most `count` consecutive key ranges, newest
 * first, of equal spans of time between its oldest and newest asset (two Queries of one key
 * each): each range is read on its own, several at once. The ranges cover the window exactly,
 * whatever the keys' dates look like: a bound is a date without `#`, so it is never a key, and
 * every key falls in one range. None when the window holds nothing.
 */
export const positionedRanges = async (ownerId: string, window: MapWindow, count: number): Promise<KeyRange[]> => {
  const whole = windowRange(window);
  const [newest, oldest] = await Promise.all([edgeKey(ownerId, whole, true), edgeKey(ownerId, whole, false)]);
  if (newest === undefined || oldest === undefined) return [];
  const high = Date.parse(newest.slice(0, newest.lastIndexOf('#')));
  const low = Date.parse(oldest.slice(0, oldest.lastIndexOf('#')));
  // Bounds strictly between the two keys, newest first (a date past what toISOString writes in 24 characters is left out).
  const bounds: string[] = [];
  if (Number.isFinite(high) && Number.isFinite(low) && high > low)
    for (let i = 1; i < count; i++) {
      const bound = new Date(high - ((high - low) * i) / count).toISOString();
      if (bound < newest && bound > oldest && bound < (bounds.at(-1) ?? newest)) bounds.push(bound);
    }
  return [...bounds, undefined].map((from, i) => {
    const to = i === 0 ? whole.to : bounds[i - 1];
    const lower = from ?? whole.from;
    return { ...(lower !== undefined ? { from: lower } : {}), ...(to !== undefined ? { to } : {}) };
  });
};

/** A map index item as a positioned asset, or undefined without a position. */
const positionedOf = (ownerId: string, item: Record<string, unknown>): PositionedAsset | undefined => {
  const exif = (item.exif ?? {}) as Partial<AssetRecord['exif']>;
  if (typeof exif.latitude !== 'number' || typeof exif.longitude !== 'number') return undefined;
  return {
    assetId: assetIdOfPk(item.pk),
    ownerId,
    fileCreatedAt: String(item.gsi1sk).slice(0, String(item.gsi1sk).lastIndexOf('#')),
    latitude: exif.latitude,
    longitude: exif.longitude,
    city: exif.city ?? null,
    state: exif.state ?? null,
    country: exif.country ?? null,
    visibility: (item.visibility as AssetVisibility | undefined) ?? legacyVisibility(item),
    deletedAt: typeof item.deletedAt === 'string' ? item.deletedAt : null,
    isFavorite: item.isFavorite === true,
  };
};

/** An owner's assets with a position in a key range, newest first, a Query page (`pageSize` at most) at a time. */
export async function* positionedPages(ownerId: string, range: KeyRange, pageSize = 500): AsyncGenerator<PositionedAsset[], void, void> {
  for await (const page of queryPages(partitions.geo(ownerId), { descending: true, pageSize, ...range }))
    yield page.flatMap((item) => positionedOf(ownerId, item) ?? []);
}
