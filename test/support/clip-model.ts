/**
 * A tiny CLIP model folder in Immich's layout (what an Immich ML container keeps in its cache,
 * docs/clip-local.md), written by the tests: real ONNX files with Immich's input and output
 * names and shapes, a CLIP-style tokenizer.json, and the configs Immich reads. Its embeddings
 * follow colour, as those of the Immich ML stand-in of the remote back end's tests do, so one colour test
 * works on both back ends:
 *
 * - visual: `image` float32 [N,3,224,224] → mean per channel (GlobalAveragePool), the
 *   normalisation undone (× std + mean: the colour in 0–1), the six features (R, G, B, 1−R, 1−G,
 *   1−B) → MatMul [6,512] onto six orthogonal directions → `embedding` [N,512];
 * - textual: `text` int32 [N,77] → Gather from a [vocab,512] table → ReduceSum over the tokens →
 *   `embedding` [N,512]. The rows of the words red, green, blue, white, black, yellow, cyan and
 *   magenta are that colour's image embedding; BOS, EOS and padding are zero; every other token
 *   a small seeded vector (so other words move a query a little, never to another colour).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';

// A CommonJS module: its namespace is the default export under Node's ESM.
const { onnx } = onnxProto;

export const dimensions = 512;
export const colours: Record<string, [number, number, number]> = {
  // green before red: its merge `g r` must outrank red's `r e`.
  green: [0, 255, 0],
  red: [255, 0, 0],
  blue: [0, 0, 255],
  white: [255, 255, 255],
  black: [0, 0, 0],
  yellow: [255, 255, 0],
  cyan: [0, 255, 255],
  magenta: [255, 0, 255],
};
/** Words with a token of their own besides the colours. */
const otherWords = ['a', 'photo', 'of', 'the', 'car', 'dog'];

export const mean = [0.48145466, 0.4578275, 0.40821073];
export const std = [0.26862954, 0.26130258, 0.27577711];

// --- Tokenizer --------------------------------------------------------------------------------

/** GPT-2's byte-to-character table, which CLIP's byte-level BPE uses. */
const byteCharacters = (): string[] => {
  const printable = (b: number) => (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
  let extra = 0;
  return Array.from({ length: 256 }, (_, b) => String.fromCodePoint(printable(b) ? b : 256 + extra++));
};

export const bos = '<|startoftext|>';
export const eos = '<|endoftext|>';

/**
 * A CLIP-style tokenizer.json (normaliser, split and byte-level pre-tokeniser, BPE with `</w>`,
 * Roberta post-processor) whose vocabulary is the 256 byte characters, each with `</w>`, the
 * merges spelling the words above, then BOS and EOS.
 */
export const tokenizerJson = (): { json: Record<string, unknown>; vocab: Record<string, number> } => {
  const vocab: Record<string, number> = {};
  const add = (token: string) => {
    vocab[token] ??= Object.keys(vocab).length;
  };
  const chars = byteCharacters();
  for (const c of chars) add(c);
  for (const c of chars) add(`${c}</w>`);
  // Merges by step: every word's first pair, then every word's second… so no word's later merge
  // outranks another word's start (each word ends up one token).
  const words = [...Object.keys(colours), ...otherWords].filter((word) => word.length > 1);
  const merges: string[] = [];
  const longest = Math.max(...words.map((word) => word.length));
  for (let step = 2; step <= longest; step++) {
    for (const word of words) {
      if (word.length < step) continue;
      const end = step === word.length ? '</w>' : '';
      const left = word.slice(0, step - 1);
      const right = `${word[step - 1]}${end}`;
      const merge = `${left} ${right}`;
      if (!merges.includes(merge)) merges.push(merge);
      add(left + right);
    }
  }
  add(bos);
  add(eos);
  const special = (token: string) => ({
    id: vocab[token],
    content: token,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: true,
    special: true,
  });
  const json = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(bos), special(eos)],
    normalizer: {
      type: 'Sequence',
      normalizers: [{ type: 'NFC' }, { type: 'Replace', pattern: { Regex: '\\s+' }, content: ' ' }, { type: 'Lowercase' }],
    },
    pre_tokenizer: {
      type: 'Sequence',
      pretokenizers: [
        {
          type: 'Split',
          pattern: {
            Regex: "<\\|startoftext\\|>|<\\|endoftext\\|>|'s|'t|'re|'ve|'m|'ll|'d|[\\p{L}]+|[\\p{N}]|[^\\s\\p{L}\\p{N}]+",
          },
          behavior: 'Removed',
          invert: true,
        },
        { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false },
      ],
    },
    post_processor: {
      type: 'RobertaProcessing',
      sep: [eos, vocab[eos]],
      cls: [bos, vocab[bos]],
      trim_offsets: false,
      add_prefix_space: false,
    },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: eos,
      continuing_subword_prefix: '',
      end_of_word_suffix: '</w>',
      fuse_unk: false,
      byte_fallback: false,
      vocab,
      merges,
    },
  };
  return { json, vocab };
};

// --- ONNX -------------------------------------------------------------------------------------

const { DataType } = onnx.TensorProto;
const { AttributeType } = onnx.AttributeProto;

const valueInfo = (name: string, elemType: number, dims: (number | string)[]) =>
  onnx.ValueInfoProto.create({
    name,
    type: {
      tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } },
    },
  });
const floats = (name: string, dims: number[], values: Float32Array) =>
  onnx.TensorProto.create({ name, dims, dataType: DataType.FLOAT, rawData: new Uint8Array(values.buffer.slice(0)) });
const int64s = (name: string, values: number[]) =>
  onnx.TensorProto.create({ name, dims: [values.length], dataType: DataType.INT64, int64Data: values });
