/**
 * Test videos made by ffmpeg (this machine's build from @ffmpeg-installer, the one the media code
 * uses here): a test pattern of the chosen size and length, encoded H.264 (MP4) or HEVC (MOV, as
 * iPhones record), with the container metadata a phone writes, each value chosen by the test.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpeg from '@ffmpeg-installer/ffmpeg';

export interface VideoSpec {
  container?: 'mp4' | 'mov';
  width?: number;
  height?: number;
  seconds?: number;
  /** Clockwise rotation a player applies (a phone held upright records 90). */
  rotation?: 0 | 90 | 180 | 270;
  /** The movie header's creation time (UTC), ISO. */
  creationTime?: string;
  /** ISO 6709, written as `©xyz` (MOV, as Android phones) or `loci` (MP4). */
  location?: string;
  /** Apple's `com.apple.quicktime.*` keys (MOV only), e.g. `{ creationdate: '2019-03-21T11:04:22-0500' }`. */
  apple?: Record<string, string>;
}

export const makeVideo = (spec: VideoSpec = {}): Buffer => {
  const { container = 'mp4', width = 640, height = 360, seconds = 2 } = spec;
  const folder = mkdtempSync(join(tmpdir(), 'video-'));
  const output = join(folder, `clip.${container}`);
  try {
    const codec = container === 'mov' ? ['-c:v', 'libx265', '-tag:v', 'hvc1', '-x265-params', 'log-level=error'] : ['-c:v', 'libx264'];
    const metadata = [
      ...(spec.creationTime ? ['-metadata', `creation_time=${spec.creationTime}`] : []),
      ...(spec.location ? ['-metadata', `location=${spec.location}`] : []),
      ...Object.entries(spec.apple ?? {}).flatMap(([key, value]) => ['-metadata', `com.apple.quicktime.${key}=${value}`]),
      ...(spec.apple ? ['-movflags', 'use_metadata_tags'] : []),
    ];
    execFileSync(ffmpeg.path, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=${width}x${height}:rate=25:duration=${seconds}`,
      ...codec,
      '-pix_fmt',
      'yuv420p',
      ...metadata,
      output,
    ]);
    if (!spec.rotation) return readFileSync(output);
    // The track's display matrix, written when copying (ffmpeg 4.1 drops it when encoding); its
    // `rotate` tag counts the other way from the matrix players (and exiftool) read.
    const rotated = join(folder, `rotated.${container}`);
    const tag = `rotate=${(360 - spec.rotation) % 360}`;
    execFileSync(ffmpeg.path, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-i',
      output,
      '-c',
      'copy',
      '-metadata:s:v:0',
      tag,
      ...metadata,
      rotated,
    ]);
    return readFileSync(rotated);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
};

/**
 * The clips the transcoding tests decide on and encode (shared/media/transcode.ts), each what a
 * phone or a camera records, tiny (≤ 1 s, ≤ 640 px but the 1080p one): made once per test file.
 */
export type TranscodeFixture =
  /** iPhone-like: HEVC Main 10, HLG (BT.2020), AAC, in MOV. */
  | 'hevc-hlg'
  /** HEVC Main 10, PQ (HDR10), AAC, in MP4. */
  | 'hevc-pq'
  /** H.264 yuv420p with AAC in MP4: needs nothing. */
  | 'h264-aac'
  /** VP9 with Opus in WebM. */
  | 'vp9-opus'
  /** H.264 with PCM (pcm_s16le) audio in MOV: the audio is not accepted. */
  | 'h264-pcm'
  /** HEVC recorded upright: 640×360 stored, a display matrix turning it 90° (portrait 360×640). */
  | 'hevc-portrait'
  /** H.264 + AAC in MPEG-TS: only the container is not accepted. */
  | 'h264-ts'
  /** H.264 1920×1080 (no audio): above the 720p target. */
  | 'h264-1080p'
  /** HEVC 8-bit with AAC in MP4 (isom), as an Android motion photo embeds (see makeMotionPhoto). */
  | 'hevc-motion';

export interface Clip {
  bytes: Buffer;
  extension: string;
}

const testPattern = (width: number, height: number, seconds: number) => [
  '-f',
  'lavfi',
  '-i',
  `testsrc2=size=${width}x${height}:rate=25:duration=${seconds}`,
];
const tone = (seconds: number) => ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`];
const x265 = ['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error', '-tag:v', 'hvc1'];
const x264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
const hdr = (transfer: string) => [
  '-pix_fmt',
  'yuv420p10le',
  '-color_trc',
  transfer,
  '-color_primaries',
  'bt2020',
  '-colorspace',
  'bt2020nc',
];

const recipes: Record<TranscodeFixture, { extension: string; args: string[]; rotate?: string }> = {
  'hevc-hlg': { extension: 'mov', args: [...testPattern(640, 360, 1), ...tone(1), ...x265, ...hdr('arib-std-b67'), '-c:a', 'aac'] },
  'hevc-pq': { extension: 'mp4', args: [...testPattern(640, 360, 1), ...tone(1), ...x265, ...hdr('smpte2084'), '-c:a', 'aac'] },
  'h264-aac': { extension: 'mp4', args: [...testPattern(640, 360, 1), ...tone(1), ...x264, '-c:a', 'aac'] },
  'vp9-opus': {
    extension: 'webm',
    args: [
      ...testPattern(320, 180, 1),
      ...tone(1),
      '-c:v',
      'libvpx-vp9',
      '-deadline',
      'realtime',
      '-cpu-used',
      '8',
      '-b:v',
      '200k',
      '-c:a',
      'libopus',
    ],
  },
  'h264-pcm': { extension: 'mov', args: [...testPattern(640, 360, 1), ...tone(1), ...x264, '-c:a', 'pcm_s16le'] },
  // ffmpeg 4.1's `rotate` tag counts clockwise the other way from the matrix: 270 is a phone held upright.
  'hevc-portrait': {
    extension: 'mov',
    args: [...testPattern(640, 360, 1), ...tone(1), ...x265, '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
    rotate: '270',
  },
  'h264-ts': { extension: 'ts', args: [...testPattern(640, 360, 1), ...tone(1), ...x264, '-c:a', 'aac', '-f', 'mpegts'] },
  'h264-1080p': { extension: 'mp4', args: [...testPattern(1920, 1080, 0.5), ...x264] },
  'hevc-motion': { extension: 'mp4', args: [...testPattern(480, 270, 0.5), ...tone(0.5), ...x265, '-pix_fmt', 'yuv420p', '-c:a', 'aac'] },
};

const clips = new Map<TranscodeFixture, Clip>();

/** One of the transcoding fixtures, made by this machine's ffmpeg (once per test file). */
export const makeClip = (fixture: TranscodeFixture): Clip => {
  const made = clips.get(fixture);
  if (made) return made;
  const { extension, args, rotate } = recipes[fixture];
  const folder = mkdtempSync(join(tmpdir(), 'clip-'));
  try {
    const output = join(folder, `clip.${extension}`);
    execFileSync(ffmpeg.path, ['-hide_banner', '-loglevel', 'error', ...args, '-shortest', output]);
    let file = output;
    if (rotate) {
      file = join(folder, `rotated.${extension}`);
      execFileSync(ffmpeg.path, [
        '-hide_banner',
        '-loglevel',
        'error',
        '-i',
        output,
        '-c',
        'copy',
        '-metadata:s:v:0',
        `rotate=${rotate}`,
        file,
      ]);
    }
    const clip = { bytes: readFileSync(file), extension };
    clips.set(fixture, clip);
    return clip;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
};

/**
 * An Android motion photo (a Pixel's MicroVideo form, as shared/media/motion-photo.ts reads it):
 * `jpeg` with Google's XMP saying the video's distance from the end, then the video (an MP4).
 */
export const makeMotionPhoto = (jpeg: Buffer, video: Buffer): Buffer => {
  const rdf =
    '<rdf:Description xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" ' +
    `GCamera:MicroVideo="1" GCamera:MicroVideoVersion="1" GCamera:MicroVideoOffset="${video.length}"/>`;
  const xmp = Buffer.from(
    `http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">${rdf}</rdf:RDF></x:xmpmeta>`,
    'utf8',
  );
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(xmp.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, xmp, jpeg.subarray(2), video]);
};
