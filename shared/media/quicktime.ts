/**
 * What an MP4 / QuickTime file (ISO base media: .mp4 .mov .m4v .3gp .insv) says about itself, read
 * from its `moov` box the way exiftool reports it to Immich's metadata job
 * (docs/immich-compatibility.md, "Media"): duration, the video track's size and rotation, the
 * creation date (Apple's `com.apple.quicktime.creationdate` with its offset, else the movie
 * header's UTC time), the GPS position (Apple's ISO 6709 key, `©xyz` as Android writes it, or 3GPP `loci`) and the camera's make and
 * model. Pure JavaScript over the bytes already in memory at upload: the API functions need no
 * ffprobe binary, and a file this cannot read simply has no container metadata.
 *
 * Box layout: ISO/IEC 14496-12 (ISO base media file format) and Apple's QuickTime File Format
 * (metadata `keys` / `ilst`, user data `©xyz`).
 */

import { isHeif } from './heif.ts';
import { type Box, boxesIn, child, children } from './iso-bmff.ts';

/** Seconds between 1904-01-01 (the format's epoch) and 1970-01-01. */
const epoch1904 = 2_082_844_800;

export interface ContainerMetadata {
  durationSeconds?: number;
  /** The video track's stored size (before rotation), as exiftool's ImageWidth / ImageHeight. */
  width?: number;
  height?: number;
  /** Clockwise rotation the player applies (from the track matrix): 0, 90, 180 or 270. */
  rotation?: number;
  /** `com.apple.quicktime.creationdate`: a wall-clock time with its UTC offset (`2019-03-21T11:04:22-0500`). */
  creationDate?: string;
  /** The movie header's creation time (UTC by the format's definition). */
  createdAt?: Date;
  latitude?: number;
  longitude?: number;
  make?: string;
  model?: string;
}

/** Whether the bytes start like an ISO base media file (an `ftyp` box) of a video, not a HEIF/AVIF still. */
export const isIsoVideo = (data: Buffer): boolean => data.length >= 12 && data.toString('latin1', 4, 8) === 'ftyp' && !isHeif(data);

/** ISO 6709 `+37.7858-122.4064+000.000/` → latitude, longitude. */
const parseIso6709 = (value: string): { latitude: number; longitude: number } | undefined => {
  const match = /^([+-]\d+(?:\.\d+)?)([+-]\d+(?:\.\d+)?)/.exec(value.trim());
  if (!match) return undefined;
  const latitude = Number(match[1]);
  const longitude = Number(match[2]);
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return undefined;
  return { latitude, longitude };
};

/** A QuickTime user-data text (`©xyz`, `©mak`): 16-bit length, 16-bit language, the text. */
const userText = (data: Buffer, box: Box | undefined): string | undefined => {
  if (!box || box.end - box.start < 4) return undefined;
  const length = data.readUInt16BE(box.start);
  const text = data.toString('utf8', box.start + 4, Math.min(box.end, box.start + 4 + length)).replace(/\0+$/, '');
  return text.trim() || undefined;
};

/**
 * A `meta` box's values: Apple's (`keys` names them, `ilst` items are 1-based indexes into it) or
 * iTunes-style (`ilst` items named by their own four characters, `©xyz`). Each value is in a
 * `data` box; only text (type 1, UTF-8) is read.
 */
const metaValues = (data: Buffer, meta: Box | undefined): Map<string, string> => {
  const values = new Map<string, string>();
  if (!meta) return values;
  // In `moov` Apple's `meta` has no version field; in `udta` (ISO) it does.
  const skip = data.toString('latin1', meta.start + 4, meta.start + 8) === 'hdlr' ? 0 : 4;
  const keys = child(data, meta, 'keys', skip);
  const list = child(data, meta, 'ilst', skip);
  if (!list) return values;
  const names: string[] = [];
  if (keys) {
    const count = data.readUInt32BE(keys.start + 4);
    let at = keys.start + 8;
    for (let index = 0; index < count && at + 8 <= keys.end; index++) {
      const size = data.readUInt32BE(at);
      if (size < 8) break;
      names.push(data.toString('utf8', at + 8, at + size));
      at += size;
    }
  }
  for (const item of boxesIn(data, list.start, list.end)) {
    const name = keys ? names[data.readUInt32BE(item.start - 4) - 1] : item.type;
    const value = child(data, item, 'data');
    if (!name || !value || value.end - value.start < 8 || data.readUInt32BE(value.start) !== 1) continue;
    values.set(name, data.toString('utf8', value.start + 8, value.end).trim());
  }
  return values;
};

