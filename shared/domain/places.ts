/**
 * Reverse geocoding as Immich does it (docs/places.md): the nearest populated place of GeoNames'
 * cities500 whose position lies in the 25 km "earth box" around a point (PostgreSQL earthdistance's
 * `earth_box(ll_to_earth(lat, lon), 25000) @> earthCoord`, ordered by `earth_distance`), its
 * admin-1 name as the state and its country's English name as the country; nothing within the box:
 * nulls. Over the compact index built at install time (infra/tools/places-index.ts), read here
 * without copying: typed-array views of one file, looked up in microseconds.
 *
 * The index file: the magic `IMPL`, a format version and the JSON header's length (each uint32,
 * little-endian), the JSON header, then the sections the header lists, each 4-byte aligned.
 */
import type { Place, PlaceNames } from '../model/place.ts';
import { fold } from './search.ts';

export type { Place, PlaceNames } from '../model/place.ts';

/** earthdistance's `earth()`: the radius of its sphere, in metres. */
export const earthRadius = 6378168;

/** Immich's `reverseGeocodeMaxDistance`: the earth box's half side, as a great-circle distance. */
export const maxDistance = 25_000;

/** The grid the places are bucketed in: cells of this many degrees, rows from the south pole, columns from −180°. */
const cellDegrees = 0.25;
const gridRows = 180 / cellDegrees;
export const gridColumns = 360 / cellDegrees;

/** Coordinates are kept as integers of this many units a degree (about 1.1 m). */
export const coordinateScale = 100_000;

export const indexMagic = 0x4c504d49; // 'IMPL', little-endian
export const indexVersion = 1;

/** The JSON header: the lookup tables and where each section lies in the file. */
export interface IndexHeader {
  /** Where the data comes from (docs/places.md): package names and versions. */
  sources: string[];
  /** When it was built (ISO 8601): Immich's reverse-geocoding state's `lastUpdate`. */
  builtAt: string;
  places: number;
  cells: number;
  /** English country names, by country index (Immich's i18n-iso-countries `getName(code, 'en')`). */
  countries: string[];
  /** ISO 3166-1 alpha-2 codes, by country index. */
  countryCodes: string[];
  /** Every English country name i18n-iso-countries has, by alpha-2 code (a country with no place in the index too). */
  countryNames: Record<string, string>;
  /** Admin-1 names (Immich's `admin1Name`), by index; 0 is none (''). */
  admin1: string[];
  /** Admin-2 names (`admin2Name`), by index; 0 is none (''). */
  admin2: string[];
  /** Byte offset and length of each section. */
  sections: Record<SectionName, { offset: number; length: number }>;
}

/**
 * The sections, places sorted by cell then by their own order:
 * `latitude`, `longitude` (int32, × coordinateScale); `country`, `admin1`, `admin2` (uint16
 * indexes of the header's tables); `nameStart` (uint32, places + 1 offsets into `names`, UTF-8);
 * `cellIds` (uint32, the occupied cells in order), `cellStart` (uint32, cells + 1 place indexes);
 * `byName` (uint32, place indexes in the order of their folded names: the place search).
 */
export type SectionName =
  | 'latitude'
  | 'longitude'
  | 'country'
  | 'admin1'
  | 'admin2'
  | 'nameStart'
  | 'names'
  | 'cellIds'
  | 'cellStart'
  | 'byName';

export const noPlace: PlaceNames = { city: null, state: null, country: null };

/** The grid cell of a position (a latitude of 90 is in the last row, a longitude of 180 in the first column). */
export const cellOf = (latitude: number, longitude: number): number => {
  const row = Math.min(gridRows - 1, Math.max(0, Math.floor((latitude + 90) / cellDegrees)));
  const column = (((Math.floor((longitude + 180) / cellDegrees) % gridColumns) + gridColumns) % gridColumns) as number;
  return row * gridColumns + column;
};

const radians = Math.PI / 180;

/** earthdistance's `ll_to_earth`: a point of the sphere in metres. */
const toEarth = (latitude: number, longitude: number): [number, number, number] => {
  const lat = latitude * radians;
  const lon = longitude * radians;
  return [earthRadius * Math.cos(lat) * Math.cos(lon), earthRadius * Math.cos(lat) * Math.sin(lon), earthRadius * Math.sin(lat)];
};

