import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ffmpeg from '@ffmpeg-installer/ffmpeg';
import { createApiKey, createUser, login, signUpAdmin } from '@immich/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Summary } from '#infra/uploader/uploader.ts';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg, makeSidecar } from '../support/photos.ts';
import { target, useServer } from '../support/server.ts';
import { hangGuard } from '../support/timeouts.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const uploader = join(root, 'infra', 'uploader', 'cli.ts');
const immichCli = join(root, 'node_modules', '@immich', 'cli', 'dist', 'index.js');
const mebibyte = 1024 * 1024;

// The sizes against the local server; the deployed form (every part through the S3
// gateway and s3rver) gets smaller files of several parts each, to keep the suite's time.
const sizes =
  target() === 'deployed'
    ? { videoFrames: 140, imageBytes: 6 * mebibyte, rate: '8' }
    : { videoFrames: 410, imageBytes: 25 * mebibyte, rate: '20' };

/** A video of raw frames (QuickTime, `moov` after the media data, as a camera writes it): 153,600 bytes a frame (410: 60 MB). */
const makeRawVideo = (path: string, frames: number): void => {
  execFileSync(ffmpeg.path, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=320x240:rate=25`,
    '-frames:v',
    String(frames),
    '-c:v',
    'rawvideo',
    '-pix_fmt',
    'uyvy422',
    '-metadata',
    'creation_time=2021-08-09T10:11:12.000Z',
    '-y',
    path,
  ]);
};

const sha1 = (path: string) => createHash('sha1').update(readFileSync(path)).digest('base64');

describe('npm run upload: a library with large files, resumable', () => {
  const server = useServer();
  let work: string;
  let config: string;
  let apiKey: string;
  const env = () => ({ ...process.env, IMMICH_CONFIG_DIR: config, NO_COLOR: '1' });
  const upload = async (...args: string[]): Promise<Summary> => {
    const { stdout } = await run(process.execPath, [uploader, '--json', ...args], { env: env(), timeout: hangGuard.process });
    return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Summary;
  };
  const api = async (path: string) => {
    const response = await fetch(`${server.baseUrl}${path}`, { headers: { 'x-api-key': apiKey } });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      body: response.headers.get('content-type')?.includes('json') ? await response.json() : await response.arrayBuffer(),
    };
  };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'uploader-'));
    config = join(work, 'config');
    const baseUrl = server.baseUrl;
    await signUpAdmin({ signUpDto: { email: 'admin@immich.cloud', password: 'password', name: 'Admin' } }, { baseUrl });
    const admin = await login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl });
    // Not about OCR or duplicates or faces: off, as each photo's cost (test/support/ml-tasks.ts).
    await turnOffMlTasks({ baseUrl, headers: { Authorization: `Bearer ${admin.accessToken}` } }, [
      'facialRecognition',
      'ocr',
      'duplicateDetection',
    ]);
    await createUser(
      { createUserDto: { email: 'library@immich.cloud', password: 'password', name: 'Library' } },
      { baseUrl, headers: { Authorization: `Bearer ${admin.accessToken}` } },
    );
    const user = await login({ loginCredentialDto: { email: 'library@immich.cloud', password: 'password' } }, { baseUrl });
    apiKey = (
      await createApiKey({ apiKeyCreateDto: { name: 'uploader' } }, { baseUrl, headers: { Authorization: `Bearer ${user.accessToken}` } })
    ).secret;
    // The Immich CLI's own login: the uploader reads the auth.yml it writes.
    await run(process.execPath, [immichCli, 'login-key', baseUrl, apiKey], { env: env(), timeout: hangGuard.process });

    const library = join(work, 'Holidays');
    mkdirSync(library);
    makeRawVideo(join(library, 'video.mov'), sizes.videoFrames);
    const photo = makeJpeg({
      width: 96,
      height: 64,
      make: 'Sony',
      model: 'ILCE-7RM5',
      dateTimeOriginal: '2023:03:04 05:06:07',
      offsetTimeOriginal: '+00:00',
    });
    writeFileSync(join(library, 'big.jpg'), Buffer.concat([photo, randomBytes(sizes.imageBytes - photo.length)]));
    writeFileSync(join(library, 'small.jpg'), makeJpeg({ width: 32, height: 32, comment: 'small' }));
    writeFileSync(join(library, 'small.xmp'), makeSidecar({ description: 'A sidecar’s words' }));
    writeFileSync(join(library, 'notes.txt'), 'not a photo');
    mkdirSync(join(library, 'skip'));
    writeFileSync(join(library, 'skip', 'ignored.jpg'), makeJpeg({ comment: 'ignored' }));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('dry run: lists what it would send, sends nothing', async () => {
    const summary = await upload('--dry-run', '--recursive', '--ignore', '**/skip/**', join(work, 'Holidays'));
    expect(summary).toMatchObject({ uploaded: 0, duplicates: 0, bytesSent: 0, failed: 0 });
    expect((await api('/asset/statistics')).body).toMatchObject({ total: 0 });
  });

  it('killed mid-file, then run again: finishes without re-sending finished parts; a third run sends nothing', async () => {
    const library = join(work, 'Holidays');
    const videoPath = join(library, 'video.mov');
    const videoParts = Math.ceil(readFileSync(videoPath).length / (5 * mebibyte));
    // One file at a time, 5 MB parts, rate-limited: killed once two of the video's parts are in.
    const first: ChildProcess = spawn(
      process.execPath,
      [uploader, '--recursive', '--ignore', '**/skip/**', '--concurrency', '1', '--part-size', '5', '--limit-rate', sizes.rate, library],
      { env: env(), stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => first.once('exit', resolve));
    const statePath = join(config, 'upload-sessions.json');
    let sentBeforeKill = 0;
    for (let waited = 0; waited < 60_000 && first.exitCode === null; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      let state: Record<string, Record<string, { sessionId: string }>> = {};
      try {
        state = JSON.parse(readFileSync(statePath, 'utf8'));
      } catch {
        continue;
      }
      const session = Object.values(state)[0]?.[videoPath];
      if (!session) continue;
      const status = await api(`/asset/upload-session/${session.sessionId}`);
      sentBeforeKill =
        status.status === 200
          ? (status.body as { parts: { uploaded: boolean }[] }).parts.filter((part: { uploaded: boolean }) => part.uploaded).length
          : 0;
      if (sentBeforeKill >= 2) {
        first.kill('SIGKILL');
        break;
      }
    }
    await exited;
    expect(sentBeforeKill).toBeGreaterThanOrEqual(2);
    expect(sentBeforeKill).toBeLessThan(videoParts);

    const second = await upload('--recursive', '--ignore', '**/skip/**', '--part-size', '5', '--album', library);
    expect(second).toMatchObject({ uploaded: 1, duplicates: 2, failed: 0, sessions: 1, resumed: 1, albums: 1 });
    // At least the parts seen before the kill were not sent again (one more may have landed as it died).
    expect(second.partsSkipped).toBeGreaterThanOrEqual(sentBeforeKill);
    expect(second.partsSent + second.partsSkipped).toBe(videoParts);

    const assets = (await api('/asset?take=10')).body as {
      id: string;
      originalFileName: string;
      checksum: string;
      type: string;
      duration: string;
      fileCreatedAt: string;
      exifInfo: Record<string, unknown>;
    }[];
    const byName = new Map(assets.map((asset) => [asset.originalFileName, asset]));
    expect([...byName.keys()].sort()).toEqual(['big.jpg', 'small.jpg', 'video.mov']);
    for (const [name, asset] of byName) expect(asset.checksum, name).toBe(sha1(join(library, name)));
    expect(byName.get('video.mov')).toMatchObject({
      type: 'VIDEO',
      duration: `00:00:${(sizes.videoFrames / 25).toFixed(3).padStart(6, '0')}`,
      fileCreatedAt: '2021-08-09T10:11:12.000Z',
      exifInfo: { exifImageWidth: 320, exifImageHeight: 240, fileSizeInByte: readFileSync(videoPath).length },
    });
    expect(byName.get('big.jpg')).toMatchObject({
      fileCreatedAt: '2023-03-04T05:06:07.000Z',
      exifInfo: { make: 'Sony', model: 'ILCE-7RM5', fileSizeInByte: sizes.imageBytes },
    });
    expect(byName.get('small.jpg')?.exifInfo).toMatchObject({ description: 'A sidecar’s words' });
    // Previews: the video's poster and the large photo's thumbnail, made once each was recorded.
    for (const name of ['video.mov', 'big.jpg']) {
      let thumbnail = await api(`/asset/thumbnail/${byName.get(name)?.id}`);
      for (let tries = 0; thumbnail.status !== 200 && tries < 120; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        thumbnail = await api(`/asset/thumbnail/${byName.get(name)?.id}`);
      }
      expect(thumbnail.status, name).toBe(200);
      expect(thumbnail.type, name).toMatch(/^image\//);
    }
    const albums = (await api('/album')).body as { albumName: string; assetCount: number }[];
    expect(albums).toEqual([expect.objectContaining({ albumName: 'Holidays', assetCount: 3 })]);

    const third = await upload('--recursive', '--ignore', '**/skip/**', library);
    expect(third).toMatchObject({ uploaded: 0, duplicates: 3, bytesSent: 0, partsSent: 0, failed: 0 });
  });

  it('a copy of a file already uploaded is answered from its checksum, without sending it', async () => {
    const copies = join(work, 'Copies');
    mkdirSync(copies);
    copyFileSync(join(work, 'Holidays', 'big.jpg'), join(copies, 'renamed.jpg'));
    const summary = await upload(copies);
    expect(summary).toMatchObject({ uploaded: 0, duplicates: 1, bytesSent: 0 });
  });
});