const fixed16 = (data: Buffer, at: number): number => data.readInt32BE(at) / 65_536;

/** 3GPP location (`loci`, TS 26.244): a name, a role, then longitude, latitude and altitude as 16.16 numbers. */
const locationInformation = (data: Buffer, loci: Box | undefined): { latitude: number; longitude: number } | undefined => {
  if (!loci) return undefined;
  const nameEnd = data.indexOf(0, loci.start + 6);
  const at = nameEnd + 2;
  if (nameEnd < 0 || at + 8 > loci.end) return undefined;
  const longitude = fixed16(data, at);
  const latitude = fixed16(data, at + 4);
  return Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180 ? { latitude, longitude } : undefined;
};

/** The track header's size and its matrix's rotation. */
const trackHeader = (data: Buffer, tkhd: Box): { width: number; height: number; rotation: number } => {
  const version = data.readUInt8(tkhd.start);
  const matrix = tkhd.start + 4 + (version === 1 ? 32 : 20) + 16;
  const a = fixed16(data, matrix);
  const b = fixed16(data, matrix + 4);
  const degrees = Math.round((Math.atan2(b, a) * 180) / Math.PI);
  return {
    width: Math.round(fixed16(data, matrix + 36)),
    height: Math.round(fixed16(data, matrix + 40)),
    rotation: (((Math.round(degrees / 90) * 90) % 360) + 360) % 360,
  };
};

/** Reads what the container says; an empty object when it is not an ISO base media file or is cut short. */
export const readContainer = (data: Buffer): ContainerMetadata => {
  try {
    return read(data);
  } catch {
    return {};
  }
};

const read = (data: Buffer): ContainerMetadata => {
  const moov = boxesIn(data, 0, data.length).find((box) => box.type === 'moov');
  if (!moov) return {};
  const found: ContainerMetadata = {};
  const mvhd = child(data, moov, 'mvhd');
  if (mvhd) {
    const version = data.readUInt8(mvhd.start);
    const created = version === 1 ? Number(data.readBigUInt64BE(mvhd.start + 4)) : data.readUInt32BE(mvhd.start + 4);
    const timescale = data.readUInt32BE(mvhd.start + (version === 1 ? 20 : 12));
    const duration = version === 1 ? Number(data.readBigUInt64BE(mvhd.start + 24)) : data.readUInt32BE(mvhd.start + 16);
    if (created > epoch1904) found.createdAt = new Date((created - epoch1904) * 1000);
    if (timescale > 0 && duration > 0 && duration !== 0xffffffff) found.durationSeconds = duration / timescale;
  }
  for (const trak of children(data, moov, 'trak')) {
    const mdia = child(data, trak, 'mdia');
    const hdlr = child(data, mdia, 'hdlr');
    const tkhd = child(data, trak, 'tkhd');
    if (!hdlr || !tkhd || data.toString('latin1', hdlr.start + 8, hdlr.start + 12) !== 'vide') continue;
    const header = trackHeader(data, tkhd);
    if (header.width > 0 && header.height > 0) Object.assign(found, header);
    break;
  }
  const udta = child(data, moov, 'udta');
  const apple = new Map([...metaValues(data, child(data, udta, 'meta')), ...metaValues(data, child(data, moov, 'meta'))]);
  const position =
    parseIso6709(
      apple.get('com.apple.quicktime.location.ISO6709') ?? apple.get('©xyz') ?? userText(data, child(data, udta, '©xyz')) ?? '',
    ) ?? locationInformation(data, child(data, udta, 'loci'));
  if (position && !(position.latitude === 0 && position.longitude === 0)) Object.assign(found, position);
  const creationDate = apple.get('com.apple.quicktime.creationdate');
  if (creationDate) found.creationDate = creationDate;
  const make = apple.get('com.apple.quicktime.make') ?? apple.get('©mak') ?? userText(data, child(data, udta, '©mak'));
  const model = apple.get('com.apple.quicktime.model') ?? apple.get('©mod') ?? userText(data, child(data, udta, '©mod'));
  if (make) found.make = make;
  if (model) found.model = model;
  return found;
};

/** Immich's orientation of a video from the rotation ffprobe reports (metadata.service: -90 → 6). */
export const orientationOfRotation = (rotation: number): string => ({ 90: '6', 180: '3', 270: '8' })[rotation] ?? '1';