/** earthdistance's `gc_to_sec`: a great-circle distance as the straight line (chord) between its ends. */
const greatCircleToChord = (distance: number): number =>
  distance <= 0 ? 0 : distance / earthRadius > Math.PI ? 2 * earthRadius : 2 * earthRadius * Math.sin(distance / (2 * earthRadius));

/** earthdistance's `sec_to_gc`: a chord as the great-circle distance. */
export const chordToGreatCircle = (chord: number): number =>
  chord >= 2 * earthRadius ? Math.PI * earthRadius : 2 * earthRadius * Math.asin(chord / (2 * earthRadius));

/** The earth box's half side: every point of the box is within √3 times it (in a straight line). */
const boxHalfSide = greatCircleToChord(maxDistance);
/** The box's reach in degrees of arc, with a margin: the grid rows and columns a lookup reads. */
const reachDegrees = (chordToGreatCircle(boxHalfSide * Math.sqrt(3)) / earthRadius / radians) * 1.01;

/** A loaded index: typed-array views over the file's bytes. */
export class PlacesIndex {
  readonly header: IndexHeader;
  private readonly latitude: Int32Array;
  private readonly longitude: Int32Array;
  private readonly country: Uint16Array;
  private readonly admin1: Uint16Array;
  private readonly admin2: Uint16Array;
  private readonly nameStart: Uint32Array;
  private readonly names: Uint8Array;
  private readonly cellIds: Uint32Array;
  private readonly cellStart: Uint32Array;
  private readonly byName: Uint32Array;
  private readonly decoder = new TextDecoder();

