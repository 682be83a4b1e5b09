import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { placesIndexPath } from '#infra/tools/places-index.ts';
import { canonicalCountry, countryNameOfCode } from '#shared/domain/countries.ts';
import { PlacesIndex } from '#shared/domain/places.ts';

/**
 * One country, one name (docs/places.md): a file's country takes the name a geocoded photo of that
 * country gets, which is i18n-iso-countries' `getName(code, 'en')` (Immich's), as the places index holds it.
 */
const countries = createRequire(import.meta.url)('i18n-iso-countries') as {
  getAlpha2Codes(): Record<string, string>;
  getName(code: string, lang: string): string | undefined;
};
const index = new PlacesIndex(readFileSync(placesIndexPath));

describe('the name of a country', () => {
  it("is i18n-iso-countries' getName(code, 'en') for every code, the name the places index gives", () => {
    const codes = Object.keys(countries.getAlpha2Codes());
    expect(codes.length).toBeGreaterThan(240);
    for (const code of codes) {
      expect(countryNameOfCode(code), code).toBe(countries.getName(code, 'en') ?? null);
      expect(countryNameOfCode(code), code).toBe(index.countryName(code));
    }
    expect(countryNameOfCode('ZZ')).toBeNull();
  });

  it('names a file’s country as a geocoded one, whatever English form or code the file gives', () => {
    const usa = 'United States of America';
    for (const written of ['United States', 'united states', 'USA', 'U.S.A.', 'U.S.', 'US', ' United  States ', usa]) {
      expect(canonicalCountry(written), written).toBe(usa);
    }
    expect(canonicalCountry('UK')).toBe('United Kingdom');
    expect(canonicalCountry('Great Britain')).toBe('United Kingdom');
    expect(canonicalCountry('Czechia')).toBe('Czech Republic');
    expect(canonicalCountry('The Netherlands')).toBe('Netherlands');
    expect(canonicalCountry('Russia')).toBe('Russian Federation');
    // Accents and case aside.
    expect(canonicalCountry("Cote d'Ivoire")).toBe(countries.getName('CI', 'en'));
    expect(canonicalCountry("CÔTE D'IVOIRE")).toBe(countries.getName('CI', 'en'));
    // The file's ISO code (IPTC CountryCode: two or three letters) says which, whatever the name's language.
    expect(canonicalCountry('Deutschland', 'DE')).toBe('Germany');
    expect(canonicalCountry('Vereinigte Staaten', 'USA')).toBe(usa);
    expect(canonicalCountry('Scotland', 'gb')).toBe('United Kingdom');
  });

  it('keeps a name it cannot tell as written, and names no country from a code alone', () => {
    expect(canonicalCountry('Narnia')).toBe('Narnia');
    expect(canonicalCountry('Narnia', 'XX')).toBe('Narnia');
    expect(canonicalCountry('Bavaria')).toBe('Bavaria');
    expect(canonicalCountry(null, 'US')).toBeNull();
    expect(canonicalCountry(null)).toBeNull();
  });
});
