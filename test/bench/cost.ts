import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeJpeg, type PhotoSpec } from '../support/photos.ts';
import { ownProcess, startLocalStack } from './local-stack.ts';
import { table } from './stats.ts';

/**
 * The monthly bill of a personal library on AWS, computed from what the functions measurably
 * consume: DynamoDB capacity per operation (ReturnConsumedCapacity on every call the functions
 * make, through the local server on DynamoDB Local), the table's bytes per photo, and AWS's
 * published on-demand prices (us-east-1, listed below). Written to docs/cost.md.
 */

// us-east-1 list prices (USD).
const price = {
  readRequestUnit: 0.125 / 1e6,
  writeRequestUnit: 0.625 / 1e6,
  tableGbMonth: 0.25,
  pitrGbMonth: 0.2,
  httpApiRequest: 1.0 / 1e6,
  lambdaRequest: 0.2 / 1e6,
  lambdaGbSecondArm: 0.0000133334,
  s3StandardGbMonth: 0.023,
  s3FrequentGbMonth: 0.023,
  s3InfrequentGbMonth: 0.0125,
  s3ArchiveInstantGbMonth: 0.004,
  s3MonitoringPer1000Objects: 0.0025,
  s3PutPer1000: 0.005,
  s3GetPer1000: 0.0004,
  logsIngestGb: 0.5,
  secretMonth: 0.4,
  alarmMonth: 0.1,
};

const library = { photos: 50_000, averagePhotoMb: 4, requestsPerDay: 10_000 };

/** What a day's 10,000 requests are made of (shares of requests), for a person using the apps. */
const mix: { operation: string; share: number }[] = [
  { operation: 'getAssetInfo', share: 0.3 },
  { operation: 'getMyUserInfo', share: 0.1 },
  { operation: 'getAllAlbums', share: 0.08 },
  { operation: 'getAlbumInfo', share: 0.1 },
  { operation: 'searchAssets', share: 0.08 },
  { operation: 'search', share: 0.05 },
  { operation: 'getAllPeople', share: 0.05 },
  { operation: 'getPersonAssets', share: 0.04 },
  { operation: 'updateAsset', share: 0.06 },
  { operation: 'addAssetsToAlbum', share: 0.04 },
  { operation: 'checkBulkUpload', share: 0.03 },
  { operation: 'uploadFile', share: 0.03 },
  { operation: 'deleteAssets', share: 0.02 },
  { operation: 'login', share: 0.02 },
];

interface Units {
  read: number;
  write: number;
  calls: number;
}

