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

/** Every word an asset can be found by: camera, lens, place, description, file name and its people's names. */
export const assetTerms = (asset: AssetRecord, peopleNames: readonly string[]): string[] => {
  const { make, model, lensModel, city, state, country, description } = asset.exif;
  return [...new Set([make, model, lensModel, city, state, country, description, asset.originalFileName, ...peopleNames].flatMap(words))];
};
