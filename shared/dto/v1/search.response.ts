import type { AssetRecord, FaceRecord } from '../../model/asset.ts';
import type { PersonRecord } from '../../model/person.ts';
import { type AssetResponseDto, mapAsset } from './asset.response.ts';

export const mapSearchHit = (
  hit: { asset: AssetRecord; faces?: readonly FaceRecord[]; people?: ReadonlyMap<string, PersonRecord> },
  callerId: string,
  withExif: boolean,
): AssetResponseDto =>
  mapAsset(hit.asset, { callerId, withExif, ...(hit.faces && hit.people ? { faces: hit.faces, people: hit.people } : {}) });

export interface SearchResponseDto {
  albums: { total: number; count: number; items: unknown[]; facets: unknown[] };
  assets: { total: number; count: number; items: AssetResponseDto[]; facets: unknown[]; nextPage: string | null };
}

export const searchResponse = (items: AssetResponseDto[], nextPage: string | null): SearchResponseDto => ({
  albums: { total: 0, count: 0, items: [], facets: [] },
  assets: { total: items.length, count: items.length, items, facets: [], nextPage },
});

export interface SearchExploreResponseDto {
  fieldName: string;
  items: { value: string; data: AssetResponseDto }[];
}

export const mapExplore = (cities: readonly { city: string; asset: AssetRecord }[], callerId: string): SearchExploreResponseDto[] => [
  {
    fieldName: 'exifInfo.city',
    items: cities.map(({ city, asset }) => ({ value: city, data: mapAsset(asset, { callerId, withExif: true }) })),
  },
  { fieldName: 'smartInfo.tags', items: [] },
];
