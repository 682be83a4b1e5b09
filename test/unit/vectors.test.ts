import { describe, expect, it } from 'vitest';
import { dot, halfView, toHalfBytes, unitVector } from '#shared/domain/vectors.ts';

/** Embedding vectors (shared/domain/vectors.ts): unit length, half floats, cosine as a dot product. */
describe('embedding vectors', () => {
  it('scales to unit length, and leaves a zero vector zero', () => {
    expect([...unitVector([3, 4])]).toEqual([0.6000000238418579, 0.800000011920929]);
    expect([...unitVector([0, 0, 0])]).toEqual([0, 0, 0]);
  });

  it('keeps half floats, read back in place or from an odd offset', () => {
    const bytes = toHalfBytes([0.5, -0.25, 1]);
    expect(bytes.byteLength).toBe(6);
    expect([...halfView(bytes)]).toEqual([0.5, -0.25, 1]);
    const shifted = new Uint8Array(7);
    shifted.set(bytes, 1);
    expect([...halfView(shifted.subarray(1))]).toEqual([0.5, -0.25, 1]);
  });

  it('scores unit vectors by their cosine, and a vector of another length last', () => {
    const query = unitVector([1, 1]);
    expect(dot(query, halfView(toHalfBytes(unitVector([1, 1]))))).toBeCloseTo(1, 3);
    expect(dot(query, halfView(toHalfBytes(unitVector([1, -1]))))).toBeCloseTo(0, 3);
    expect(dot(query, halfView(toHalfBytes(unitVector([-1, -1]))))).toBeCloseTo(-1, 3);
    expect(dot(query, halfView(toHalfBytes([1, 0, 0])))).toBe(Number.NEGATIVE_INFINITY);
  });
});
