/**
 * Embedding vectors (docs/search.md): normalised to unit length, kept as IEEE half floats (1 KB
 * for 512 numbers), scored by cosine similarity, which for unit vectors is their dot product.
 */

/** The vector scaled to length 1 (a zero vector stays zero). */
export const unitVector = (vector: ArrayLike<number>): Float32Array => {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += (vector[i] as number) ** 2;
  const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  return Float32Array.from(vector, (value) => value * scale);
};

/** Half-float bytes of a vector (little-endian, as Float16Array stores them). */
export const toHalfBytes = (vector: ArrayLike<number>): Uint8Array => new Uint8Array(Float16Array.from(vector).buffer);

/** The half floats in bytes written by toHalfBytes (a view when aligned, else a copy). */
export const halfView = (bytes: Uint8Array): Float16Array => {
  const aligned = bytes.byteOffset % 2 === 0 ? bytes : bytes.slice();
  return new Float16Array(aligned.buffer, aligned.byteOffset, Math.floor(aligned.byteLength / 2));
};

/** Dot product of a query and a stored vector (cosine similarity when both are unit vectors); -Infinity for a vector of another length (another model's), ranked last. */
export const dot = (query: Float32Array, stored: Float16Array): number => {
  if (stored.length !== query.length) return Number.NEGATIVE_INFINITY;
  let sum = 0;
  for (let i = 0; i < query.length; i++) sum += (query[i] as number) * (stored[i] as number);
  return sum;
};
