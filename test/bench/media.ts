import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { table } from './stats.ts';

const root = join(import.meta.dirname, '..', '..');
const sharpVersion = '0.35.5';
const runs = 5;
const url = (path: string) => pathToFileURL(join(root, 'node_modules', path)).href;

// Each library in a process of its own (its own peak memory): a 12-MP JPEG (4000×3000, photo-like
// noise) → the preview (JPEG, shorter side 1440), the thumbnail (WebP, 250) and the thumbhash.
const common = `
const { rgbaToThumbHash } = await import(${JSON.stringify(url('thumbhash/thumbhash.js'))});
const w = 4000, h = 3000, raw = Buffer.alloc(w * h * 3);
let seed = 1; for (let i = 0; i < raw.length; i++) { seed = (seed * 1103515245 + 12345) & 0x7fffffff; raw[i] = ((i % (w * 3)) / 12 + (seed >> 24)) & 255; }
`;
const sharpScript = `${common}
let t = performance.now();
const sharp = (await import('sharp')).default;
const init = performance.now() - t;
sharp.concurrency(1);
const jpeg = await sharp(raw, { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
const once = async () => {
  const preview = await sharp(jpeg).resize(1440, 1440, { fit: 'outside', withoutEnlargement: true }).rotate().jpeg({ quality: 80, chromaSubsampling: '4:4:4' }).toBuffer();
  await sharp(jpeg).resize(250, 250, { fit: 'outside', withoutEnlargement: true }).rotate().webp({ quality: 80 }).toBuffer();
  const { data, info } = await sharp(preview).resize(100, 100, { fit: 'inside' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  rgbaToThumbHash(info.width, info.height, data);
};
await once();
t = performance.now(); for (let i = 0; i < ${runs}; i++) await once();
process.stdout.write(JSON.stringify({ init, ms: (performance.now() - t) / ${runs}, mb: jpeg.length / 1e6, rss: process.resourceUsage().maxRSS / 1024 }));
`;
const vipsScript = `${common}
let t = performance.now();
const { renderPreviews } = await import(${JSON.stringify(pathToFileURL(join(root, 'shared/media/images.ts')).href)});
const Vips = (await import(${JSON.stringify(url('wasm-vips/lib/vips-node.mjs'))})).default;
const vips = await Vips();
const init = performance.now() - t;
const image = vips.Image.newFromMemory(raw, w, h, 3, 'uchar');
const jpeg = Buffer.from(image.jpegsaveBuffer({ Q: 90 }));
const settings = { webpSize: 250, jpegSize: 1440, quality: 80, colorspace: 'p3' };
await renderPreviews(jpeg, settings);
t = performance.now(); for (let i = 0; i < ${runs}; i++) await renderPreviews(jpeg, settings);
process.stdout.write(JSON.stringify({ init, ms: (performance.now() - t) / ${runs}, mb: jpeg.length / 1e6, rss: process.resourceUsage().maxRSS / 1024 }));
`;

/**
 * The image library, measured: sharp (native libvips; installed into a scratch folder from the npm
 * registry, not into the project) against wasm-vips (libvips in WebAssembly, what
 * shared/media/images.ts uses), on the same work.
 */
export const mediaSection = {
  name: 'media',
  async run(): Promise<string> {
    const work = mkdtempSync(join(tmpdir(), 'bench-media-'));
    try {
      execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', work, `sharp@${sharpVersion}`], {
        stdio: 'ignore',
      });
      const measure = (name: string, script: string) => {
        const file = join(work, `${name}.mjs`);
        writeFileSync(file, script);
        return JSON.parse(execFileSync(process.execPath, [file], { cwd: work, encoding: 'utf8', maxBuffer: 1 << 20 })) as Record<
          string,
          number
        >;
      };
      const rows = [
        ['sharp (native)', measure('sharp', sharpScript)],
        ['wasm-vips (shared/media/images.ts)', measure('vips', vipsScript)],
      ] as const;
      return [
        `A 12-MP JPEG (${rows[0][1].mb?.toFixed(1)} MB of photo-like noise) → JPEG preview (1440) + WebP thumbnail (250) + thumbhash; mean of ${runs} after one warm-up, one thread, each library in its own process; sharp ${sharpVersion}.`,
        '',
        table(
          ['library', 'load + init ms', 'ms per photo', 'peak RSS MB'],
          rows.map(([name, r]) => [name, (r.init ?? 0).toFixed(0), (r.ms ?? 0).toFixed(0), (r.rss ?? 0).toFixed(0)]),
        ),
      ].join('\n');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
