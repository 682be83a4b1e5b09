import { randomUUID } from 'node:crypto';
import type { AssetRecord, FaceRecord } from '#shared/model/asset.ts';
import { newPerson, type PersonRecord } from '#shared/model/person.ts';
import { assetRecord, cameraExif, faceRecord } from '../support/records.ts';
import { ownProcess, startLocalStack } from './local-stack.ts';
import { table } from './stats.ts';
import { measureCall, meterReads, putItems } from './table-io.ts';

/**
 * Search at library scale: two users, each with 1k, then 10k, then 50k assets written through the
 * repositories' item builders (the items an upload writes), then the selective searches of issue 7
 * through the local server. For each: latency and the DynamoDB items read (Query ScannedCount,
 * BatchGetItem and GetItem items) and read capacity (ReturnConsumedCapacity) per request.
 */
const sizes = (process.env.SEARCH_BENCH_SIZES ?? '1000,10000,50000').split(',').map(Number);
const pageSize = 100;

// A seeded generator, so every run builds the same libraries.
let seed = 20261122;
const random = (): number => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const syllables = ['bra', 'vik', 'ost', 'lun', 'dal', 'mer', 'sol', 'ka', 'ri', 'tor', 'hav', 'en', 'gard', 'nes', 'by'];
const placeName = (i: number): string =>
  `${syllables[i % 15]}${syllables[Math.floor(i / 15) % 15]}${syllables[Math.floor(i / 225) % 15]}`.replace(/^./, (c) => c.toUpperCase());
const brands = Array.from({ length: 100 }, (_, i) => `Brand${placeName(i + 300)}`); // make = one brand: 1%
const cities = Array.from({ length: 200 }, (_, i) => placeName(i)); // city = one city: 0.5%
const start = Date.UTC(2019, 0, 1);
const span = 5 * 365 * 86_400_000;

