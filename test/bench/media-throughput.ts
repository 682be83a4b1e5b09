/**
 * `npm run bench -- media-throughput`: how fast the media function's code makes previews, per
 * format (photos/s and MB of original per second, one at a time, as one Lambda environment works),
 * and what serving them costs through the local server (median and p95 of the file routes).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import Vips from 'wasm-vips';
import { type CodedImage, codedImages, gridHeif } from '../support/heif-grid.ts';
import { makeVideo } from '../support/videos.ts';
import { ownProcess, startLocalStack } from './local-stack.ts';
import { median, percentile, table } from './stats.ts';

type VipsImage = InstanceType<Awaited<ReturnType<typeof Vips>>['Image']>;

const settings = { webpSize: 250, jpegSize: 1440, quality: 80, colorspace: 'p3' as const };
const runs = 5;

/** A 12-MP photo-like picture (a gradient with noise, so it compresses as a photo does). */
const photo = async () => {
  const vips = await Vips();
  const noise = vips.Image.gaussnoise(4000, 3000, { sigma: 24, mean: 128 });
  const ramp = vips.Image.xyz(4000, 3000)
    .extractBand(0)
    .linear(1 / 16, 0);
  const rgb = noise
    .add(ramp)
    .bandjoin([noise.linear(0.8, 30), noise.add(ramp.linear(0.5, 0))])
    .cast('uchar');
  return { vips, rgb };
};

/**
 * HEIC as an iPhone writes it: a grid of 512-px HEVC tiles (test/support/heif-grid.ts). It needs
 * an HEVC encoder, Debian's heif-enc (libheif-examples), when it is installed: each tile is one.
 */
const heicOf = (rgb: VipsImage): Buffer | undefined => {
  const work = mkdtempSync(join(tmpdir(), 'bench-heic-'));
  const tile = 512;
  const columns = Math.ceil(rgb.width / tile);
  const rows = Math.ceil(rgb.height / tile);
  try {
    const tiles: CodedImage[] = [];
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < columns; x++) {
        const width = Math.min(tile, rgb.width - x * tile);
        const height = Math.min(tile, rgb.height - y * tile);
        const cell = rgb.extractArea(x * tile, y * tile, width, height).embed(0, 0, tile, tile, { extend: 'copy' });
        execFileSync('sh', ['-c', `cat > ${work}/in.jpg && heif-enc -q 50 -o ${work}/out.heic ${work}/in.jpg`], {
          input: cell.jpegsaveBuffer({ Q: 95 }),
          stdio: ['pipe', 'ignore', 'ignore'],
        });
        tiles.push(...codedImages(readFileSync(join(work, 'out.heic'))));
      }
    }
    return gridHeif(tiles, { columns, rows, tileWidth: tile, tileHeight: tile, width: rgb.width, height: rgb.height });
  } catch {
    return undefined;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};

const timed = async (work: () => Promise<unknown>): Promise<number> => {
  await work();
  const start = performance.now();
  for (let index = 0; index < runs; index++) await work();
  return (performance.now() - start) / runs;
};

