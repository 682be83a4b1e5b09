import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AssetRecord } from '#shared/model/asset.ts';
import { assetRecord } from '../support/records.ts';
import { ownProcess, startLocalStack } from './local-stack.ts';
import type { Section } from './run.ts';
import { table, withPeakRss } from './stats.ts';
import { putItems } from './table-io.ts';

/**
 * POST /download/archive's memory: 200 originals of 1 MB (incompressible) in the originals
 * folder, zipped by the service into the store, while the process's resident memory is sampled
 * every 10 ms. Streaming means the peak stays near the baseline, whatever the archive's size.
 * (Deployed, the S3 multipart upload adds its parts in flight: 2 × 8 MB. A first version measured
 * it against s3rver in this process, with the AWS credentials switched to s3rver's after the
 * DynamoDB client had resolved its own; archives over one part stalled there, though the same
 * multipart path completes against s3rver on its own and through the deployed form
 * (test/e2e/downloads.test.ts). Left for the large-files work; the folder store is measured.)
 */
const files = Number(process.env.ARCHIVE_BENCH_FILES ?? 200);
const fileBytes = 1024 * 1024;

const measure = async (): Promise<string> => {
  const directory = mkdtempSync(join(tmpdir(), 'archive-bench-'));
  const stack = await startLocalStack({ ORIGINALS_DIR: directory });
  try {
    const { originalsStore } = await import('#shared/storage/originals.ts');
    const { assetItem } = await import('#shared/db/items/asset.ts');
    const { db } = await import('#shared/db/client.ts');
    const { downloadArchive } = await import('#shared/services/download/archive.service.ts');
    const store = await originalsStore();
    const ownerId = stack.admin.id;
    const assets: AssetRecord[] = [];
    for (let index = 0; index < files; index++) {
      const asset = assetRecord(ownerId, { id: randomUUID(), originalFileName: `IMG_${index}.jpg`, exif: { fileSizeInByte: fileBytes } });
      await store.put(asset.originalPath, randomBytes(fileBytes), 'image/jpeg');
      assets.push(asset);
    }
    await putItems(db, stack.tableName, assets.map(assetItem));
    const auth = { user: { id: ownerId, email: 'bench@immich.cloud', isAdmin: true } };
    const measured = await withPeakRss(() =>
      downloadArchive(
        auth,
        assets.map((asset) => asset.id),
      ),
    );
    const { result: file, seconds, baseline, peak } = measured;
    const archiveBytes = statSync(join(directory, ...file.key.split('/'))).size;
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
    return [
      `${files} originals of 1 MB each (random bytes: incompressible) in the originals folder, zipped by the service into the store; the archive is about ${mb(archiveBytes)} MB. Resident memory of the Node process, sampled every 10 ms.`,
      '',
      table(
        ['files', 'archive MB', 'seconds', 'MB/s', 'RSS before MB', 'RSS peak MB', 'peak − before MB'],
        [
          [
            files,
            mb(archiveBytes),
            seconds.toFixed(1),
            (archiveBytes / 1024 / 1024 / seconds).toFixed(0),
            mb(baseline),
            mb(peak),
            mb(peak - baseline),
          ],
        ],
      ),
    ].join('\n');
  } finally {
    await stack.stop();
    rmSync(directory, { recursive: true, force: true });
  }
};

if (import.meta.main) process.stdout.write(await measure());

export const archiveSection: Section = { name: 'archive', run: ownProcess(import.meta.url) };
