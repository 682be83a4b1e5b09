import { describe, expect, it } from 'vitest';
import { ocrTokens, tokenizeForSearch } from '#shared/domain/ocr-text.ts';

describe('OCR text as search reads it (Immich’s tokenizeForSearch, folded)', () => {
  it('splits at whitespace and control characters, keeping other characters in the token', () => {
    expect(tokenizeForSearch('  Hello,\tWorld!\nfoo-bar ')).toEqual(['Hello,', 'World!', 'foo-bar']);
    expect(tokenizeForSearch('')).toEqual([]);
  });

  it('makes overlapping pairs of a run of CJK characters, and keeps a single one', () => {
    expect(tokenizeForSearch('東京タワー')).toEqual(['東京', '京タ', 'タワ', 'ワー']);
    expect(tokenizeForSearch('京 한국어')).toEqual(['京', '한국', '국어']);
    // A CJK run ends a Latin token and starts its own.
    expect(tokenizeForSearch('ABC東京DEF')).toEqual(['ABC', '東京', 'DEF']);
  });

  it('folds tokens (unaccented, lower-cased), splits them into words and keeps each once', () => {
    expect(ocrTokens(['Café MENU', 'menu: café-bar', 'Ça va?'])).toEqual(['cafe', 'menu', 'bar', 'ca', 'va']);
    expect(ocrTokens(['--- !!!'])).toEqual([]);
    expect(ocrTokens(['x'.repeat(100)])).toEqual(['x'.repeat(64)]);
  });
});
