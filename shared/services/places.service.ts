/**
 * Places (docs/places.md): reverse geocoding of an asset's position as Immich's metadata job does
 * it, the place search, and one point's names (v3's map).
 */
import { inBatches } from '../core/concurrency.ts';
import { log } from '../core/log.ts';
import * as assetRepo from '../db/asset.repository.ts';
import * as configRepo from '../db/config.repository.ts';
import * as personRepo from '../db/person.repository.ts';
import * as termRepo from '../db/term.repository.ts';
import { canonicalCountry } from '../domain/countries.ts';
import { noPlace, type Place, type PlaceNames, PlacesIndex, searchByName } from '../domain/places.ts';
import { assetTerms } from '../domain/terms.ts';
import type { AssetRecord } from '../model/asset.ts';
import { readPlacesIndex } from '../storage/places-index.ts';

let loaded: PlacesIndex | undefined;

/** The index, read on first use and kept for the life of the process (typed-array views over one read). */
const placesIndex = (): PlacesIndex => {
  loaded ??= new PlacesIndex(readPlacesIndex());
  return loaded;
};

// `reverseGeocoding.enabled` alone (on unless turned off), cached as readConfig caches the settings,
// without the whole configuration: the functions that name places after a new position need no other.
const reverseGeocodingEnabled = async (): Promise<boolean> => (await configRepo.getStoredSetting('reverseGeocoding.enabled')) !== false;

// country-coder (its outlines are 680 KB of code): loaded on the first position no place is near,
// from beside the bundle (`countries` in lazyModules, infra/cdk/bundling.ts).
let countryCoder: Promise<typeof import('@rapideditor/country-coder')> | undefined;

/**
 * The country whose land holds a point, as Immich v3 falls back to Natural Earth's outlines:
 * country-coder's, at the level of Natural Earth's countries (Greenland, Puerto Rico, Hong Kong
 * apart), named as Immich names countries (Antarctica too); null at sea.
 */
const countryAt = async (latitude: number, longitude: number): Promise<string | null> => {
  countryCoder ??= import('@rapideditor/country-coder');
  const code = (await countryCoder).iso1A2Code([longitude, latitude], { level: 'territory' });
  return code ? placesIndex().countryName(code) : null;
};

/**
 * The place names of a position, as Immich v3: the nearest place within its distance; else the
 * country alone, when the point is on a country's land; else nulls.
 */
export const placeNamesAt = async (latitude: number, longitude: number): Promise<PlaceNames> => {
  const named = placesIndex().reverseGeocode(latitude, longitude);
  if (named.city !== null) return named;
  const country = await countryAt(latitude, longitude);
  return country ? { city: null, state: null, country } : noPlace;
};

/**
 * Immich's reverse-geocoding state (v3's GET /system-metadata/reverse-geocoding-state): when the
 * places were last imported (the index's build) and from what (Immich's `cities500.txt`).
 */
export const reverseGeocodingState = (): { lastUpdate: string; lastImportFileName: string } => ({
  lastUpdate: placesIndex().header.builtAt,
  lastImportFileName: 'cities500.txt',
});

/** Places whose name starts with `name` (GET /search/places). */
export const searchPlaces = (name: string): Place[] => searchByName(placesIndex(), name);

/** What reverse geocoding did to an asset. */
export type PlacesOutcome = 'named' | 'unchanged' | 'file' | 'gone';

const samePlaces = (a: PlaceNames, b: PlaceNames): boolean => a.city === b.city && a.state === b.state && a.country === b.country;

/**
 * Immich's metadata job's places for one asset: with reverse geocoding on and a position, the
 * names of the nearest place (nulls when there is none within the distance); with it off or no
 * position, none. Names the file itself gave (IPTC / XMP, a sidecar's) are kept, the country named as a geocoded one is.
 * A change moves the asset's search postings (the new words written before, the dropped ones
 * deleted after), its place indexes and place facet counters, and gives it a new updatedAt and
 * change id (synced apps learn of it). `indexPosition`: put an asset stored before the map index
 * in it (the places job over a library). `enabled`: the setting as the caller read it already.
 */
export const placeAsset = async (
  assetId: string,
  options: { asset?: AssetRecord; indexPosition?: boolean; enabled?: boolean } = {},
): Promise<{ outcome: PlacesOutcome; asset?: AssetRecord }> => {
  const enabled = options.enabled ?? (await reverseGeocodingEnabled());
  let asset = options.asset ?? (await assetRepo.get(assetId));
  for (let attempt = 0; asset; attempt++) {
    const { latitude, longitude, city, state, country } = asset.exif;
    const positioned = latitude !== null && longitude !== null;
    const keep = async (outcome: PlacesOutcome) => {
      if (options.indexPosition && positioned && asset) await assetRepo.indexAssetPosition(asset);
      return { outcome, asset };
    };
    // The file's own names are kept, its country named as a geocoded one is (an asset stored before
    // that gets the name here: docs/places.md, "One country, one name").
    const fromFile = !asset.geocoded && (city !== null || state !== null || country !== null);
    const wanted = fromFile
      ? { city, state, country: canonicalCountry(country) }
      : enabled && positioned
        ? await placeNamesAt(latitude, longitude)
        : noPlace;
    if (samePlaces(wanted, { city, state, country })) return keep(fromFile ? 'file' : 'unchanged');
    const geocoded = !fromFile && !samePlaces(wanted, noPlace);
    const names = (await personRepo.getMany(asset.ownerId, asset.personIds)).map((person) => person.name);
    const before = new Set(assetTerms(asset, names));
    const after = new Set(assetTerms({ ...asset, exif: { ...asset.exif, ...wanted } }, names));
    await termRepo.writePostings(
      asset.ownerId,
      termRepo.postingsOf(
        asset,
        [...after].filter((term) => !before.has(term)),
      ),
    );
    const updated = await assetRepo.recordPlaces(asset, wanted, geocoded);
    if (updated.ok) {
      await termRepo.deletePostings(
        asset.ownerId,
        termRepo.postingsOf(
          asset,
          [...before].filter((term) => !after.has(term)),
        ),
      );
      return { outcome: fromFile ? 'file' : 'named', asset: updated.value };
    }
    if (attempt >= 5) throw new Error(`Asset ${assetId} kept changing while its places were recorded`);
    // Its position, names or state changed meanwhile: the asset as it is now.
    asset = await assetRepo.get(assetId);
  }
  return { outcome: 'gone' };
};

/** placeAsset for each of these assets, eight at a time, each also put on the map (the media function's places jobs). */
export const placeAssets = async (assetIds: readonly string[]): Promise<Map<string, PlacesOutcome>> => {
  const outcomes = new Map<string, PlacesOutcome>();
  await inBatches(assetIds, 8, async (assetId) => {
    outcomes.set(assetId, (await placeAsset(assetId, { indexPosition: true })).outcome);
  });
  return outcomes;
};

/**
 * placeAsset for the media job, with the settings it has read: a failure (no index in the bundle)
 * is logged and the previews are still made.
 */
export const placeAssetForJob = async (asset: AssetRecord, enabled: boolean): Promise<void> => {
  try {
    await placeAsset(asset.id, { asset, enabled });
  } catch (error) {
    log.error('Reverse geocoding failed', { assetId: asset.id, error: String(error) });
  }
};
