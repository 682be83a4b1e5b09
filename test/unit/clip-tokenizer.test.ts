import { describe, expect, it } from 'vitest';
import { cleanText, loadTokenizer } from '#shared/ml/local/tokenizer.ts';
import { bos, eos, tokenizerJson } from '../support/clip-model.ts';

/**
 * Immich's text path (clean_text, then the Rust tokenizers with padding and truncation to 77).
 * The expected ids were computed once with the Python `tokenizers` 0.23.2 (Rust) on the same
 * tokenizer.json (test/support/clip-model.ts), padding with `!` (id 33) so padding and EOS
 * differ; trailing padding is left out below and checked as 33s.
 */
const { json, vocab } = tokenizerJson();
const tokenizerFor = (canonicalize: boolean, padToken = '!') =>
  loadTokenizer({
    tokenizer: json,
    tokenizerConfig: { pad_token: padToken },
    modelConfig: { text_cfg: { context_length: 77, tokenizer_kwargs: canonicalize ? { clean: 'canonicalize' } : null } },
  });
const padded = (ids: number[]) => [...ids, ...Array(77 - ids.length).fill(33)];

const rust: { text: string; canonicalize: boolean; ids: number[] }[] = [
  { text: '  A   photo of a RED\tcar\n', canonicalize: false, ids: [553, 353, 549, 520, 353, 525, 534, 554] },
  { text: '  A   photo of a RED\tcar\n', canonicalize: true, ids: [553, 353, 549, 520, 353, 525, 534, 554] },
  {
    text: 'Hello, World! café\u3000– ünïcödé ☃ x\u001fy',
    canonicalize: false,
    ids: [
      553, 104, 101, 108, 108, 367, 300, 119, 111, 114, 108, 356, 289, 522, 102, 195, 425, 226, 128, 403, 195, 188, 110, 195, 175, 99, 195,
      182, 100, 195, 425, 226, 152, 387, 376, 377, 554,
    ],
  },
  {
    text: 'Hello, World! café\u3000– ünïcödé ☃ x\u001fy',
    canonicalize: true,
    ids: [
      553, 104, 101, 108, 108, 367, 119, 111, 114, 108, 356, 522, 102, 195, 425, 226, 128, 403, 195, 188, 110, 195, 175, 99, 195, 182, 100,
      195, 425, 226, 152, 387, 376, 377, 554,
    ],
  },
  { text: "red, blue! (the) dog's", canonicalize: false, ids: [553, 525, 300, 537, 289, 296, 533, 297, 535, 39, 371, 554] },
  { text: "red, blue! (the) dog's", canonicalize: true, ids: [553, 525, 537, 533, 523, 103, 371, 554] },
];

describe('CLIP tokenizer (Immich’s clean_text, padding and truncation)', () => {
  it.each(rust)('$text (canonicalize: $canonicalize) gives the Rust tokenizer’s ids', async ({ text, canonicalize, ids }) => {
    const encoded = (await tokenizerFor(canonicalize)).encode(text);
    expect(encoded).toBeInstanceOf(Int32Array);
    expect([...encoded]).toEqual(padded(ids));
  });

  it('keeps BOS, the first 75 tokens and EOS of a longer text', async () => {
    const tokenizer = await tokenizerFor(false);
    const red = vocab['red</w>'];
    const blue = vocab['blue</w>'];
    const green = vocab['green</w>'];
    // 80 words: the Rust tokenizer keeps 40 red, 35 blue.
    expect([...tokenizer.encode('red '.repeat(40) + 'blue '.repeat(40))]).toEqual([
      vocab[bos],
      ...Array(40).fill(red),
      ...Array(35).fill(blue),
      vocab[eos],
    ]);
    // Exactly 75 words fit; a 76th is dropped.
    const full = [vocab[bos], ...Array(75).fill(green), vocab[eos]];
    expect([...tokenizer.encode('green '.repeat(75))]).toEqual(full);
    expect([...tokenizer.encode(`${'green '.repeat(75)}dog`)]).toEqual(full);
  });

  it("pads with the tokenizer_config's pad token", async () => {
    const encoded = [...(await tokenizerFor(false, eos)).encode('red')];
    expect(encoded).toEqual([vocab[bos], vocab['red</w>'], ...Array(75).fill(vocab[eos])]);
  });

  it('refuses a pad token the vocabulary lacks (as Immich)', async () => {
    await expect(tokenizerFor(false, '<pad>')).rejects.toThrow("Pad token '<pad>' not found in tokenizer vocab");
  });

  it("cleans as Python's split() and string.punctuation", () => {
    expect(cleanText(' a\x1fb\u00a0c \ufeffd ', false)).toBe('a b c \ufeffd');
    expect(cleanText('Dog\'s "Day" — OUT!', true)).toBe('dogs day — out');
  });
});