const measure = async (): Promise<string> => {
  const work = mkdtempSync(join(tmpdir(), 'bench-cost-'));
  const stack = await startLocalStack({ ORIGINALS_DIR: join(work, 'originals') });
  const { db } = await import('#shared/db/client.ts');
  const { table: tableDefinition } = await import('#shared/db/table.ts');
  const sdk = await import('@immich/sdk');
  const auth = stack.adminAuth;

  // Every call the functions make asks for its consumed capacity; DynamoDB Local answers the
  // table's units. Two corrections make them AWS's: a read of nothing still costs its minimum
  // (0.5 unit eventually consistent, 1 strongly), and a write also writes each GSI whose key the
  // item carries (a put's GSIs are counted from the item; an update's or delete's index writes
  // are not visible here, so updates and deletes are counted on the table alone).
  let current: Units = { read: 0, write: 0, calls: 0 };
  const indexKeys = tableDefinition.indexes.map((index) => index.partitionKey);
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, any>;
      input.ReturnConsumedCapacity = 'TOTAL';
      const out = await next(args);
      const consumed = [(out.output as Record<string, any>).ConsumedCapacity].flat().filter(Boolean) as { CapacityUnits?: number }[];
      const units = consumed.reduce((sum, each) => sum + (each.CapacityUnits ?? 0), 0);
      const command = String(context.commandName);
      current.calls++;
      if (/^(Get|BatchGet|Query|TransactGet)/.test(command)) {
        current.read += Math.max(units, input.ConsistentRead ? 1 : 0.5);
      } else {
        const puts: Record<string, unknown>[] = [
          ...(input.Item ? [input.Item] : []),
          ...Object.values((input.RequestItems ?? {}) as Record<string, { PutRequest?: { Item: Record<string, unknown> } }[]>)
            .flat()
            .flatMap((request) => (request.PutRequest ? [request.PutRequest.Item] : [])),
          ...((input.TransactItems ?? []) as { Put?: { Item: Record<string, unknown> } }[]).flatMap((item) =>
            item.Put ? [item.Put.Item] : [],
          ),
        ];
        const indexWrites = puts.reduce((sum, item) => sum + indexKeys.filter((key) => key in item).length, 0);
        current.write += units + indexWrites;
      }
      return out;
    },
    { step: 'initialize', name: 'consumed-capacity' },
  );
  const measured = async (fn: () => Promise<unknown>): Promise<Units> => {
    current = { read: 0, write: 0, calls: 0 };
    await fn();
    return current;
  };

  try {
    // A library to work on: 40 photos from two cameras, some with two named faces, in an album.
    const spec = (i: number): PhotoSpec => ({
      make: i % 2 ? 'Canon' : 'Apple',
      model: i % 2 ? 'EOS R5' : 'iPhone 15',
      dateTimeOriginal: `2023:06:${String((i % 28) + 1).padStart(2, '0')} 10:00:00`,
      city: i % 3 ? 'Oslo' : 'Bergen',
      description: `Summer trip day ${i}`,
      ...(i % 4 === 0
        ? {
            mwgFaces: [
              { name: 'Ada', x: 0.3, y: 0.3, w: 0.1, h: 0.1 },
              { name: 'Grace', x: 0.6, y: 0.3, w: 0.1, h: 0.1 },
            ],
          }
        : {}),
    });
    const upload = (i: number) =>
      sdk.uploadFile(
        {
          createAssetDto: {
            assetData: new File([new Uint8Array(makeJpeg(spec(i)))], `IMG_${i}.jpg`),
            deviceAssetId: `cost-${i}`,
            deviceId: 'bench',
            fileCreatedAt: '2023-06-01T10:00:00.000Z',
            fileModifiedAt: '2023-06-01T10:00:00.000Z',
          },
        },
        auth,
      );
    const before = await tableBytes(stack.tableName);
    const ids: string[] = [];
    const uploads: Units[] = [];
    for (let i = 0; i < 40; i++) uploads.push(await measured(async () => ids.push((await upload(i)).id)));
    const bytesPerPhoto = ((await tableBytes(stack.tableName)) - before) / 40;
    const album = await sdk.createAlbum({ createAlbumDto: { albumName: 'Summer', assetIds: ids.slice(0, 30) } }, auth);
    const people = await sdk.getAllPeople({}, auth);
    const person = people.people[0]?.id ?? '';
    let next = 40;

    const operations: Record<string, () => Promise<unknown>> = {
      getAssetInfo: () => sdk.getAssetInfo({ id: ids[5] ?? '' }, auth),
      getMyUserInfo: () => sdk.getMyUserInfo(auth),
      getAllAlbums: () => sdk.getAllAlbums({}, auth),
      getAlbumInfo: () => sdk.getAlbumInfo({ id: album.id }, auth),
      searchAssets: () => sdk.searchAssets({ make: 'Canon', size: 250 } as Parameters<typeof sdk.searchAssets>[0], auth),
      search: () => sdk.search({ q: 'summer' } as Parameters<typeof sdk.search>[0], auth),
      getAllPeople: () => sdk.getAllPeople({}, auth),
      getPersonAssets: () => sdk.getPersonAssets({ id: person }, auth),
      updateAsset: () => sdk.updateAsset({ id: ids[7] ?? '', updateAssetDto: { isFavorite: next++ % 2 === 0 } }, auth),
      addAssetsToAlbum: () => sdk.addAssetsToAlbum({ id: album.id, bulkIdsDto: { ids: [ids[30 + (next++ % 10)] ?? ''] } }, auth),
      checkBulkUpload: () =>
        sdk.checkBulkUpload(
          {
            assetBulkUploadCheckDto: {
              assets: Array.from({ length: 10 }, (_, i) => ({ id: `c${i}`, checksum: `${i}`.padStart(40, 'a') })),
            },
          },
          auth,
        ),
      uploadFile: () => upload(next++),
      deleteAssets: async () => {
        const { id } = await upload(next++);
        current = { read: 0, write: 0, calls: 0 };
        await sdk.deleteAssets({ assetBulkDeleteDto: { ids: [id], force: true } }, auth);
      },
      login: () => sdk.login({ loginCredentialDto: { email: 'bench@immich.cloud', password: 'password' } }, { baseUrl: stack.baseUrl }),
    };

    const perOperation = new Map<string, Units>();
    for (const { operation } of mix) {
      const runs: Units[] = [];
      for (let i = 0; i < 5; i++) runs.push(await measured(operations[operation] ?? (async () => undefined)));
      const mean = (key: keyof Units) => runs.reduce((sum, run) => sum + run[key], 0) / runs.length;
      perOperation.set(operation, { read: mean('read'), write: mean('write'), calls: mean('calls') });
    }

    const requestsPerMonth = library.requestsPerDay * 30;
    const monthly = { read: 0, write: 0 };
    const rows = mix.map(({ operation, share }) => {
      const units = perOperation.get(operation) ?? { read: 0, write: 0, calls: 0 };
      const count = requestsPerMonth * share;
      monthly.read += units.read * count;
      monthly.write += units.write * count;
      return [operation, `${Math.round(share * 100)}%`, units.calls.toFixed(1), units.read.toFixed(1), units.write.toFixed(1)];
    });
    const tableGb = (library.photos * bytesPerPhoto) / 1e9;
    const photosGb = (library.photos * library.averagePhotoMb) / 1000;
    const dynamo =
      monthly.read * price.readRequestUnit + monthly.write * price.writeRequestUnit + tableGb * (price.tableGbMonth + price.pitrGbMonth);
    const uploadsPerMonth = requestsPerMonth * (mix.find((m) => m.operation === 'uploadFile')?.share ?? 0);
    // Intelligent-Tiering in steady state: a tenth of the library touched this month (Frequent),
    // a tenth in the last three months (Infrequent), the rest untouched for 90 days (Archive Instant).
    const tiered =
      photosGb * (0.1 * price.s3FrequentGbMonth + 0.1 * price.s3InfrequentGbMonth + 0.8 * price.s3ArchiveInstantGbMonth) +
      (library.photos / 1000) * price.s3MonitoringPer1000Objects;
    const s3Requests = (uploadsPerMonth / 1000) * price.s3PutPer1000;
    const standard = photosGb * price.s3StandardGbMonth;
    // Lambda: measured budgets (docs/benchmarks.md): most requests well under 100 ms at 512 MB;
    // sign-ins and uploads 1024 MB and about 300 ms.
    const heavyShare = (mix.find((m) => m.operation === 'login')?.share ?? 0) + (mix.find((m) => m.operation === 'uploadFile')?.share ?? 0);
    const gbSeconds = requestsPerMonth * ((1 - heavyShare) * 0.5 * 0.1 + heavyShare * 1 * 0.3);
    const lambda = requestsPerMonth * price.lambdaRequest + gbSeconds * price.lambdaGbSecondArm;
    const api = requestsPerMonth * price.httpApiRequest;
    // Logs: the API access line (~300 bytes) and the function's request line (~700 bytes).
    const logs = ((requestsPerMonth * 1000) / 1e9) * price.logsIngestGb;
    const fixed = price.secretMonth + 3 * price.alarmMonth;
    const money = (value: number) => `$${value.toFixed(2)}`;
    const total = (s3: number) => dynamo + s3 + s3Requests + lambda + api + logs + fixed;

    return [
      `A library of ${library.photos.toLocaleString('en')} photos (${library.averagePhotoMb} MB each, ${photosGb} GB) and ${library.requestsPerDay.toLocaleString('en')} requests a day (${requestsPerMonth.toLocaleString('en')} a month, ${Math.round(uploadsPerMonth).toLocaleString('en')} of them uploads), us-east-1 list prices.`,
      '',
      'DynamoDB units per request, measured (mean of 5; the table of 40 photos, 10 with two named faces, an album of 30):',
      '',
      table(['operation', 'share of requests', 'DynamoDB calls', 'read units', 'write units'], rows),
      '',
      `Table storage: ${Math.round(bytesPerPhoto).toLocaleString('en')} bytes a photo (asset, EXIF, search postings, faces and people, as DynamoDB counts item size), so ${tableGb.toFixed(2)} GB for the library.`,
      '',
      table(
        ['item', 'a month', 'how'],
        [
          [
            'DynamoDB requests',
            money(monthly.read * price.readRequestUnit + monthly.write * price.writeRequestUnit),
            `${Math.round(monthly.read).toLocaleString('en')} read and ${Math.round(monthly.write).toLocaleString('en')} write units, on demand`,
          ],
          [
            'DynamoDB storage + point-in-time recovery',
            money(tableGb * (price.tableGbMonth + price.pitrGbMonth)),
            `${tableGb.toFixed(2)} GB`,
          ],
          ['S3 originals, all in Standard (before)', money(standard), `${photosGb} GB`],
          [
            'S3 originals, Intelligent-Tiering (now)',
            money(tiered),
            '10% Frequent, 10% Infrequent, 80% Archive Instant Access, plus monitoring per object',
          ],
          [
            'S3 requests',
            money(s3Requests),
            "one PUT per upload (previews add two PUTs per upload and the apps' thumbnail GETs, not counted here)",
          ],
          [
            'Lambda',
            money(lambda),
            `${Math.round(gbSeconds).toLocaleString('en')} GB-s on arm64 (inside the free tier of 400,000 if the account has it)`,
          ],
          ['API Gateway HTTP API', money(api), 'per request'],
          ['CloudWatch Logs', money(logs), 'about 1 KB of log lines a request'],
          ['Secrets Manager, alarms', money(fixed), 'one secret, three alarms'],
          ['**Total, before Intelligent-Tiering**', `**${money(total(standard))}**`, ''],
          ['**Total, now**', `**${money(total(tiered))}**`, ''],
        ],
      ),
      '',
    ].join('\n');
  } finally {
    await stack.stop();
  }
};

