/**
 * What face detection and recognition do with real photos (docs/faces.md, "Real photos"):
 *
 *   node test/bench/face-recognition.ts <folder> [--portrait <file>] [--copies <n>]
 *
 * Every image under `<folder>` (none is in this repository: fetch them, e.g. Immich's test assets,
 * into a folder of your own) goes through what the media function does with an upload: its
 * preview (shared/media/images.ts, the configured size), faces detected in it
 * (shared/media/face-detect.ts) at several scores, then Immich's facial recognition over the
 * photos in order, with the default settings (shared/model/config.ts) and the same rules as the
 * media function (shared/domain/faces.ts: `nearestFaces`, then `decide`; a new person takes its
 * founding faces at once, as shared/services/media/faces.service.ts records them). With `--portrait`,
 * `--copies` copies of that photo (re-saved, resized, cropped, mirrored, darker or lighter, as a
 * phone, a messenger or an editor makes them) are recognised after the folder's photos: do they
 * become one person?
 *
 * It prints Markdown. Nothing is stored.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import Vips from 'wasm-vips';
import { decide, faceDistance, type Neighbour, nearestFaces } from '#shared/domain/faces.ts';
import { type DetectedFace, detectFaces } from '#shared/media/face-detect.ts';
import { decodeRgb, renderPreviews } from '#shared/media/images.ts';
import { configDefaults } from '#shared/model/config.ts';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const folder = args.find((arg, i) => !arg.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (!folder) {
  console.error('usage: node test/bench/face-recognition.ts <folder> [--portrait <file>] [--copies <n>]');
  process.exit(2);
}
const portraitPath = option('portrait');
const copies = Number(option('copies') ?? 8);

const { minScore, maxDistance, minFaces } = configDefaults.machineLearning.facialRecognition;
const previewSettings = configDefaults.thumbnail;
const images = /\.(jpe?g|png|webp|heic|heif|avif|jxl|tiff?|gif)$/i;

const walk = (dir: string): string[] =>
  readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : images.test(name) ? [path] : [];
    });

interface Face extends DetectedFace {
  id: string;
  photo: string;
}

/** The faces the media function would find in a file: its preview, decoded, then detected (the lowest score asked for). */
const facesIn = async (name: string, data: Uint8Array, lowest: number): Promise<{ faces: Face[]; size: string } | undefined> => {
  try {
    const previews = await renderPreviews(data, previewSettings);
    const rgb = await decodeRgb(previews.preview);
    const found = await detectFaces(rgb, lowest);
    // Boxes as fractions of the image (so copies of different sizes compare).
    return {
      faces: found.map((face, i) => ({
        ...face,
        x1: face.x1 / rgb.width,
        x2: face.x2 / rgb.width,
        y1: face.y1 / rgb.height,
        y2: face.y2 / rgb.height,
        id: `${name}#${i}`,
        photo: name,
      })),
      size: `${previews.width} × ${previews.height}`,
    };
  } catch (error) {
    console.error(`${name}: not decodable here (${String(error).slice(0, 80)})`);
    return undefined;
  }
};

/**
 * Immich's facial recognition over the photos in order (the media function's, in memory): each
 * photo's faces indexed, then each face without a person decided from its neighbours.
 */
const recognise = (photos: readonly Face[][], settings: { maxDistance: number; minFaces: number }) => {
  const index: Face[] = [];
  const personOf = new Map<string, string>();
  let people = 0;
  for (const faces of photos) {
    index.push(...faces);
    for (const self of faces) {
      if (personOf.has(self.id)) continue;
      const near = nearestFaces(self, index, settings.maxDistance);
      const neighbours: Neighbour[] = near.map(({ face, distance }) => ({ faceId: face.id, distance, personId: personOf.get(face.id) }));
      const decision = decide(neighbours, settings, { inTimeline: true });
      if (decision.kind === 'join') personOf.set(self.id, decision.personId);
      if (decision.kind === 'new') {
        const person = `person ${++people}`;
        for (const id of [self.id, ...decision.faceIds.filter((each) => !personOf.has(each))].slice(0, 30)) personOf.set(id, person);
      }
    }
  }
  return { personOf, people };
};