  constructor(bytes: Uint8Array) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (view.getUint32(0, true) !== indexMagic) throw new Error('Not a places index');
    if (view.getUint32(4, true) !== indexVersion) throw new Error('A places index of another version: run `npm run places-index`');
    const headerLength = view.getUint32(8, true);
    this.header = JSON.parse(this.decoder.decode(bytes.subarray(12, 12 + headerLength))) as IndexHeader;
    const section = <T>(name: SectionName, make: (buffer: ArrayBufferLike, offset: number, length: number) => T, size: number): T => {
      const { offset, length } = this.header.sections[name];
      return make(bytes.buffer, bytes.byteOffset + offset, length / size);
    };
    this.latitude = section('latitude', (b, o, l) => new Int32Array(b, o, l), 4);
    this.longitude = section('longitude', (b, o, l) => new Int32Array(b, o, l), 4);
    this.country = section('country', (b, o, l) => new Uint16Array(b, o, l), 2);
    this.admin1 = section('admin1', (b, o, l) => new Uint16Array(b, o, l), 2);
    this.admin2 = section('admin2', (b, o, l) => new Uint16Array(b, o, l), 2);
    this.nameStart = section('nameStart', (b, o, l) => new Uint32Array(b, o, l), 4);
    this.names = section('names', (b, o, l) => new Uint8Array(b, o, l), 1);
    this.cellIds = section('cellIds', (b, o, l) => new Uint32Array(b, o, l), 4);
    this.cellStart = section('cellStart', (b, o, l) => new Uint32Array(b, o, l), 4);
    this.byName = section('byName', (b, o, l) => new Uint32Array(b, o, l), 4);
  }

  get size(): number {
    return this.header.places;
  }

  /** The place at an index of the file's order. */
  place(index: number): Place {
    const country = this.country[index] ?? 0;
    return {
      name: this.nameAt(index),
      latitude: (this.latitude[index] ?? 0) / coordinateScale,
      longitude: (this.longitude[index] ?? 0) / coordinateScale,
      country: this.header.countries[country] || null,
      countryCode: this.header.countryCodes[country] ?? '',
      admin1: this.header.admin1[this.admin1[index] ?? 0] || null,
      admin2: this.header.admin2[this.admin2[index] ?? 0] || null,
    };
  }

  /** The first occupied cell at or after `cell` (an index into cellIds). */
  private firstCellFrom(cell: number): number {
    let low = 0;
    let high = this.cellIds.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.cellIds[middle] ?? 0) < cell) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Visits the places of the cells from `first` to `last` of one row. */
  private visitCells(first: number, last: number, visit: (index: number) => void): void {
    for (let cell = this.firstCellFrom(first); cell < this.cellIds.length && (this.cellIds[cell] ?? 0) <= last; cell++) {
      const end = this.cellStart[cell + 1] ?? 0;
      for (let index = this.cellStart[cell] ?? 0; index < end; index++) visit(index);
    }
  }

  /**
   * The place Immich's query finds: in the earth box of `maxDistance` around the point, the
   * nearest by great-circle distance (ties: the file's order); undefined when the box holds none.
   */
  nearest(latitude: number, longitude: number): { place: Place; distance: number } | undefined {
    const [x, y, z] = toEarth(latitude, longitude);
    let best = -1;
    let bestChord = Number.POSITIVE_INFINITY;
    const visit = (index: number) => {
      const [px, py, pz] = toEarth((this.latitude[index] ?? 0) / coordinateScale, (this.longitude[index] ?? 0) / coordinateScale);
      const dx = px - x;
      const dy = py - y;
      const dz = pz - z;
      if (Math.abs(dx) > boxHalfSide || Math.abs(dy) > boxHalfSide || Math.abs(dz) > boxHalfSide) return;
      const chord = Math.sqrt(dx * dx + dy * dy + dz * dz);
      if (chord < bestChord || (chord === bestChord && index < best)) {
        best = index;
        bestChord = chord;
      }
    };
    const south = Math.max(-90, latitude - reachDegrees);
    const north = Math.min(90, latitude + reachDegrees);
    const firstRow = Math.floor(cellOf(south, 0) / gridColumns);
    const lastRow = Math.floor(cellOf(north, 0) / gridColumns);
    // The widest the box gets in longitude is at the band's edge nearest a pole; near one, every longitude.
    const widest = Math.max(Math.abs(south), Math.abs(north));
    const span = widest >= 89 ? 180 : reachDegrees / Math.cos(widest * radians);
    for (let row = firstRow; row <= lastRow; row++) {
      const base = row * gridColumns;
      if (span >= 180) {
        this.visitCells(base, base + gridColumns - 1, visit);
        continue;
      }
      const west = cellOf(0, longitude - span) % gridColumns;
      const east = cellOf(0, longitude + span) % gridColumns;
      if (west <= east) this.visitCells(base + west, base + east, visit);
      else {
        // Across the antimeridian: the row's two ends.
        this.visitCells(base + west, base + gridColumns - 1, visit);
        this.visitCells(base, base + east, visit);
      }
    }
    return best < 0 ? undefined : { place: this.place(best), distance: chordToGreatCircle(bestChord) };
  }

  /** Immich's `reverseGeocode`: city, state (admin-1) and country of the nearest place, or nulls. */
  reverseGeocode(latitude: number, longitude: number): PlaceNames {
    const found = this.nearest(latitude, longitude);
    if (!found) return noPlace;
    const { name, admin1, country } = found.place;
    return { city: name, state: admin1, country };
  }

  /** A country's English name as Immich writes it, by its alpha-2 code; null for a code without one. */
  countryName(code: string): string | null {
    return this.header.countryNames[code] ?? null;
  }

  /** A place's name (an index of the file's order). */
  nameAt(index: number): string {
    return this.decoder.decode(this.names.subarray(this.nameStart[index], this.nameStart[index + 1]));
  }

  /** The places in the order of their folded names (the place search). */
  get nameOrder(): Uint32Array {
    return this.byName;
  }
}

/**
 * Places whose name starts with `name`, compared as the search does (accents removed, case
 * ignored): whole-name matches first, then shorter names, at most `limit`. (A function of its
 * own, not a method: the functions that only look points up leave it out of their bundles.)
 */
export const searchByName = (index: PlacesIndex, name: string, limit = 20): Place[] => {
  const wanted = fold(name.trim());
  if (wanted === '') return [];
  const order = index.nameOrder;
  const folded = (position: number) => fold(index.nameAt(order[position] ?? 0));
  let low = 0;
  let high = order.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (folded(middle) < wanted) low = middle + 1;
    else high = middle;
  }
  const found: { at: number; name: string }[] = [];
  // Enough of the matches to rank: a prefix's whole-name match comes first in this order.
  for (let position = low; position < order.length && found.length < 500; position++) {
    const candidate = folded(position);
    if (!candidate.startsWith(wanted)) break;
    found.push({ at: order[position] ?? 0, name: candidate });
  }
  return found
    .sort((a, b) => Number(b.name === wanted) - Number(a.name === wanted) || a.name.length - b.name.length || a.at - b.at)
    .slice(0, limit)
    .map(({ at }) => index.place(at));
};

/** The order `byName` is sorted in: folded names, compared by code unit (as `<` compares them). */
export const compareFolded = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
