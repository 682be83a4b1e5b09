import { fold } from './search.ts';

/**
 * OCR text as search reads it (docs/immich-compatibility.md, "OCR"): Immich's `tokenizeForSearch`
 * (its server's utils/database.ts), written here from its description: split at whitespace (every
 * character up to U+0020), a run of CJK characters (Han, Hangul syllables, kana, CJK extension A)
 * as its overlapping pairs (a single one alone), anything else as one token up to the next space or
 * CJK character. Then each token unaccented and lower-cased (Immich's `f_unaccent`, and pg_trgm's
 * trigrams are case-blind).
 */
const isCjk = (c: number): boolean =>
  (c >= 0x4e00 && c <= 0x9fff) ||
  (c >= 0xac00 && c <= 0xd7af) ||
  (c >= 0x3040 && c <= 0x309f) ||
  (c >= 0x30a0 && c <= 0x30ff) ||
  (c >= 0x3400 && c <= 0x4dbf);

/** Immich's tokens of a text, as written (not folded). */
export const tokenizeForSearch = (text: string): string[] => {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c <= 32) {
      i++;
      continue;
    }
    const start = i;
    if (isCjk(c)) {
      while (i < text.length && isCjk(text.charCodeAt(i))) i++;
      if (i - start === 1) tokens.push(text.charAt(start));
      else for (let k = start; k < i - 1; k++) tokens.push(text.charAt(k) + text.charAt(k + 1));
    } else {
      while (i < text.length && text.charCodeAt(i) > 32 && !isCjk(text.charCodeAt(i))) i++;
      tokens.push(text.slice(start, i));
    }
  }
  return tokens;
};

/** Longest token kept (a longer one is cut): a token is part of a key. */
const maxTokenLength = 64;

/**
 * Most tokens an asset's text is indexed by: each is a posting written (and deleted by the next
 * run). A page of text has some hundreds of words; past this, the rest of the text is not searchable.
 */
export const maxOcrTokensPerAsset = 500;

/**
 * The distinct search tokens of texts, in order of first use: Immich's tokens, folded (unaccented,
 * lower-cased) and split at anything not a letter or a digit, as pg_trgm splits words (`"Hello,"`
 * is found by `hello`, `e-mail` by `mail`).
 */
export const ocrTokens = (texts: readonly string[]): string[] => {
  const seen = new Set<string>();
  for (const text of texts)
    for (const token of tokenizeForSearch(text))
      for (const word of fold(token).split(/[^\p{L}\p{N}]+/u)) if (word !== '') seen.add(word.slice(0, maxTokenLength));
  return [...seen];
};
