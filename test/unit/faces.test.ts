import { describe, expect, it } from 'vitest';
import {
  decide,
  decodeDescriptors,
  descriptorLength,
  encodeDescriptors,
  euclideanPerUnit,
  faceDistance,
  type Neighbour,
  overlap,
  scaleBox,
} from '#shared/domain/faces.ts';

/** A descriptor pointing along one axis, `length` long (Euclidean distances between them are easy to know). */
const along = (axis: number, length = 1): Float32Array => {
  const out = new Float32Array(descriptorLength);
  out[axis] = length;
  return out;
};

const settings = { maxDistance: 0.5, minFaces: 3 };

describe('the descriptor distance (docs/faces.md, "Distance")', () => {
  it('is the Euclidean distance in units of 0.9: Immich’s default 0.5 accepts faces up to 0.45 apart', () => {
    expect(faceDistance(along(0), along(0))).toBe(0);
    expect(faceDistance(along(0, 0), along(0, 0.45))).toBeCloseTo(0.5, 6);
    expect(faceDistance(along(0), along(1))).toBeCloseTo(Math.SQRT2 / euclideanPerUnit, 6);
    // Symmetric.
    const a = Float32Array.from({ length: descriptorLength }, (_, i) => Math.sin(i));
    const b = Float32Array.from({ length: descriptorLength }, (_, i) => Math.cos(i) / 3);
    expect(faceDistance(a, b)).toBeCloseTo(faceDistance(b, a), 12);
  });

  it('keeps descriptors as half floats, 256 bytes a face, within 0.001 of their distance', () => {
    const faces = Array.from({ length: 5 }, (_, n) =>
      Float32Array.from({ length: descriptorLength }, (_, i) => Math.sin(i * (n + 1)) * 0.2),
    );
    const bytes = encodeDescriptors(faces);
    expect(bytes.byteLength).toBe(5 * 256);
    const back = decodeDescriptors(bytes);
    expect(back).toHaveLength(5);
    for (let i = 0; i < 5; i++)
      for (let j = 0; j < 5; j++)
        expect(
          Math.abs(
            faceDistance(back[i] as Float16Array, back[j] as Float16Array) -
              faceDistance(faces[i] as Float32Array, faces[j] as Float32Array),
          ),
        ).toBeLessThan(0.001);
    // Bytes at an odd offset (a copy of a stored attribute may start anywhere) decode the same.
    const shifted = new Uint8Array(bytes.byteLength + 1);
    shifted.set(bytes, 1);
    expect(Array.from(decodeDescriptors(shifted.subarray(1))[2] as Float16Array)).toEqual(Array.from(back[2] as Float16Array));
  });
});

describe('Immich’s decision for a face without a person', () => {
  const near = (faceId: string, distance: number, personId?: string): Neighbour => ({ faceId, distance, personId });

  it('waits while it matched nothing but itself (minFaces above 1)', () => {
    expect(decide([], settings)).toEqual({ kind: 'wait' });
    expect(decide([near('far', 0.51, 'p')], settings)).toEqual({ kind: 'wait' });
    // With minFaces 1, a face alone is a person.
    expect(decide([], { maxDistance: 0.5, minFaces: 1 })).toEqual({ kind: 'new', faceIds: [] });
  });

  it('joins the nearest neighbour that shows a person, however few agree', () => {
    expect(decide([near('a', 0.3, 'p1'), near('b', 0.1), near('c', 0.2, 'p2')], settings)).toEqual({ kind: 'join', personId: 'p2' });
    expect(decide([near('a', 0.49, 'p1')], settings)).toEqual({ kind: 'join', personId: 'p1' });
    // An archived photo's face still joins a known person (only founding one needs the timeline).
    expect(decide([near('a', 0.2, 'p1')], settings, { inTimeline: false })).toEqual({ kind: 'join', personId: 'p1' });
  });

  it('founds a person once minFaces faces agree (itself included), with its neighbours, nearest first', () => {
    expect(decide([near('a', 0.2)], settings)).toEqual({ kind: 'wait' });
    expect(decide([near('b', 0.4), near('a', 0.2), near('far', 0.7)], settings)).toEqual({ kind: 'new', faceIds: ['a', 'b'] });
    // Not from a photo outside the timeline (Immich's core face is a timeline photo's).
    expect(decide([near('b', 0.4), near('a', 0.2)], settings, { inTimeline: false })).toEqual({ kind: 'wait' });
  });

  it('uses the settings given: a larger maxDistance lets farther faces agree', () => {
    const neighbours = [near('a', 0.55), near('b', 0.6)];
    expect(decide(neighbours, settings)).toEqual({ kind: 'wait' });
    expect(decide(neighbours, { maxDistance: 0.6, minFaces: 3 })).toEqual({ kind: 'new', faceIds: ['a', 'b'] });
  });
});

describe('one face, two sources (a file’s region and a detected face)', () => {
  it('measures overlap as intersection over union, and scales boxes between sizes of one image', () => {
    const box = { x1: 10, y1: 10, x2: 30, y2: 30 };
    expect(overlap(box, box)).toBe(1);
    expect(overlap(box, { x1: 30, y1: 30, x2: 40, y2: 40 })).toBe(0);
    expect(overlap(box, { x1: 20, y1: 10, x2: 40, y2: 30 })).toBeCloseTo(1 / 3, 10);
    expect(scaleBox(box, { width: 100, height: 50 }, { width: 1000, height: 500 })).toEqual({ x1: 100, y1: 100, x2: 300, y2: 300 });
  });
});
