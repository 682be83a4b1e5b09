/**
 * One name per country (docs/places.md, "One country, one name"): the English name Immich gives a
 * country it geocodes, i18n-iso-countries' `getName(code, 'en')` ("United States of America",
 * "United Kingdom", "Czech Republic"), which the places index holds for every place. A file's own
 * country (IPTC, XMP, a sidecar) is written by people and their tools in many forms ("United
 * States", "USA", "U.S.A.", a code); read through these tables it takes the same name, so a
 * library's photos show one country, not two, in Explore, the places page and the suggestions.
 *
 * From i18n-iso-countries' own data (the package the index is built from, at the same version):
 * its English names with their other forms, and its alpha-2 and alpha-3 codes; 17 KB of JSON.
 */
import codes from 'i18n-iso-countries/codes.json' with { type: 'json' };
import english from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

/** A name as compared: case, accents, periods and runs of spaces aside (`U.S.A.` is `usa`). */
const fold = (name: string): string =>
  name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\./g, '').replace(/\s+/g, ' ').trim();

const names = english.countries as Record<string, string | string[]>;

/**
 * The tables, built on first use rather than at import: folding every English form (an NFKD
 * normalization and a Unicode pattern each, about 400 names) is work the upload and media functions
 * otherwise paid at every cold start, where most photos (a phone's, placed by their position) never
 * ask (docs/benchmarks.md, "The background backup path").
 */
const buildTables = () => ({
  /** Immich's name of each country, by alpha-2 code: the first of i18n-iso-countries' English forms. */
  nameByCode: new Map(Object.entries(names).map(([code, forms]) => [code, Array.isArray(forms) ? (forms[0] as string) : forms])),
  /** Every English form of a country's name, folded, to its alpha-2 code. */
  codeByName: new Map(
    Object.entries(names).flatMap(([code, forms]) => (Array.isArray(forms) ? forms : [forms]).map((form) => [fold(form), code] as const)),
  ),
  /** ISO 3166-1 codes (alpha-2 and alpha-3), upper-cased, to the alpha-2. */
  codeByCode: new Map((codes as string[][]).flatMap(([alpha2, alpha3]) => [[alpha2, alpha2] as const, [alpha3, alpha2] as const])),
});

let tables: ReturnType<typeof buildTables> | undefined;
const built = () => (tables ??= buildTables());

/** The name Immich gives the country of an ISO 3166-1 alpha-2 code, or null for none. */
export const countryNameOfCode = (code: string): string | null => built().nameByCode.get(code.toUpperCase()) ?? null;

/**
 * A file's country as Immich names countries: by the file's ISO code (IPTC `CountryCode`,
 * XMP `Iptc4xmpCore:CountryCode`: two or three letters), else by its name in any English form
 * i18n-iso-countries knows. A name neither tells (a region, a language it does not know) is kept
 * as written; no name, no country (a code alone names none: the position's place is looked up then).
 */
export const canonicalCountry = (name: string | null, code?: string | null): string | null => {
  if (name === null || name.trim() === '') return name;
  const { nameByCode, codeByName, codeByCode } = built();
  const byCode = code ? codeByCode.get(code.trim().toUpperCase()) : undefined;
  const alpha2 = byCode ?? codeByName.get(fold(name)) ?? codeByCode.get(name.trim().toUpperCase());
  return (alpha2 && nameByCode.get(alpha2)) ?? name;
};
