/**
 * Photos of people for the face tests, made by the tests: crops of one of the group photos that
 * `@vladmandic/face-api` (MIT) ships in its npm package (`demo/sample1.jpg`, 1920 × 1280, three
 * women), read from node_modules at test time and never committed (docs/faces.md, "Test photos").
 * Each portrait is a different crop, size, mirror and exposure of one woman's face; the group photo
 * is the sample itself. The true boxes of the three faces were checked by eye.
 */
import { join } from 'node:path';
import Vips from 'wasm-vips';

const root = join(import.meta.dirname, '..', '..');
export const groupPhotoPath = join(root, 'node_modules', '@vladmandic', 'face-api', 'demo', 'sample1.jpg');
export const groupPhotoSize = { width: 1920, height: 1280 };

/** The three faces of the group photo, left to right: their boxes in its pixels. */
export const groupFaces = {
  ana: { x1: 414, y1: 355, x2: 591, y2: 595 },
  bea: { x1: 838, y1: 421, x2: 1024, y2: 649 },
  cy: { x1: 1476, y1: 199, x2: 1679, y2: 440 },
} as const;
export type Person = keyof typeof groupFaces;
export type Box = { x1: number; y1: number; x2: number; y2: number };

let loaded: ReturnType<typeof Vips> | undefined;
const vips = () => (loaded ??= Vips());

/** How each portrait is made: the margin around the face (in face widths), the width, mirrored, the exposure. */
const variants = [
  { margin: 1.0, width: 900, mirror: false, gain: 1 },
  { margin: 1.4, width: 700, mirror: true, gain: 1 },
  { margin: 0.8, width: 1000, mirror: false, gain: 0.85 },
  { margin: 1.2, width: 800, mirror: true, gain: 1.1 },
] as const;
export const portraitVariants = variants.length;

/** A portrait of one of them (variant 0 to 3): a JPEG, and where the face is in it. */
export const portrait = async (person: Person, variant: number): Promise<{ data: Buffer; face: Box; width: number; height: number }> => {
  const { Image } = await vips();
  const face = groupFaces[person];
  const { margin, width, mirror, gain } = variants[variant % variants.length] ?? variants[0];
  const size = Math.max(face.x2 - face.x1, face.y2 - face.y1);
  const left = Math.max(0, Math.round(face.x1 - margin * size));
  const top = Math.max(0, Math.round(face.y1 - margin * size));
  const right = Math.min(groupPhotoSize.width, Math.round(face.x2 + margin * size));
  const bottom = Math.min(groupPhotoSize.height, Math.round(face.y2 + margin * size));
  const source = Image.newFromFile(groupPhotoPath);
  const cropped = source.crop(left, top, right - left, bottom - top);
  const scale = width / (right - left);
  let image = cropped.resize(scale);
  if (mirror) image = image.flip('horizontal');
  if (gain !== 1) image = image.linear([gain, gain, gain], [0, 0, 0]).cast('uchar');
  // Without the group photo's metadata (its camera and position): a portrait of its own.
  const data = Buffer.from(image.jpegsaveBuffer({ Q: 90, keep: 'none' }));
  const out = { width: image.width, height: image.height };
  const x1 = (face.x1 - left) * scale;
  const x2 = (face.x2 - left) * scale;
  const box = {
    x1: Math.round(mirror ? out.width - x2 : x1),
    x2: Math.round(mirror ? out.width - x1 : x2),
    y1: Math.round((face.y1 - top) * scale),
    y2: Math.round((face.y2 - top) * scale),
  };
  for (const each of [source, cropped, image]) each.delete();
  return { data, face: box, ...out };
};

/** How much two boxes overlap (intersection over union). */
export const iou = (a: Box, b: Box): number => {
  const w = Math.max(0, Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1));
  const h = Math.max(0, Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1));
  const union = (a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - w * h;
  return union > 0 ? (w * h) / union : 0;
};