const measure = async (): Promise<string> => {
  const { renderPreviews } = await import('#shared/media/images.ts');
  const { renderPoster } = await import('#shared/media/video.ts');
  const { vips, rgb } = await photo();
  const jpeg = Buffer.from(rgb.jpegsaveBuffer({ Q: 90 }));
  const files: [string, Buffer | undefined, 'photo' | 'video'][] = [
    ['JPEG 12 MP', jpeg, 'photo'],
    ['PNG 12 MP', Buffer.from(rgb.pngsaveBuffer({ compression: 3 })), 'photo'],
    ['WebP 12 MP', Buffer.from(rgb.webpsaveBuffer({ Q: 90 })), 'photo'],
    ['TIFF 12 MP', Buffer.from(rgb.tiffsaveBuffer({ compression: 'lzw' })), 'photo'],
    ['AVIF 12 MP', Buffer.from(rgb.heifsaveBuffer({ compression: 'av1', Q: 60, effort: 2 })), 'photo'],
    ['HEIC 12 MP (HEVC, 512-px grid)', heicOf(rgb), 'photo'],
    ['MP4 1080p, 10 s (H.264)', makeVideo({ width: 1920, height: 1080, seconds: 10 }), 'video'],
    ['MOV 1080p, 10 s (HEVC)', makeVideo({ container: 'mov', width: 1920, height: 1080, seconds: 10 }), 'video'],
  ];
  void vips;
  const rows: string[][] = [];
  for (const [name, file, kind] of files) {
    if (!file) {
      rows.push([name, '–', 'not measured: heif-enc (Debian libheif-examples) is not installed', '', '']);
      continue;
    }
    const ms = await timed(async () => renderPreviews(kind === 'video' ? await renderPoster(file, settings.jpegSize) : file, settings));
    rows.push([name, (file.length / 1e6).toFixed(1), ms.toFixed(0), (1000 / ms).toFixed(2), (file.length / 1e6 / (ms / 1000)).toFixed(1)]);
    if (name.startsWith('HEIC')) {
      // Where a HEIC's time goes: libheif's HEVC decode (WebAssembly), its tiles over every core, and on one.
      const { decodeHeic } = await import('#shared/media/heic.ts');
      const spread = await timed(async () => decodeHeic(file));
      const alone = await timed(async () => decodeHeic(file, { workers: 1 }));
      rows.push([`↳ of which the HEVC decode, ${availableParallelism()} workers`, '', spread.toFixed(0), '', '']);
      rows.push(['↳ the same decode on one worker', '', alone.toFixed(0), '', '']);
    }
  }

  // Serving, through the local server: the bytes come from the folder store with an ETag.
  const stack = await startLocalStack({ ORIGINALS_DIR: mkdtempSync(join(tmpdir(), 'bench-serve-')) });
  const serving: string[][] = [];
  try {
    const sdk = await import('@immich/sdk');
    const { id } = await sdk.uploadFile(
      {
        createAssetDto: {
          assetData: new File([new Uint8Array(jpeg)], 'bench.jpg'),
          deviceAssetId: 'bench',
          deviceId: 'bench',
          fileCreatedAt: '2024-01-01T00:00:00.000Z',
          fileModifiedAt: '2024-01-01T00:00:00.000Z',
        },
      },
      stack.adminAuth,
    );
    const deadline = Date.now() + 60_000;
    while (!(await sdk.getAssetInfo({ id }, stack.adminAuth)).resized && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    const headers = stack.adminAuth.headers;
    for (const [name, path] of [
      ['GET /asset/thumbnail/:id (WebP)', `/asset/thumbnail/${id}`],
      ['GET /asset/thumbnail/:id?format=JPEG (preview)', `/asset/thumbnail/${id}?format=JPEG`],
      ['GET /asset/file/:id (original)', `/asset/file/${id}`],
    ] as const) {
      const times: number[] = [];
      let bytes = 0;
      for (let index = 0; index < 21; index++) {
        const start = performance.now();
        const reply = await fetch(`${stack.baseUrl}${path}`, { headers });
        bytes = (await reply.arrayBuffer()).byteLength;
        if (index > 0) times.push(performance.now() - start);
      }
      serving.push([name, (bytes / 1e3).toFixed(0), median(times).toFixed(1), percentile(times, 95).toFixed(1)]);
    }
  } finally {
    await stack.stop();
  }

  return [
    `Preview (JPEG 1440), thumbnail (WebP 250) and thumbhash per file, one at a time in one process (as one Lambda environment works), mean of ${runs} after a warm-up; videos include ffmpeg's poster frame. The originals: a 12-MP photo-like picture in each format, and ffmpeg test patterns.`,
    '',
    table(['original', 'MB', 'ms per file', 'files/s', 'MB/s'], rows),
    '',
    'Serving through the local server (folder store, bytes with ETag), 20 requests after a warm-up. Deployed, each of these is a 302 to a presigned S3 URL instead (no bytes through Lambda): the function’s own time is in the `functions` section.',
    '',
    table(['request', 'KB', 'median ms', 'p95 ms'], serving),
  ].join('\n');
};

if (import.meta.main) process.stdout.write(await measure());

export const mediaThroughputSection = { name: 'media-throughput', run: ownProcess(import.meta.url) };
