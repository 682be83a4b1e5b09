/**
 * The rules of facial recognition (docs/faces.md): how far apart two faces' descriptors are, in
 * the units of Immich's `machineLearning.facialRecognition.maxDistance`, and Immich's decision of
 * who a face is. Pure: the media function and the facial recognition job apply them to what the
 * face index holds (shared/db/face-index.repository.ts).
 */

/** The numbers of a face's descriptor (face-api's recognition net). */
export const descriptorLength = 128;

/**
 * Immich's `maxDistance` is a cosine distance between its ArcFace model's embeddings (0.5 by
 * default). This descriptor is compared by Euclidean distance; one unit of Immich's is 0.9 of it,
 * so the default 0.5 accepts faces up to 0.45 apart. Stricter than face-api's own matcher (0.6):
 * two different women on one of face-api's demo photos are 0.486 apart (docs/faces.md, "Distance").
 */
export const euclideanPerUnit = 0.9;

/** The distance of two descriptors in Immich's units. */
export const faceDistance = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let sum = 0;
  for (let i = 0; i < descriptorLength; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    sum += d * d;
  }
  return Math.sqrt(sum) / euclideanPerUnit;
};

/** Descriptors as stored: IEEE half floats, 256 bytes a face (their error, under 0.001, is far below any threshold). */
export const encodeDescriptors = (descriptors: readonly ArrayLike<number>[]): Uint8Array => {
  const out = new Float16Array(descriptors.length * descriptorLength);
  descriptors.forEach((descriptor, i) => {
    for (let j = 0; j < descriptorLength; j++) out[i * descriptorLength + j] = descriptor[j] ?? 0;
  });
  return new Uint8Array(out.buffer);
};

/** The descriptors of `encodeDescriptors`, one view each (no copy when the bytes are aligned). */
export const decodeDescriptors = (bytes: Uint8Array): Float16Array[] => {
  const aligned = bytes.byteOffset % 2 === 0 ? bytes : bytes.slice();
  const all = new Float16Array(aligned.buffer, aligned.byteOffset, Math.floor(aligned.byteLength / 2));
  const count = Math.floor(all.length / descriptorLength);
  return Array.from({ length: count }, (_, i) => all.subarray(i * descriptorLength, (i + 1) * descriptorLength));
};

/**
 * The faces within `maxDistance` of `self`, nearest first, at most `limit` (Immich's search of its
 * face embeddings); `self` is left out, and a face listed twice (detection run again) counts at
 * its nearest.
 */
export const nearestFaces = <F extends { id: string; descriptor: ArrayLike<number> }>(
  self: F,
  faces: readonly F[],
  maxDistance: number,
  limit = 100,
): { face: F; distance: number }[] => {
  const nearest = new Map<string, { face: F; distance: number }>();
  for (const other of faces) {
    if (other.id === self.id) continue;
    const distance = faceDistance(self.descriptor, other.descriptor);
    const seen = nearest.get(other.id);
    if (distance <= maxDistance && (!seen || distance < seen.distance)) nearest.set(other.id, { face: other, distance });
  }
  return [...nearest.values()].sort((a, b) => a.distance - b.distance).slice(0, limit);
};

/** A face the decision looks at: how far it is, and the person it shows (undefined: none yet). */
export interface Neighbour {
  faceId: string;
  distance: number;
  personId?: string | undefined;
}

export interface RecognitionSettings {
  maxDistance: number;
  minFaces: number;
}

/**
 * What becomes of a face without a person (Immich's facial recognition job), from its neighbours
 * within `maxDistance`, nearest first, the face itself not among them:
 * - `join`: the nearest neighbour that shows a person: the face shows them too;
 * - `new`: no neighbour shows anyone, and with the face itself at least `minFaces` faces agree
 *   (Immich's "core" face; only for a photo in the timeline): a new person, whom the neighbours without a
 *   person show too (Immich gives them to the person when its job runs for each of them);
 * - `wait`: otherwise: the face stays without a person until more faces agree.
 */
export type Decision = { kind: 'join'; personId: string } | { kind: 'new'; faceIds: string[] } | { kind: 'wait' };

export const decide = (
  neighbours: readonly Neighbour[],
  settings: RecognitionSettings,
  options: { inTimeline?: boolean } = {},
): Decision => {
  const near = neighbours.filter((each) => each.distance <= settings.maxDistance).sort((a, b) => a.distance - b.distance);
  // Immich skips a face that matched nothing but itself, when it asks for more than one face.
  if (settings.minFaces > 1 && near.length === 0) return { kind: 'wait' };
  const shown = near.find((each) => each.personId !== undefined);
  if (shown?.personId !== undefined) return { kind: 'join', personId: shown.personId };
  const core = near.length + 1 >= settings.minFaces && options.inTimeline !== false;
  return core ? { kind: 'new', faceIds: near.map((each) => each.faceId) } : { kind: 'wait' };
};

export interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** How much two boxes overlap: their intersection over their union (0 to 1). */
export const overlap = (a: Box, b: Box): number => {
  const width = Math.max(0, Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1));
  const height = Math.max(0, Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1));
  const intersection = width * height;
  const union = (a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - intersection;
  return union > 0 ? intersection / union : 0;
};

/**
 * A region the file named (or a face drawn by hand) and a detected face are one face when their
 * boxes overlap this much: a person's region in a photo manager is drawn looser or tighter than
 * the detector's box, but over the same face.
 */
export const sameFaceOverlap = 0.3;

/** A box in one image's pixels scaled to another size of the same image. */
export const scaleBox = (box: Box, from: { width: number; height: number }, to: { width: number; height: number }): Box => {
  const sx = to.width / from.width;
  const sy = to.height / from.height;
  return { x1: Math.round(box.x1 * sx), y1: Math.round(box.y1 * sy), x2: Math.round(box.x2 * sx), y2: Math.round(box.y2 * sy) };
};
