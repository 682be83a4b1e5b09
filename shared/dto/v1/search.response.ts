import type { CityAsset, SearchHit } from '../../model/asset.ts';
import { type AssetResponseDto, mapAsset } from './asset.response.ts';

/** A metadata search's result with EXIF when asked for (`withExif`), and its people when loaded. */
export const mapSearchHit = (hit: SearchHit, callerId: string, withExif: boolean): AssetResponseDto =>
  mapAsset(hit.asset, { callerId, withExif, ...(hit.faces && hit.people ? { faces: hit.faces, people: hit.people } : {}) });

export interface SearchResponseDto {
  albums: { total: number; count: number; items: unknown[]; facets: unknown[] };
  assets: { total: number; count: number; items: AssetResponseDto[]; facets: unknown[]; nextPage: string | null };
}

/** A page of assets as Immich's SearchResponseDto (no album results here); `nextPage` names the next page when there is one. */
export const searchResponse = (items: AssetResponseDto[], nextPage: string | null): SearchResponseDto => ({
  albums: { total: 0, count: 0, items: [], facets: [] },
  assets: { total: items.length, count: items.length, items, facets: [], nextPage },
});

export interface SearchExploreResponseDto {
  fieldName: string;
  items: { value: string; data: AssetResponseDto }[];
}

/** The explore page: a city field with an asset each, and the smart-info tags field, empty without machine learning. */
export const mapExplore = (cities: readonly CityAsset[], callerId: string): SearchExploreResponseDto[] => [
  {
    fieldName: 'exifInfo.city',
    items: cities.map(({ city, asset }) => ({ value: city, data: mapAsset(asset, { callerId, withExif: true }) })),
  },
  { fieldName: 'smartInfo.tags', items: [] },
];
