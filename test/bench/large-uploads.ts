import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeJpeg } from '../support/photos.ts';
import { ownProcess, startLocalStack } from './local-stack.ts';
import { table, withPeakRss } from './stats.ts';

/**
 * Large files through the local server, by the uploader (infra/uploader): the same 8 files of
 * 40 MB through Immich's `POST /asset/upload` (one multipart request each) and through upload
 * sessions (16 MB parts), 4 files at a time; and a session's completion alone (the SHA-1 read of
 * the whole object, metadata by ranges, the recording transaction) for one 1 GB file, as seconds
 * per GB and the resident memory it adds. Client and server share one Node process and one disk.
 */
const files = Number(process.env.LARGE_UPLOAD_BENCH_FILES ?? 8);
const fileBytes = 40 * 1024 * 1024;
const ingestBytes = Number(process.env.LARGE_UPLOAD_BENCH_INGEST_MB ?? 1024) * 1024 * 1024;
const mebibyte = 1024 * 1024;

const padded = (size: number, comment: string): Buffer => {
  const photo = makeJpeg({ width: 64, height: 48, comment, make: 'Bench', model: 'Large' });
  return Buffer.concat([photo, randomBytes(size - photo.length)]);
};

const measure = async (): Promise<string> => {
  const work = mkdtempSync(join(tmpdir(), 'bench-large-'));
  const stack = await startLocalStack({ ORIGINALS_DIR: join(work, 'originals') });
  try {
    const { createApiKey } = await import('@immich/sdk');
    const { Api, uploadFiles } = await import('#infra/uploader/uploader.ts');
    const { scanFiles } = await import('#infra/uploader/files.ts');
    const { secret } = await createApiKey({ apiKeyCreateDto: {} }, stack.adminAuth);
    const api = new Api({ url: stack.baseUrl, apiKey: secret });
    const extensions = new Set(['.jpg']);

    const rows: (string | number)[][] = [];
    for (const [route, largeFileBytes] of [
      ['POST /asset/upload (one request a file)', Number.POSITIVE_INFINITY],
      ['upload sessions (16 MB parts)', 0],
    ] as const) {
      const folder = join(work, route.startsWith('POST') ? 'direct' : 'sessions');
      mkdirSync(folder);
      for (let index = 0; index < files; index++)
        writeFileSync(join(folder, `large-${index}.jpg`), padded(fileBytes, `${folder}-${index}`));
      const found = await scanFiles([folder], { recursive: false, ignore: [], includeHidden: false, extensions });
      const started = performance.now();
      const summary = await uploadFiles(api, found, {
        largeFileBytes,
        partSize: 16 * mebibyte,
        concurrency: 4,
        dryRun: false,
        albumPerFolder: false,
        rateLimit: 0,
        statePath: join(work, 'state.json'),
      });
      const seconds = (performance.now() - started) / 1000;
      if (summary.uploaded !== files) throw new Error(`${route}: ${JSON.stringify(summary)}`);
      rows.push([route, files, fileBytes / mebibyte, seconds.toFixed(2), ((files * fileBytes) / mebibyte / seconds).toFixed(0)]);
    }

    // Completion alone: a 1 GB file's parts put in place, then the complete call timed. One
    // random 64 MB block serves as every part but the first (a real JPEG's start), to hold little.
    const { createUploadSession } = await import('#shared/services/upload/session.service.ts');
    const { completeUploadSession } = await import('#shared/services/upload/session-complete.service.ts');
    const { readSessionFieldsV1 } = await import('#shared/dto/v1/asset.ts');
    const { originalsStore } = await import('#shared/storage/originals.ts');
    const { createHash } = await import('node:crypto');
    const partSize = 64 * mebibyte;
    const count = Math.ceil(ingestBytes / partSize);
    const first = padded(Math.min(partSize, ingestBytes), 'ingest');
    const block = randomBytes(partSize);
    const partAt = (index: number): Buffer => (index === 0 ? first : block.subarray(0, Math.min(partSize, ingestBytes - index * partSize)));
    const whole = createHash('sha1');
    const partChecksums: string[] = [];
    for (let index = 0; index < count; index++) {
      whole.update(partAt(index));
      partChecksums.push(createHash('sha1').update(partAt(index)).digest('base64'));
    }
    const auth = { user: { id: stack.admin.id, email: 'bench@immich.cloud', isAdmin: true } };
    const opened = await createUploadSession(auth, {
      deviceAssetId: 'ingest',
      deviceId: 'bench',
      fileCreatedAt: new Date(),
      fileModifiedAt: new Date(),
      fileName: 'ingest.jpg',
      size: ingestBytes,
      checksum: whole.digest('hex'),
      partSize,
      partChecksums,
    });
    if (!('session' in opened)) throw new Error('the ingest file is a duplicate');
    const { session } = opened;
    const store = await originalsStore();
    for (let index = 0; index < count; index++) await store.putPart?.(session.uploadId, index + 1, partAt(index));
    const { seconds, baseline, peak } = await withPeakRss(() => completeUploadSession(auth, opened.session.id, readSessionFieldsV1));
    const gb = ingestBytes / 1024 ** 3;

    return [
      `The uploader (\`npm run upload\`) sending ${files} files of 40 MB (a JPEG padded with random bytes) to the local server, 4 at a time, through each route; client, server and originals folder on this machine. Deployed, the direct route stops at 4.4 MB and session parts go to S3, not through Lambda.`,
      '',
      table(['route', 'files', 'MB each', 'seconds', 'MB/s'], rows),
      '',
      `A session's completion alone, for one ${(ingestBytes / mebibyte).toFixed(0)} MB file already in parts (join the parts, read the object once for its SHA-1 in 8 MB ranges four at a time, metadata by ranges, record): **${(seconds / gb).toFixed(1)} s per GB**, ${((peak - baseline) / mebibyte).toFixed(0)} MB of resident memory over the baseline. Deployed, the join is S3's; the read is S3's GET rate into the function.`,
    ].join('\n');
  } finally {
    await stack.stop();
    rmSync(work, { recursive: true, force: true });
  }
};

if (import.meta.main) process.stdout.write(await measure());

export const largeUploadsSection = { name: 'large-uploads', run: ownProcess(import.meta.url) };