const measure = async (): Promise<string> => {
  const stack = await startLocalStack();
  const { baseUrl, tableName } = stack;
  const { assetItem, checksumItem } = await import('#shared/db/items/asset.ts');
  const { faceItem } = await import('#shared/db/items/face.ts');
  const { personItem } = await import('#shared/db/items/person.ts');
  const { postingsOf, writePostings } = await import('#shared/db/term.repository.ts');
  const { assetTerms } = await import('#shared/domain/terms.ts');
  const { db } = await import('#shared/db/client.ts');
  const sdk = await import('@immich/sdk');

  const meter = meterReads(db);

  try {
    const { adminAuth } = stack;
    const users = await Promise.all(
      ['one', 'two'].map(async (name) => {
        const email = `${name}@immich.cloud`;
        const user = await sdk.createUser({ createUserDto: { email, password: 'password', name } }, adminAuth);
        const token = (await sdk.login({ loginCredentialDto: { email, password: 'password' } }, { baseUrl })).accessToken;
        const now = new Date(start).toISOString();
        const people: PersonRecord[] = Array.from({ length: 50 }, (_, i) =>
          newPerson(user.id, now, { name: `Person ${placeName(i + 600)}` }),
        );
        return { id: user.id, auth: { baseUrl, headers: { Authorization: `Bearer ${token}` } }, people, assets: [] as AssetRecord[] };
      }),
    );
    const put = (items: Record<string, unknown>[]) => putItems(db, tableName, items);
    for (const user of users) await put(user.people.map(personItem));

    const grow = async (user: (typeof users)[number], target: number) => {
      const items: Record<string, unknown>[] = [];
      const postings: ReturnType<typeof postingsOf> = [];
      while (user.assets.length < target) {
        const id = randomUUID();
        const when = new Date(start + Math.floor(random() * span)).toISOString();
        const city = pick(cities);
        const faces: FaceRecord[] = random() < 0.3 ? [faceRecord(id, pick(user.people).id, user.id)] : [];
        const asset: AssetRecord = assetRecord(user.id, {
          id,
          deviceAssetId: `bench-${user.assets.length}`,
          deviceId: 'bench',
          // In this order: the seeded generator must give every run the same library.
          type: random() < 0.1 ? 'VIDEO' : 'IMAGE',
          originalFileName: `IMG_${String(user.assets.length).padStart(5, '0')}.jpg`,
          at: when,
          deletedAt: random() < 0.01 ? when : null,
          isFavorite: random() < 0.05,
          visibility: random() < 0.02 ? 'archive' : 'timeline',
          personIds: faces.flatMap((face) => face.personId ?? []),
          faceIds: faces.map((face) => face.id),
          exif: {
            ...cameraExif(when),
            make: pick(brands),
            model: 'Model',
            city,
            country: 'Benchland',
          },
        });
        user.assets.push(asset);
        items.push(assetItem(asset), ...faces.map((face) => faceItem(face, asset)), checksumItem(user.id, asset.checksum, id));
        postings.push(...postingsOf(asset, assetTerms(asset, [])));
      }
      await put(items);
      for (let i = 0; i < postings.length; i += 2_000) await writePostings(user.id, postings.slice(i, i + 2_000));
    };

    const rows: (string | number)[][] = [];
    for (const size of sizes) {
      const built = performance.now();
      await Promise.all(users.map((user) => grow(user, size)));
      const buildSeconds = ((performance.now() - built) / 1000).toFixed(0);
      const [user] = users;
      if (!user) break;
      const sample = user.assets[Math.floor(user.assets.length / 2)] as AssetRecord;
      const day = sample.fileCreatedAt.slice(0, 10);
      const person = user.people[7] as PersonRecord;
      const cases: [string, () => Promise<unknown[]>][] = [
        ['no filter, page 1', () => sdk.searchAssets({ size: pageSize }, user.auth)],
        ['make = a 1% brand', () => sdk.searchAssets({ make: brands[7], size: pageSize }, user.auth)],
        ['city = a 0.5% city', () => sdk.searchAssets({ city: cities[13], size: pageSize }, user.auth)],
        ['one person', () => sdk.searchAssets({ personIds: [person.id], size: pageSize }, user.auth)],
        ['checksum', () => sdk.searchAssets({ checksum: Buffer.from(sample.checksum, 'hex').toString('base64') }, user.auth)],
        [
          'one-day taken window',
          () => sdk.searchAssets({ takenAfter: `${day}T00:00:00.000Z`, takenBefore: `${day}T23:59:59.999Z`, size: pageSize }, user.auth),
        ],
        ['q = a city (GET /search)', async () => (await sdk.search({ q: cities[13], size: pageSize }, user.auth)).assets.items],
        ['deep page (page 20)', () => sdk.searchAssets({ page: 20, size: pageSize }, user.auth)],
      ];
      for (const [name, call] of cases) {
        const { result, cells } = await measureCall(meter, call);
        rows.push([size.toLocaleString('en'), name, result.length, ...cells]);
      }
      rows.push([
        size.toLocaleString('en'),
        `(built ${size.toLocaleString('en')} assets × 2 users in ${buildSeconds} s)`,
        '',
        '',
        '',
        '',
        '',
      ]);
    }
    return [
      `Two users with the same kind of library (dates over five years, 100 brands, 200 cities, 50 people on 30% of the assets, 1% trashed, 2% archived); searches of page size ${pageSize} by the first user through the local server on DynamoDB Local. "Items read" counts what DynamoDB read for the request (Query ScannedCount, BatchGetItem and GetItem items, authentication included); "RCU" is its ReturnConsumedCapacity. The selective rows should stay flat as the library grows; the deep page reads page × size by design (offset paging).`,
      '',
      table(['library', 'request', 'results', 'items read', 'RCU', 'median ms', 'p95 ms'], rows),
    ].join('\n');
  } finally {
    await stack.stop();
  }
};

// Handlers read TABLE_NAME and the endpoint when first imported: this section runs in its own process.
if (import.meta.main) process.stdout.write(await measure());

export const searchSection = { name: 'search', run: ownProcess(import.meta.url) };