/** Copies of a portrait as they reach a library: re-saved, smaller or larger, cropped, mirrored, exposed otherwise. */
const portraitCopies = async (data: Uint8Array, n: number): Promise<{ name: string; data: Uint8Array }[]> => {
  const vips = await Vips();
  const out: { name: string; data: Uint8Array }[] = [];
  const kinds = [
    { name: 'the file itself', scale: 1, crop: 0, mirror: false, gain: 1, q: 0 },
    { name: 're-saved (quality 70)', scale: 1, crop: 0, mirror: false, gain: 1, q: 70 },
    { name: 'half size', scale: 0.5, crop: 0, mirror: false, gain: 1, q: 85 },
    { name: 'cropped 10 % each side', scale: 1, crop: 0.1, mirror: false, gain: 1, q: 90 },
    { name: 'mirrored', scale: 1, crop: 0, mirror: true, gain: 1, q: 90 },
    { name: 'darker (×0.75)', scale: 1, crop: 0, mirror: false, gain: 0.75, q: 90 },
    { name: 'lighter (×1.2)', scale: 1, crop: 0, mirror: false, gain: 1.2, q: 90 },
    { name: 'twice the size', scale: 2, crop: 0, mirror: false, gain: 1, q: 90 },
  ];
  for (let i = 0; i < n; i++) {
    const kind = kinds[i % kinds.length] as (typeof kinds)[number];
    if (kind.q === 0) {
      out.push({ name: `copy ${i + 1}: ${kind.name}`, data });
      continue;
    }
    let image = vips.Image.newFromBuffer(data).autorot();
    if (kind.crop > 0) {
      const dx = Math.round(image.width * kind.crop);
      const dy = Math.round(image.height * kind.crop);
      image = image.crop(dx, dy, image.width - 2 * dx, image.height - 2 * dy);
    }
    if (kind.scale !== 1) image = image.resize(kind.scale);
    if (kind.mirror) image = image.flip('horizontal');
    if (kind.gain !== 1) image = image.linear([kind.gain, kind.gain, kind.gain], [0, 0, 0]).cast('uchar');
    out.push({ name: `copy ${i + 1}: ${kind.name}`, data: image.jpegsaveBuffer({ Q: kind.q + (i % 3), keep: 'none' }) });
  }
  return out;
};

/** Immich's default minScore, for buffalo_l's detector. */
const immichMinScore = 0.7;
const scores = [...new Set([0.5, 0.6, minScore, immichMinScore, 0.8, 0.9])].sort();
const files = walk(folder);
const found: { name: string; size: string; faces: Face[] }[] = [];
for (const file of files) {
  const name = relative(folder, file);
  const result = await facesIn(name, readFileSync(file), Math.min(...scores));
  if (result) found.push({ name, ...result });
}

const atDefault = (faces: readonly Face[]) => faces.filter((face) => face.score >= minScore);
const lines: string[] = [];
lines.push(
  `Settings: minScore ${minScore}, maxDistance ${maxDistance}, minFaces ${minFaces} (the defaults); previews ${previewSettings.jpegSize} px on the shorter side.`,
  '',
  `| photo | size | faces (score ≥ ${scores.join(' / ')}) | scores of those kept (≥ ${minScore}) |`,
  '| --- | --- | --- | --- |',
);
for (const { name, size, faces } of found)
  lines.push(
    `| ${name} | ${size} | ${scores.map((score) => faces.filter((face) => face.score >= score).length).join(' / ')} | ${atDefault(faces)
      .map((face) => face.score.toFixed(2))
      .join(', ')} |`,
  );

