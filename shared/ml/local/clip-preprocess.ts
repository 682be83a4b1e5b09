/**
 * Immich ML's CLIP image preprocessing (docs/clip-local.md, "Preprocessing"), reproduced so the
 * in-process model gets the very tensor an Immich ML service would give it: the image decoded to
 * RGB with its stored orientation (Pillow's `Image.open` ignores EXIF orientation), its shorter
 * side resized to the model's `size` with Pillow's bicubic filter (the longer side's length
 * truncated, as Python's `int()`), a centred `size`×`size` crop (offsets truncated too), then per
 * channel `(v / 255 - mean) / std` in float32, laid out NCHW with a batch of one. Immich ignores
 * the config's `interpolation`: every model gets this.
 */
import { decodeRgb } from '../../media/images.ts';
import { type RgbImage, resizeBicubic } from './pillow-resize.ts';

/** The fields of a model folder's `visual/preprocess_cfg.json` this uses. */
export interface PreprocessConfig {
  /** Pixels of the square input; a list's first value. */
  size: number | number[];
  mean: number[];
  std: number[];
}

/** Immich's `resize_pil`: the shorter side becomes `size`, the other keeps the aspect (truncated). */
export const resizedSize = (width: number, height: number, size: number): { width: number; height: number } =>
  width < height
    ? { width: size, height: Math.trunc((height / width) * size) }
    : { width: Math.trunc((width / height) * size), height: size };

/** Immich's `crop_pil` of a resized image: rows and columns from these offsets. */
const cropOffsets = (width: number, height: number, size: number): { left: number; top: number } => ({
  left: Math.trunc(width / 2 - size / 2),
  top: Math.trunc(height / 2 - size / 2),
});

const sizeOf = (config: PreprocessConfig): number => {
  const size = Array.isArray(config.size) ? config.size[0] : config.size;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 1) throw new Error('preprocess_cfg.json: bad size');
  return size;
};

const channels = (values: unknown, name: string): Float32Array => {
  if (!Array.isArray(values) || values.length !== 3 || values.some((v) => typeof v !== 'number')) {
    throw new Error(`preprocess_cfg.json: ${name} must hold 3 numbers`);
  }
  return Float32Array.from(values as number[]);
};

/** A parsed `preprocess_cfg.json`, checked. */
export const preprocessConfig = (raw: unknown): PreprocessConfig => {
  const { size, mean, std } = (raw ?? {}) as Record<string, unknown>;
  const config = { size: size as PreprocessConfig['size'], mean: [...channels(mean, 'mean')], std: [...channels(std, 'std')] };
  sizeOf(config);
  return config;
};

/** The model's input tensor (float32, [1, 3, size, size]) for decoded RGB pixels. */
export const clipTensor = (image: RgbImage, config: PreprocessConfig): Float32Array => {
  const size = sizeOf(config);
  const mean = channels(config.mean, 'mean');
  const std = channels(config.std, 'std');
  const target = resizedSize(image.width, image.height, size);
  if (target.width < 1 || target.height < 1) throw new Error('Image too narrow to preprocess');
  const { left, top } = cropOffsets(target.width, target.height, size);
  // Only the crop is resized: the same pixels, and a very long image never fills memory.
  const crop = resizeBicubic(image, target.width, target.height, { left, top, width: size, height: size });
  const plane = size * size;
  const out = new Float32Array(3 * plane);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const source = (y * size + x) * 3;
      for (let c = 0; c < 3; c++) {
        // numpy in float32: each step rounded to float32 (exact here: a double rounded once more).
        const scaled = Math.fround((crop.data[source + c] as number) / 255);
        out[c * plane + y * size + x] = Math.fround(Math.fround(scaled - (mean[c] as number)) / (std[c] as number));
      }
    }
  }
  return out;
};

/** The model's input tensor for an encoded image (a preview JPEG). */
export const preprocessImage = async (bytes: Uint8Array, config: PreprocessConfig): Promise<Float32Array> =>
  clipTensor(await decodeRgb(bytes, { orient: false }), config);
