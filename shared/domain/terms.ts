import type { AssetRecord } from '../model/asset.ts';
import { fold } from './search.ts';

/** Longest term kept (longer words are cut): a term is part of a key. */
const maxTermLength = 64;

/**
 * The words of a text as GET /search compares them: accents removed, lower-cased, split at
 * anything that is not a letter or a digit. (Immich used PostgreSQL's English full-text search,
 * which also stems words and drops stop words; here words match whole.)
 */
export const words = (text: string | null | undefined): string[] =>
  text
    ? [
        ...new Set(
          fold(text)
            .split(/[^\p{L}\p{N}]+/u)
            .filter(Boolean)
            .map((word) => word.slice(0, maxTermLength)),
        ),
      ]
    : [];

/**
 * Most words an asset can be found by: each is an item written (a posting), so a 3,000-word
 * description must not cost 3,000 writes. The short, telling fields come first, the description last.
 */
const maxTermsPerAsset = 100;

/** Most words a name gives (a person's name is written on every one of their assets). */
const maxNameTerms = 20;

/**
 * The words an asset can be found by: its file name, its people's names, camera, lens, place and
 * description, in that order, at most `maxTermsPerAsset`. GET /search finds an asset by these and
 * checks every candidate against them.
 */
export const assetTerms = (asset: AssetRecord, peopleNames: readonly string[]): string[] => {
  const { make, model, lensModel, city, state, country, description } = asset.exif;
  const fields = [asset.originalFileName, ...peopleNames, make, model, lensModel, city, state, country, description];
  return [...new Set(fields.flatMap((field, index) => (index > 0 && index <= peopleNames.length ? nameTerms(field) : words(field))))].slice(
    0,
    maxTermsPerAsset,
  );
};

/** The words of a person's name that are written as postings. */
export const nameTerms = (name: string | null | undefined): string[] => words(name).slice(0, maxNameTerms);
