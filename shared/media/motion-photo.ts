/**
 * The video inside a motion photo, as Immich's metadata job extracts it (docs/immich-compatibility.md,
 * "Media"): Google's MotionPhoto / MicroVideo JPEGs and Samsung's (One UI) JPEGs carry an MP4
 * appended after the picture (Samsung's behind a `MotionPhoto_Data` marker, followed by its own
 * trailer); Samsung's HEIC files carry it in a top-level `mpvd` box. The MP4 is found by its
 * boxes: an `ftyp` box followed by boxes that add up, with a `moov` and an `mdat`, so a stray
 * `ftyp` in the picture's bytes is never taken for a video.
 */
import { boxesIn } from './iso-bmff.ts';

/** Boxes that may follow `ftyp` at the top level of an MP4. */
const topLevel = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'uuid', 'meta', 'pnot', 'udta', 'mfra', 'moof', 'sidx']);

/** The MP4 starting at `start` (its `ftyp` box) up to the last box that belongs to it, or undefined. */
const mp4At = (data: Buffer, start: number): Buffer | undefined => {
  let end = start;
  const seen = new Set<string>();
  for (const box of boxesIn(data, start, data.length)) {
    const headerStart = end;
    if (!topLevel.has(box.type) || box.start - headerStart > 16) break;
    seen.add(box.type);
    end = box.end;
  }
  return seen.has('ftyp') && seen.has('moov') && seen.has('mdat') ? data.subarray(start, end) : undefined;
};

const ftyp = Buffer.from('ftyp');

/** The embedded video of a motion photo (JPEG or HEIC), or undefined when the file has none. */
export const motionVideoOf = (data: Buffer): Buffer | undefined => {
  if (data.length < 16) return undefined;
  // HEIC (Samsung): the `mpvd` box holds the MP4.
  if (data.toString('latin1', 4, 8) === 'ftyp') {
    const mpvd = boxesIn(data, 0, data.length).find((box) => box.type === 'mpvd');
    return mpvd ? mp4At(data, mpvd.start) : undefined;
  }
  // JPEG: the first `ftyp` box after which a whole MP4 follows.
  if (data[0] !== 0xff || data[1] !== 0xd8) return undefined;
  for (let at = data.indexOf(ftyp, 12); at >= 4; at = data.indexOf(ftyp, at + 4)) {
    const video = mp4At(data, at - 4);
    if (video) return video;
  }
  return undefined;
};

/**
 * The container of an extracted motion video, by its `ftyp` box's major brand: QuickTime (`qt  `)
 * is a `.mov`, anything else (`isom`, `mp42`, `mp41`…: what Google's and Samsung's cameras write)
 * an `.mp4`. The extension names the hidden video asset and types it when served
 * (docs/immich-compatibility.md, "Media").
 */
export const motionVideoExtension = (video: Buffer): '.mov' | '.mp4' =>
  video.length >= 12 && video.toString('latin1', 4, 8) === 'ftyp' && video.toString('latin1', 8, 12) === 'qt  ' ? '.mov' : '.mp4';
