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
