import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lambdaBinaryPath } from '#infra/tools/lambda-binaries.ts';

// Where the media code finds ffmpeg and ffprobe (shared/media/binaries.ts), and the linux-arm64
// builds the install fetched for the Lambda bundles (infra/tools/lambda-binaries.ts).

/** A fresh copy of the module (it remembers what it found). */
const binaries = async () => {
  vi.resetModules();
  return import('#shared/media/binaries.ts');
};

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('ffmpegPath and ffprobePath', () => {
  it('take FFMPEG_PATH and FFPROBE_PATH first', async () => {
    vi.stubEnv('FFMPEG_PATH', '/opt/ffmpeg');
    vi.stubEnv('FFPROBE_PATH', '/opt/ffprobe');
    const { ffmpegPath, ffprobePath } = await binaries();
    expect(await ffmpegPath()).toBe('/opt/ffmpeg');
    expect(await ffprobePath()).toBe('/opt/ffprobe');
  });

  it('on Lambda, the ones in bin/ beside the bundle', async () => {
    const root = mkdtempSync(join(tmpdir(), 'task-root-'));
    try {
      mkdirSync(join(root, 'bin'));
      for (const name of ['ffmpeg', 'ffprobe']) writeFileSync(join(root, 'bin', name), '');
      vi.stubEnv('FFMPEG_PATH', '');
      vi.stubEnv('FFPROBE_PATH', '');
      vi.stubEnv('LAMBDA_TASK_ROOT', root);
      const { ffmpegPath, ffprobePath } = await binaries();
      expect(await ffmpegPath()).toBe(join(root, 'bin', 'ffmpeg'));
      expect(await ffprobePath()).toBe(join(root, 'bin', 'ffprobe'));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('else this machine’s builds from the npm packages, executable', async () => {
    vi.stubEnv('FFMPEG_PATH', '');
    vi.stubEnv('FFPROBE_PATH', '');
    vi.stubEnv('LAMBDA_TASK_ROOT', '');
    const { ffmpegPath, ffprobePath } = await binaries();
    const platform = `${process.platform}-${process.arch}`;
    expect(await ffmpegPath()).toMatch(new RegExp(`@ffmpeg-installer/${platform}/ffmpeg$`));
    expect(await ffprobePath()).toMatch(new RegExp(`@ffprobe-installer/${platform}/ffprobe$`));
    for (const path of [await ffmpegPath(), await ffprobePath()]) expect(statSync(path).mode & 0o111).toBe(0o111);
  });
});

describe('the Lambda builds fetched at install', () => {
  it('are linux-arm64 executables: ffmpeg and ffprobe', () => {
    for (const name of ['ffmpeg', 'ffprobe'] as const) {
      const path = lambdaBinaryPath(name);
      const header = readFileSync(path).subarray(0, 20);
      expect(header.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
      // e_machine 183: AArch64.
      expect(header.readUInt16LE(18)).toBe(183);
      expect(statSync(path).mode & 0o111).toBe(0o111);
    }
  });
});
