import { assetItem } from '#shared/db/items/asset.ts';
import type { AssetRecord } from '#shared/model/asset.ts';
import { putItems } from './bulk-write.ts';
import { assetRecord } from './records.ts';

/** A place's names as a marker carries them (city, state, country). */
export type PlaceNames = { city: string; state: string; country: string };

/** Short Latin place names: about 140 bytes a marker (a third of them unnamed). */
export const paris: PlaceNames = { city: 'Paris', state: 'Île-de-France', country: 'France' };

/**
 * Bangkok by its full ceremonial name, in Thai script (three bytes of UTF-8 a letter): about 450
 * bytes a marker (a third of them unnamed), so a third as many markers make an answer as large.
 */
export const bangkok: PlaceNames = {
  city: 'กรุงเทพมหานคร อมรรัตนโกสินทร์ มหินทรายุธยา มหาดิลกภพ นพรัตนราชธานีบุรีรมย์ อุดมราชนิเวศน์มหาสถาน อมรพิมานอวตารสถิต สักกะทัตติยวิษณุกรรมประสิทธิ์',
  state: 'กรุงเทพมหานคร',
  country: 'ประเทศไทย',
};

/**
 * A large library's positioned assets, written straight to the table with the product's item
 * builder (as test/bench/scale/generate.ts does): the map's markers at scale (docs/places.md,
 * "The map"). Deterministic for a seed: dates over 20 years (many sharing a minute, so the id
 * orders ties), positions with every digit a real one has, a few trashed, archived and favourite,
 * every third without place names and the others named `place`.
 */
export const geoLibrary = (ownerId: string, count: number, seed = 1, place: PlaceNames = paris): AssetRecord[] => {
  let state = seed * 2_654_435_761;
  const random = (): number => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const start = Date.UTC(2005, 0, 1);
  const minutes = 20 * 365 * 24 * 60;
  return Array.from({ length: count }, (_, i) => {
    // A tenth of them at one of a few hundred instants: ties, ordered by id.
    const minute = i % 10 === 0 ? Math.floor(random() * 300) * 1_000 : Math.floor(random() * minutes);
    const roll = random();
    return assetRecord(ownerId, {
      at: new Date(start + minute * 60_000).toISOString(),
      ...(roll < 0.02 ? { deletedAt: '2025-01-01T00:00:00.000Z' } : {}),
      ...(roll >= 0.02 && roll < 0.05 ? { visibility: 'archive' as const } : {}),
      isFavorite: roll > 0.9,
      exif: {
        latitude: -60 + random() * 130,
        longitude: -180 + random() * 360,
        city: i % 3 === 0 ? null : place.city,
        state: i % 3 === 0 ? null : place.state,
        country: i % 3 === 0 ? null : place.country,
      },
    });
  });
};

/** The records as their items, in the table. */
export const writeLibrary = (records: readonly AssetRecord[]): Promise<void> => putItems(records.map(assetItem));

/** Immich's answer for these records as its clients get it: the kept ones newest first (the id for ties), each marker's fields in order. */
export const markersOf = (records: readonly AssetRecord[], keep: (record: AssetRecord) => boolean): string =>
  JSON.stringify(
    records
      .filter((record) => record.deletedAt === null && keep(record))
      .sort((a, b) =>
        a.fileCreatedAt !== b.fileCreatedAt ? (a.fileCreatedAt < b.fileCreatedAt ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0,
      )
      .map((record) => ({
        id: record.id,
        lat: record.exif.latitude,
        lon: record.exif.longitude,
        city: record.exif.city,
        state: record.exif.state,
        country: record.exif.country,
      })),
  );