/** The table's size as DynamoDB bills it: each item's attribute names and values, plus 100 bytes an item for each GSI it is in. */
const tableBytes = async (tableName: string): Promise<number> => {
  const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');
  const { db } = await import('#shared/db/client.ts');
  const { table: tableDefinition } = await import('#shared/db/table.ts');
  const size = (value: unknown): number => {
    if (value === null || value === undefined || typeof value === 'boolean') return 1;
    if (typeof value === 'number') return Math.ceil(String(value).length / 2) + 1;
    if (typeof value === 'string') return Buffer.byteLength(value);
    if (Array.isArray(value)) return 3 + value.reduce((sum: number, item) => sum + 1 + size(item), 0);
    if (value instanceof Set) return [...value].reduce((sum: number, item) => sum + size(item), 0);
    return (
      3 + Object.entries(value as Record<string, unknown>).reduce((sum, [key, item]) => sum + 1 + Buffer.byteLength(key) + size(item), 0)
    );
  };
  let bytes = 0;
  let start: Record<string, unknown> | undefined;
  do {
    // A Scan, in the bench only: it weighs the whole table once.
    const page = await db.send(new ScanCommand({ TableName: tableName, ...(start ? { ExclusiveStartKey: start } : {}) }));
    for (const item of page.Items ?? []) {
      bytes += Object.entries(item).reduce((sum, [key, value]) => sum + Buffer.byteLength(key) + size(value), 0);
      bytes += 100 * tableDefinition.indexes.filter((index) => index.partitionKey in item).length;
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return bytes;
};

if (import.meta.main) process.stdout.write(await measure());

export const costSection = { name: 'cost', doc: 'cost.md', run: ownProcess(import.meta.url) };
