/**
 * Immich ML's CLIP text tokenisation (docs/clip-local.md, "Text"): the text cleaned (whitespace
 * runs to one space, ends trimmed; with `text_cfg.tokenizer_kwargs.clean == "canonicalize"`
 * also ASCII punctuation removed and lowercased), encoded by the model's `tokenizer.json`,
 * truncated to `context_length` (77) keeping the special tokens (BOS + the first 75 + EOS, as
 * the Rust tokenizers' truncation with a post-processor does), padded to it with the id of
 * `tokenizer_config.json`'s `pad_token`. @huggingface/tokenizers (pure JS) encodes; it has no
 * truncation or padding, so both are done here. The package is imported on first use: this module
 * is part of every bundle that can run CLIP, and a cold start that runs no model never loads it.
 */
import type { Tokenizer as TokenizerClass } from '@huggingface/tokenizers';

export interface ClipTokenizer {
  /** The `text` input: int32 ids, `contextLength` of them. */
  encode(text: string): Int32Array;
  /** The same, with how many of the ids are the text's (with BOS and EOS; the rest is padding). */
  tokens(text: string): { ids: Int32Array; length: number };
  contextLength: number;
}

/** The fields of a model folder's configs this reads. */
export interface TokenizerFiles {
  /** `textual/tokenizer.json`, parsed. */
  tokenizer: Record<string, unknown>;
  /** `textual/tokenizer_config.json`, parsed. */
  tokenizerConfig: { pad_token?: unknown };
  /** `config.json`, parsed. */
  modelConfig: { text_cfg?: { context_length?: unknown; tokenizer_kwargs?: { clean?: unknown } | null } };
}

// Python's str.split() separators (str.isspace), which differ from JavaScript's \s.
// biome-ignore lint/suspicious/noControlCharactersInRegex: Python counts the separators \x1c–\x1f as whitespace.
const pythonWhitespace = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;
// Python's string.punctuation.
const punctuation = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

/** Immich's `clean_text`. */
export const cleanText = (text: string, canonicalize: boolean): string => {
  const joined = text
    .split(pythonWhitespace)
    .filter((part) => part !== '')
    .join(' ');
  return canonicalize ? joined.replace(punctuation, '').toLowerCase() : joined;
};

let tokenizerModule: Promise<{ Tokenizer: typeof TokenizerClass }> | undefined;

export const loadTokenizer = async ({ tokenizer: json, tokenizerConfig, modelConfig }: TokenizerFiles): Promise<ClipTokenizer> => {
  const textConfig = modelConfig.text_cfg ?? {};
  const contextLength = textConfig.context_length ?? 77;
  if (typeof contextLength !== 'number' || !Number.isInteger(contextLength) || contextLength < 2) {
    throw new Error('config.json: bad text_cfg.context_length');
  }
  const canonicalize = textConfig.tokenizer_kwargs?.clean === 'canonicalize';
  tokenizerModule ??= import('@huggingface/tokenizers');
  const { Tokenizer } = await tokenizerModule;
  const tokenizer = new Tokenizer(json, {});
  const padToken = tokenizerConfig.pad_token;
  const padId = typeof padToken === 'string' ? tokenizer.token_to_id(padToken) : undefined;
  if (padId === undefined) throw new Error(`Pad token '${String(padToken)}' not found in tokenizer vocab`);
  const special = tokenizer.encode('', { add_special_tokens: true }).ids.length;
  const room = contextLength - special;

  const idsOf = (text: string): number[] => {
    const ids = tokenizer.encode(text, { add_special_tokens: true }).ids;
    if (ids.length <= contextLength) return ids;
    // Truncate the text's own tokens, then add the special tokens around what is left.
    const tokens = tokenizer.tokenize(text, { add_special_tokens: false }).slice(0, Math.max(room, 0));
    const processed: string[] = tokenizer.post_processor ? tokenizer.post_processor.post_process(tokens).tokens : tokens;
    return processed.slice(0, contextLength).map((token) => {
      const id = tokenizer.token_to_id(token);
      if (id === undefined) throw new Error(`Token '${token}' not in tokenizer vocab`);
      return id;
    });
  };

  const tokens = (text: string) => {
    const real = idsOf(cleanText(text, canonicalize));
    const ids = new Int32Array(contextLength).fill(padId);
    ids.set(real);
    return { ids, length: real.length };
  };
  return { contextLength, tokens, encode: (text) => tokens(text).ids };
};
