/**
 * The text recogniser's input and output (docs/ocr.md, "Recognition"): crops batched as PP-OCR's
 * `resize_norm_img` does (height 48, width by aspect, at least 320 for the batch, padded) and
 * greedy CTC decoding against the model's dictionary.
 */
import { readFileSync } from 'node:fs';
import { type Rgb, resizeNormalisedBgr } from './pixels.ts';

/** Recogniser input height and the batch's least width (PP-OCR's `rec_img_shape` 3×48×320). */
export const recHeight = 48;
export const recMinWidth = 320;

/**
 * The recogniser's classes: CTC's blank, the dictionary's lines, then a space (PP-OCR's
 * `use_space_char`).
 */
export const readCharacters = (dictionaryPath: string): string[] => {
  const text = readFileSync(dictionaryPath, 'utf8');
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  if (lines[lines.length - 1] === '') lines.pop();
  return ['', ...lines, ' '];
};

/** A batch of crops as the recogniser's input: NCHW float32, all `width` wide. */
export interface RecBatch {
  data: Float32Array;
  count: number;
  width: number;
}

/**
 * Crops as one input: the batch's width is 48 × its widest aspect ratio (at least 320); each crop
 * is resized to height 48 and its own width (rounded up, at most the batch's), the rest is 0.
 */
export const recBatch = (crops: readonly Rgb[]): RecBatch => {
  let ratio = recMinWidth / recHeight;
  for (const crop of crops) ratio = Math.max(ratio, crop.width / crop.height);
  const width = Math.trunc(recHeight * ratio);
  const plane = recHeight * width;
  const data = new Float32Array(crops.length * 3 * plane);
  crops.forEach((crop, i) => {
    const resized = Math.min(width, Math.ceil(recHeight * (crop.width / crop.height)));
    resizeNormalisedBgr(crop, Math.max(1, resized), recHeight, data, i * 3 * plane, width);
  });
  return { data, count: crops.length, width };
};

export interface Decoded {
  text: string;
  /** The mean probability of the characters kept (0 when none). */
  score: number;
}

/**
 * Greedy CTC decoding of `[count, steps, classes]` probabilities: the likeliest class at each
 * step, repeats merged, blanks dropped.
 */
export const ctcDecode = (probabilities: Float32Array, count: number, steps: number, characters: readonly string[]): Decoded[] => {
  const classes = characters.length;
  const decoded: Decoded[] = [];
  for (let n = 0; n < count; n++) {
    let text = '';
    let sum = 0;
    let kept = 0;
    let previous = -1;
    for (let t = 0; t < steps; t++) {
      const base = (n * steps + t) * classes;
      let best = 0;
      let bestValue = probabilities[base] ?? 0;
      for (let c = 1; c < classes; c++) {
        const value = probabilities[base + c] ?? 0;
        if (value > bestValue) {
          bestValue = value;
          best = c;
        }
      }
      if (best !== 0 && best !== previous) {
        text += characters[best] ?? '';
        sum += bestValue;
        kept++;
      }
      previous = best;
    }
    decoded.push({ text, score: kept > 0 ? sum / kept : 0 });
  }
  return decoded;
};