const where = (face: Face) => `(${face.x1.toFixed(2)}, ${face.y1.toFixed(2)})–(${face.x2.toFixed(2)}, ${face.y2.toFixed(2)})`;
const below = found.flatMap(({ faces }) => faces.filter((face) => face.score < minScore));
if (below.length > 0)
  lines.push(
    '',
    `Faces under minScore (where, as fractions of the image): ${below.map((face) => `${face.photo} ${where(face)} ${face.score.toFixed(2)}`).join('; ')}.`,
  );
const photos = found.map(({ faces }) => atDefault(faces));
const all = photos.flat();
const withDefaults = recognise(photos, { maxDistance, minFaces });
const withOne = recognise(photos, { maxDistance, minFaces: 1 });
const immich = recognise(
  found.map(({ faces }) => faces.filter((face) => face.score >= immichMinScore)),
  { maxDistance, minFaces },
);
lines.push(
  '',
  `${all.length} faces in ${found.filter((photo) => atDefault(photo.faces).length > 0).length} of ${found.length} photos (${found.flatMap(({ faces }) => faces.filter((face) => face.score >= immichMinScore)).length} at Immich's minScore ${immichMinScore}). With the defaults: ${withDefaults.people} people, ${withDefaults.personOf.size} faces given one; with minFaces 1: ${withOne.people} people; with minScore ${immichMinScore}: ${immich.people} people.`,
);
// How far each face is from its nearest other face (another photo's or the same one's).
const nearestOther = all.map((face) =>
  Math.min(...all.filter((other) => other.id !== face.id).map((other) => faceDistance(face.descriptor, other.descriptor))),
);
if (nearestOther.length > 1)
  lines.push(
    `Each face's nearest other face, in maxDistance's units: ${nearestOther
      .map((d) => d.toFixed(2))
      .sort()
      .join(', ')}.`,
  );

if (portraitPath) {
  const data = readFileSync(portraitPath);
  const made = await portraitCopies(data, copies);
  const copyFaces: Face[][] = [];
  lines.push(
    '',
    `Copies of ${relative(folder, portraitPath) || portraitPath} (every face of score ≥ ${Math.min(...scores)}; its place as fractions of the copy; its distance to the file's own best face):`,
    '',
    '| copy | faces: score, place, distance |',
    '| --- | --- |',
  );
  const first = await facesIn('portrait', data, minScore);
  const reference = first?.faces[0];
  for (const copy of made) {
    const result = await facesIn(copy.name, copy.data, Math.min(...scores));
    const faces = result?.faces ?? [];
    copyFaces.push(faces);
    lines.push(
      `| ${copy.name} | ${
        faces
          .map(
            (face) =>
              `${face.score.toFixed(2)} ${where(face)} ${reference ? faceDistance(face.descriptor, reference.descriptor).toFixed(2) : '–'}`,
          )
          .join('; ') || 'none'
      } |`,
    );
  }
  // The copies alone, in a library of their own, then after the folder's photos; at the default minScore and at the lowest.
  for (const score of [...new Set([minScore, immichMinScore])])
    for (const [label, sequence] of [
      ['alone', copyFaces],
      ['after the folder’s photos', [...found.map(({ faces }) => faces), ...copyFaces]],
    ] as const) {
      const kept = sequence.map((faces) => faces.filter((face) => face.score >= score));
      const result = recognise(kept, { maxDistance, minFaces });
      // Each copy's face of the portrait's person: its face within maxDistance of the file's own best face, if any was found.
      const ofPerson = copyFaces.map((faces) => {
        const theirs = faces.filter(
          (face) => face.score >= score && reference && faceDistance(face.descriptor, reference.descriptor) <= maxDistance,
        );
        return theirs[0] ? (result.personOf.get(theirs[0].id) ?? 'no one') : 'no face found';
      });
      lines.push(
        '',
        `minScore ${score}, maxDistance ${maxDistance}, minFaces ${minFaces}, ${label}: the copies' faces of the portrait's person show ${[
          ...new Set(ofPerson),
        ]
          .map((p) => `${p} (${ofPerson.filter((each) => each === p).length})`)
          .join(', ')}; ${result.people} people in all.`,
      );
    }
}
console.log(lines.join('\n'));
process.exit(0);
