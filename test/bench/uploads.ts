import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeJpeg, type PhotoSpec } from '../support/photos.ts';
import { ownProcess, startLocalStack } from './local-stack.ts';
import { median, percentile, table } from './stats.ts';

const camera: PhotoSpec = {
  make: 'Canon',
  model: 'EOS R5',
  lensModel: 'RF 24-105mm',
  exposureTime: 1 / 250,
  fNumber: 4,
  focalLength: 35,
  iso: 200,
  dateTimeOriginal: '2023:06:01 19:30:15',
  offsetTimeOriginal: '+02:00',
  latitude: 59.91,
  longitude: 10.75,
  city: 'Oslo',
  country: 'Norway',
  mwgFaces: [
    { name: 'Alice', x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
    { name: 'Bob', x: 0.5, y: 0.5, w: 0.2, h: 0.2 },
  ],
};

/**
 * Upload throughput through the local server (HTTP, multipart, metadata, the local originals
 * folder, DynamoDB Local), the way the CLI sends files: 4 at a time. And metadata extraction alone.
 */
const measure = async (): Promise<string> => {
  // Generated first: encoding the large files takes seconds, and an idle keep-alive connection
  // would be closed by the server meanwhile.
  const sets = [
    { name: 'small photos (64×48, EXIF + 2 faces)', files: Array.from({ length: 300 }, () => makeJpeg(camera)) },
    {
      name: 'large photos (1024×768 noise, EXIF + 2 faces)',
      files: Array.from({ length: 24 }, () => makeJpeg({ ...camera, width: 1024, height: 768, noise: true })),
    },
  ];
  const work = mkdtempSync(join(tmpdir(), 'bench-uploads-'));
  const stack = await startLocalStack({ ORIGINALS_DIR: join(work, 'originals') });
  const { baseUrl } = stack;
  const { extractMetadata } = await import('#shared/media/metadata.ts');
  const { createApiKey } = await import('@immich/sdk');
  try {
    const { secret } = await createApiKey({ apiKeyCreateDto: {} }, stack.adminAuth);

    const rows: (string | number)[][] = [];
    const metadataRows: (string | number)[][] = [];
    for (const set of sets) {
      const bytes = set.files.reduce((sum, file) => sum + file.length, 0);
      const latencies: number[] = [];
      const send = async (data: Buffer, index: number): Promise<void> => {
        const form = new FormData();
        form.append('assetData', new File([new Uint8Array(data)], `bench-${index}.jpg`));
        for (const [key, value] of Object.entries({
          deviceAssetId: `bench-${index}-${data.length}`,
          deviceId: 'bench',
          fileCreatedAt: new Date().toISOString(),
          fileModifiedAt: new Date().toISOString(),
          isFavorite: 'false',
        }))
          form.append(key, value);
        const start = performance.now();
        const response = await fetch(`${baseUrl}/asset/upload`, { method: 'POST', headers: { 'x-api-key': secret }, body: form }).catch(
          (error: unknown) => {
            throw new Error(`upload ${index} of ${set.name} failed: ${String((error as Error).cause ?? error)}`);
          },
        );
        await response.arrayBuffer();
        if (response.status !== 201) throw new Error(`upload answered ${response.status}`);
        latencies.push(performance.now() - start);
      };
      const start = performance.now();
      for (let i = 0; i < set.files.length; i += 4) await Promise.all(set.files.slice(i, i + 4).map((file, j) => send(file, i + j)));
      const seconds = (performance.now() - start) / 1000;
      rows.push([
        set.name,
        set.files.length,
        (bytes / set.files.length / 1024).toFixed(1),
        (set.files.length / seconds).toFixed(1),
        (bytes / 1024 / 1024 / seconds).toFixed(2),
        median(latencies).toFixed(1),
        percentile(latencies, 95).toFixed(1),
      ]);

      const extract: number[] = [];
      for (const file of set.files.slice(0, 50)) {
        const t = performance.now();
        await extractMetadata(file);
        extract.push(performance.now() - t);
      }
      metadataRows.push([set.name, median(extract).toFixed(2), percentile(extract, 95).toFixed(2)]);
    }
    return [
      "Uploads through the local server (`npm start`'s HTTP host, the real handler, DynamoDB Local, originals in a local folder), 4 requests at a time as `immich upload` sends them; one Node process does client and server.",
      '',
      table(['files', 'count', 'KB per file', 'files/s', 'MB/s', 'median ms', 'p95 ms'], rows),
      '',
      'Metadata extraction alone (exifr: EXIF, XMP with face regions, IPTC; image-size), per file, 50 files:',
      '',
      table(['files', 'median ms', 'p95 ms'], metadataRows),
    ].join('\n');
  } finally {
    await stack.stop();
    rmSync(work, { recursive: true, force: true });
  }
};

// The handlers' DynamoDB client reads TABLE_NAME and the endpoint when first imported, and other
// sections import it first: this section runs in a process of its own.
if (import.meta.main) process.stdout.write(await measure());

export const uploadsSection = { name: 'uploads', run: ownProcess(import.meta.url) };
