/**
 * A video's poster frame, as Immich's thumbnail job makes it with ffmpeg: the first key frame,
 * rotated as the player would show it (ffmpeg applies the track's display matrix), scaled so its
 * shorter side is at most the preview size, handed on as PNG (lossless) to the same code that
 * makes a photo's preview, thumbnail and thumbhash (./images.ts).
 *
 * The binary: `FFMPEG_PATH` if set; on Lambda, `bin/ffmpeg` beside the bundle (the linux-arm64
 * build from @ffmpeg-installer, docs/deployment.md); elsewhere @ffmpeg-installer's build for this
 * machine, from node_modules (./binaries.ts).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binaryEnvironment, ffmpegPath } from './binaries.ts';

export { ffmpegPath, ffprobePath } from './binaries.ts';

/** Longest an ffmpeg run may take: a poster of a long 4K video takes a few seconds. */
const timeoutMs = 90_000;

const run = async (args: string[]): Promise<Buffer> => {
  const binary = await ffmpegPath();
  return new Promise((resolve, reject) => {
    const options = { encoding: 'buffer' as const, maxBuffer: 512 * 1024 * 1024, timeout: timeoutMs, env: binaryEnvironment() };
    // node:child_process (with the net and dgram handles it loads) is loaded on the first video, not
    // at the media function's cold start: photos never run ffmpeg (docs/benchmarks.md, "The
    // background backup path").
    process.getBuiltinModule('node:child_process').execFile(binary, args, options, (error, stdout, stderr) => {
      if (error) reject(new Error(`ffmpeg: ${stderr.toString('utf8').trim().split('\n').slice(-3).join(' ') || error.message}`));
      else resolve(stdout);
    });
  });
};

/**
 * The poster frame of a video as PNG bytes, its shorter side at most `size` (never enlarged).
 * `video` is the file's bytes, or where ffmpeg reads it itself: a path, or a URL it reads by
 * ranges (an S3 presigned URL), so a video of any size is never held in memory nor copied to /tmp.
 * Throws when ffmpeg finds no video stream it can decode.
 */
export const renderPoster = async (video: Uint8Array | string, size: number): Promise<Buffer> => {
  // ffmpeg reads from a file or a URL: a container whose index (`moov`) is at the end cannot be read from a pipe.
  const folder = await mkdtemp(join(tmpdir(), 'poster-'));
  const input = typeof video === 'string' ? video : join(folder, 'input');
  try {
    if (typeof video !== 'string') await writeFile(input, video);
    const scale = `scale='if(gt(iw,ih),-2,min(iw,${size}))':'if(gt(iw,ih),min(ih,${size}),-2)'`;
    const frame = await run([
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      // Decode key frames only: the first one is the poster, as Immich's (-skip_frame nokey).
      '-skip_frame',
      'nokey',
      '-i',
      input,
      '-map',
      '0:v:0',
      '-frames:v',
      '1',
      '-vf',
      scale,
      '-c:v',
      'png',
      '-f',
      'image2pipe',
      'pipe:1',
    ]);
    if (frame.length === 0) throw new Error('ffmpeg: no frame');
    return frame;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
};
