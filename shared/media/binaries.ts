/**
 * Where the media code finds its native programs, one way for every caller (docs/media.md):
 * ffmpeg (posters, transcoding) and ffprobe (a video's streams, for the transcode decision).
 *
 * Each is: its `*_PATH` setting if set (`FFMPEG_PATH`, `FFPROBE_PATH`); on Lambda, `bin/<name>`
 * beside the bundle (the linux-arm64 builds infra/tools/lambda-binaries.ts fetches, copied in at
 * synth: docs/deployment.md); elsewhere the npm package's build for this machine
 * (@ffmpeg-installer/ffmpeg, @ffprobe-installer/ffprobe), from node_modules.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { environmentWith, ffmpegPathSetting, ffprobePathSetting, lambdaTaskRoot } from '../core/env.ts';

const locate = async (name: string, setting: string | undefined, installed: () => Promise<string>): Promise<string> => {
  if (setting) return setting;
  const taskRoot = lambdaTaskRoot();
  const beside = taskRoot ? join(taskRoot, 'bin', name) : undefined;
  if (beside && existsSync(beside)) return beside;
  return installed();
};

let ffmpegLocated: Promise<string> | undefined;
let ffprobeLocated: Promise<string> | undefined;

/** The ffmpeg binary to run. */
export const ffmpegPath = (): Promise<string> =>
  (ffmpegLocated ??= locate('ffmpeg', ffmpegPathSetting(), async () => (await import('@ffmpeg-installer/ffmpeg')).default.path));

/** The ffprobe binary to run. */
export const ffprobePath = (): Promise<string> =>
  (ffprobeLocated ??= locate('ffprobe', ffprobePathSetting(), async () => (await import('@ffprobe-installer/ffprobe')).default.path));

let environment: NodeJS.ProcessEnv | undefined;

/**
 * The environment to run either binary in. The static builds carry their own glibc, whose iconv
 * would load the system's gconv modules (another glibc's) and crash: ffprobe segfaults reading any
 * MPEG-TS, whose service names it converts. With no modules to find, iconv_open fails cleanly and
 * the names stay as they are.
 */
export const binaryEnvironment = (): NodeJS.ProcessEnv => (environment ??= environmentWith({ GCONV_PATH: '/nonexistent-gconv' }));
