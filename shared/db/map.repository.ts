import type { AssetRecord, AssetVisibility } from '../model/asset.ts';
import { legacyVisibility } from './items/legacy.ts';
import { assetIdOfPk, dateOrder, partitions } from './keys.ts';
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

/**
 * An owner's assets with a position taken within [after, before] (either may be absent), newest
 * first: the map index's projection alone (the EXIF map and the flags a marker filters on).
 */
export const listPositionedAssets = async (
  ownerId: string,
  window: { after?: string; before?: string } = {},
): Promise<PositionedAsset[]> => {
  const found: PositionedAsset[] = [];
  const range = { ...(window.after ? { from: window.after } : {}), ...(window.before ? { to: dateOrder(window.before, '\uffff') } : {}) };
  for await (const page of queryPages(partitions.geo(ownerId), { descending: true, pageSize: 1000, ...range })) {
    for (const item of page) {
      const exif = (item.exif ?? {}) as Partial<AssetRecord['exif']>;
      if (typeof exif.latitude !== 'number' || typeof exif.longitude !== 'number') continue;
      found.push({
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
      });
    }
  }
  return found;
};