const model = (graph: Parameters<typeof onnx.GraphProto.create>[0]): Uint8Array =>
  onnx.ModelProto.encode(
    onnx.ModelProto.create({ irVersion: 8, producerName: 'immich-serverless tests', opsetImport: [{ domain: '', version: 17 }], graph }),
  ).finish();

/** A seeded PRNG (mulberry32). */
const random = (seed: number): (() => number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
};

/** Six orthogonal directions (disjoint supports of 85 dimensions), rows of a [6,512] matrix. */
const featureDirections = (): Float32Array => {
  const next = random(53);
  const w = new Float32Array(6 * dimensions);
  const span = Math.floor(dimensions / 6);
  for (let row = 0; row < 6; row++) for (let d = row * span; d < (row + 1) * span; d++) w[row * dimensions + d] = next() + 0.5;
  return w;
};

/** The cosine similarity of two embeddings: how the tests compare what a model gave with what they expect. */
export const cosine = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    aa += x * x;
    bb += y * y;
  }
  return dot / Math.sqrt(aa * bb);
};

/** The embedding the visual model gives an image of one colour (0–255), and the colour word's. */
export const colourEmbedding = ([r, g, b]: [number, number, number]): Float32Array => {
  const w = featureDirections();
  const features = [r / 255, g / 255, b / 255, 1 - r / 255, 1 - g / 255, 1 - b / 255];
  const out = new Float32Array(dimensions);
  features.forEach((f, row) => {
    for (let d = 0; d < dimensions; d++) out[d] = (out[d] as number) + f * (w[row * dimensions + d] as number);
  });
  return out;
};

const visualModel = (): Uint8Array =>
  model({
    name: 'visual',
    node: [
      { opType: 'GlobalAveragePool', input: ['image'], output: ['pooled'] },
      { opType: 'Flatten', input: ['pooled'], output: ['normalised'], attribute: [{ name: 'axis', type: AttributeType.INT, i: 1 }] },
      { opType: 'Mul', input: ['normalised', 'std'], output: ['scaled'] },
      { opType: 'Add', input: ['scaled', 'mean'], output: ['colour'] },
      { opType: 'Sub', input: ['one', 'colour'], output: ['inverse'] },
      {
        opType: 'Concat',
        input: ['colour', 'inverse'],
        output: ['features'],
        attribute: [{ name: 'axis', type: AttributeType.INT, i: 1 }],
      },
      { opType: 'MatMul', input: ['features', 'directions'], output: ['embedding'] },
    ],
    initializer: [
      floats('std', [3], Float32Array.from(std)),
      floats('mean', [3], Float32Array.from(mean)),
      floats('one', [1], Float32Array.of(1)),
      floats('directions', [6, dimensions], featureDirections()),
    ],
    input: [valueInfo('image', DataType.FLOAT, ['batch', 3, 224, 224])],
    output: [valueInfo('embedding', DataType.FLOAT, ['batch', dimensions])],
  });

const textualModel = (vocab: Record<string, number>): Uint8Array => {
  const size = Object.keys(vocab).length;
  const table = new Float32Array(size * dimensions);
  const next = random(77);
  for (let row = 0; row < size; row++) for (let d = 0; d < dimensions; d++) table[row * dimensions + d] = (next() - 0.5) * 0.02;
  for (const token of [bos, eos]) table.fill(0, (vocab[token] as number) * dimensions, ((vocab[token] as number) + 1) * dimensions);
  for (const [word, rgb] of Object.entries(colours)) table.set(colourEmbedding(rgb), (vocab[`${word}</w>`] as number) * dimensions);
  return model({
    name: 'textual',
    node: [
      { opType: 'Gather', input: ['table', 'text'], output: ['tokens'], attribute: [{ name: 'axis', type: AttributeType.INT, i: 0 }] },
      {
        opType: 'ReduceSum',
        input: ['tokens', 'axes'],
        output: ['embedding'],
        attribute: [{ name: 'keepdims', type: AttributeType.INT, i: 0 }],
      },
    ],
    initializer: [floats('table', [size, dimensions], table), int64s('axes', [1])],
    input: [valueInfo('text', DataType.INT32, ['batch', 77])],
    output: [valueInfo('embedding', DataType.FLOAT, ['batch', dimensions])],
  });
};

/** The files of the folder, by path inside it (for copying into a store too). */
export const clipModelFiles = (): Record<string, Uint8Array | string> => {
  const { json, vocab } = tokenizerJson();
  const text = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  return {
    'config.json': text({
      embed_dim: dimensions,
      vision_cfg: { image_size: 224, layers: 1, width: 6, patch_size: 32 },
      text_cfg: { context_length: 77, vocab_size: Object.keys(vocab).length, width: dimensions, heads: 1, layers: 1 },
    }),
    'visual/model.onnx': visualModel(),
    'visual/preprocess_cfg.json': text({
      size: [224, 224],
      mode: 'RGB',
      mean,
      std,
      interpolation: 'bicubic',
      resize_mode: 'shortest',
      fill_color: 0,
    }),
    'textual/model.onnx': textualModel(vocab),
    'textual/tokenizer.json': text(json),
    'textual/tokenizer_config.json': text({ pad_token: eos, bos_token: bos, eos_token: eos, model_max_length: 77 }),
  };
};

/**
 * Writes the folder `<root>/clip/<modelName>/` (the layout under `ML_MODELS_DIR`, and under
 * `models/` in the originals store) and answers its path.
 */
export const makeClipModelDir = (root: string, modelName = 'ViT-B-32__openai'): string => {
  const folder = join(root, 'clip', modelName);
  for (const [path, body] of Object.entries(clipModelFiles())) {
    mkdirSync(join(folder, path, '..'), { recursive: true });
    writeFileSync(join(folder, path), body);
  }
  return folder;
};
