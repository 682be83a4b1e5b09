import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AssetRecord, FaceRecord } from '#shared/model/asset.ts';
import type { PersonRecord } from '#shared/model/person.ts';
import { assetRecord, cameraExif, faceRecord } from '../../support/records.ts';

/**
 * The one generator of an owner's library for the benches that write a library straight into the
 * table: the scale bench (./generate.ts, a family at 10k–500k) and the sync bench
 * (../sync-library.ts). Each gives its shape (dates, shares of videos, positions, trash, faces);
 * the assets, faces and people, and the items written for them, are built here, by the product's
 * own builders (shared/db/items/), stamped as its write builders stamp them (docs/data-model.md,
 * "Change ids and the sync stream").
 */

/**
 * A seeded generator (mulberry32, in 32-bit integers: an LCG in doubles loses its low bits past
 * 2^53 and falls into short cycles): every run builds the same shapes (ids and change ids differ).
 */
export const seeded = (seed: number) => {
  let state = seed | 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    random,
    chance: (p: number): boolean => random() < p,
    pick: <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T,
    /** Skewed towards the first items (a few people and albums hold most photos, as in a real library). */
    pickSkewed: <T>(list: readonly T[]): T => list[Math.floor(random() ** 2 * list.length)] as T,
  };
};
export type Rng = ReturnType<typeof seeded>;

export const places = [
  { latitude: 48.8566, longitude: 2.3522, city: 'Paris', state: 'Île-de-France', country: 'France' },
  { latitude: 52.52, longitude: 13.405, city: 'Berlin', state: 'Berlin', country: 'Germany' },
  { latitude: 41.9028, longitude: 12.4964, city: 'Rome', state: 'Lazio', country: 'Italy' },
  { latitude: 40.4168, longitude: -3.7038, city: 'Madrid', state: 'Madrid', country: 'Spain' },
  { latitude: 51.5074, longitude: -0.1278, city: 'London', state: 'England', country: 'United Kingdom' },
  { latitude: 47.3769, longitude: 8.5417, city: 'Zürich', state: 'Zurich', country: 'Switzerland' },
  { latitude: 45.764, longitude: 4.8357, city: 'Lyon', state: 'Auvergne-Rhône-Alpes', country: 'France' },
  { latitude: 43.2965, longitude: 5.3698, city: 'Marseille', state: "Provence-Alpes-Côte d'Azur", country: 'France' },
  { latitude: 38.7223, longitude: -9.1393, city: 'Lisbon', state: 'Lisbon', country: 'Portugal' },
  { latitude: 40.7128, longitude: -74.006, city: 'New York City', state: 'New York', country: 'United States of America' },
  { latitude: 35.6762, longitude: 139.6503, city: 'Tokyo', state: 'Tokyo', country: 'Japan' },
  { latitude: 46.2044, longitude: 6.1432, city: 'Geneva', state: 'Geneva', country: 'Switzerland' },
  { latitude: 53.5511, longitude: 9.9937, city: 'Hamburg', state: 'Hamburg', country: 'Germany' },
  { latitude: 48.1351, longitude: 11.582, city: 'Munich', state: 'Bavaria', country: 'Germany' },
  { latitude: 45.4642, longitude: 9.19, city: 'Milan', state: 'Lombardy', country: 'Italy' },
  { latitude: 41.3874, longitude: 2.1686, city: 'Barcelona', state: 'Catalonia', country: 'Spain' },
  { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', state: 'North Holland', country: 'Netherlands' },
  { latitude: 48.2082, longitude: 16.3738, city: 'Vienna', state: 'Vienna', country: 'Austria' },
  { latitude: 59.3293, longitude: 18.0686, city: 'Stockholm', state: 'Stockholm', country: 'Sweden' },
  { latitude: 46.948, longitude: 7.4474, city: 'Bern', state: 'Bern', country: 'Switzerland' },
];
export const cameras = [
  { make: 'Apple', model: 'iPhone 13', lensModel: 'iPhone 13 back dual wide camera 5.1mm f/1.6' },
  { make: 'Apple', model: 'iPhone 8', lensModel: 'iPhone 8 back camera 3.99mm f/1.8' },
  { make: 'Google', model: 'Pixel 7', lensModel: null },
  { make: 'SONY', model: 'ILCE-7M3', lensModel: 'FE 24-105mm F4 G OSS' },
  { make: 'samsung', model: 'SM-G991B', lensModel: null },
  { make: 'Canon', model: 'Canon EOS 550D', lensModel: 'EF-S18-55mm f/3.5-5.6 IS II' },
  { make: 'NIKON CORPORATION', model: 'NIKON D90', lensModel: null },
];
const firstNames = ['Anna', 'Ben', 'Clara', 'David', 'Emma', 'Felix', 'Greta', 'Hugo', 'Ida', 'Jonas', 'Karla', 'Leo'];
const surnames = ['Keller', 'Meier', 'Schmid', 'Weber', 'Huber', 'Frei'];

/** Thumbhashes differ from photo to photo (what the stream sends of each compresses as real ones do, not as one repeated). */
const thumbhash = (rng: Rng): string => Buffer.from(Array.from({ length: 24 }, () => Math.floor(rng.random() * 256))).toString('base64');

/** The shape of an owner's library: shares are of all assets, or as said. */
export interface AssetShape {
  /** When the owner's photos were taken: called once per owner (its state is theirs), then once a photo. */
  moments(rng: Rng): () => string;
  videos: number;
  /** With a position and its place names. */
  located: number;
  trashed: number;
  /** Of those not trashed. */
  archived: number;
  /** Of those neither trashed nor archived (0: none, and no draw). */
  locked: number;
  /** A photo's chance to be a favourite, by when it was taken. */
  favourite(when: string): number;
  /** The share of photos with 1–3 faces of the owner's people. */
  faces: number;
  /** Whether the people's `timelineFaceCount` is summed (else null: counted at the first list, docs/data-model.md, "Earlier shapes"). */
  timelineFaceCount: boolean;
  deviceId: string;
}

export interface OwnLibrary {
  /** Every asset item written (a live photo's hidden video included). */
  assets: AssetRecord[];
  faces: FaceRecord[];
  /** The people with faces. */
  people: PersonRecord[];
  /** Photos a stack may join: images, no live photo, not trashed, not locked. */
  stackable: AssetRecord[];
  /** What may go in albums: all but a live photo's hidden video and the locked folder's. */
  albumable: AssetRecord[];
}

/**
 * `count` asset items of one owner, as uploads leave them: a camera's EXIF on all, live photos
 * (4% of photos: the photo and its hidden video, two items), with `people` people whose faces
 * (as a photo manager's face regions leave them) `shape.faces` of the photos carry, 1–3 each.
 */
export const ownLibrary = (rng: Rng, ownerId: string, count: number, people: number, shape: AssetShape): OwnLibrary => {
  const now = new Date().toISOString();
  const persons: PersonRecord[] = Array.from({ length: people }, (_, index) => ({
    id: randomUUID(),
    ownerId,
    name: `${firstNames[index % firstNames.length]} ${surnames[Math.floor(index / firstNames.length) % surnames.length]}${index >= 72 ? ` ${index}` : ''}`,
    birthDate: null,
    isHidden: false,
    thumbnailPath: '',
    faceAssetId: null,
    faceCount: 0,
    timelineFaceCount: shape.timelineFaceCount ? 0 : null,
    isFavorite: index < 3,
    color: null,
    createdAt: now,
    updatedAt: now,
  }));
  const moment = shape.moments(rng);
  const assets: AssetRecord[] = [];
  const faces: FaceRecord[] = [];
  const stackable: AssetRecord[] = [];
  const albumable: AssetRecord[] = [];
  while (assets.length < count) {
    const when = moment();
    const video = rng.chance(shape.videos);
    const camera = rng.pickSkewed(cameras);
    const place = rng.chance(shape.located) ? rng.pick(places) : undefined;
    const trashed = rng.chance(shape.trashed);
    const archived = !trashed && rng.chance(shape.archived);
    const locked = !trashed && !archived && shape.locked > 0 && rng.chance(shape.locked);
    const exif = {
      ...cameraExif(when),
      make: camera.make,
      model: camera.model,
      lensModel: camera.lensModel,
      fileSizeInByte: video ? 20_000_000 + Math.floor(rng.random() * 80_000_000) : 1_500_000 + Math.floor(rng.random() * 3_000_000),
      ...(place
        ? {
            latitude: place.latitude + (rng.random() - 0.5) / 10,
            longitude: place.longitude + (rng.random() - 0.5) / 10,
            city: place.city,
            state: place.state,
            country: place.country,
          }
        : {}),
      ...(video ? { fNumber: null, focalLength: null, iso: null, exposureTime: null, exifImageWidth: 1920, exifImageHeight: 1080 } : {}),
    };
    const base = {
      deviceId: shape.deviceId,
      at: when,
      thumbhash: thumbhash(rng),
      geocoded: place !== undefined,
      deletedAt: trashed ? now : null,
      visibility: archived ? ('archive' as const) : locked ? ('locked' as const) : ('timeline' as const),
      isFavorite: rng.chance(shape.favourite(when)),
    };
    const live = !video && assets.length + 2 <= count && rng.chance(0.04);
    const n = assets.length;
    const motion = live
      ? assetRecord(ownerId, {
          deviceAssetId: `IMG_${n}.MOV`,
          ...base,
          isFavorite: false,
          deletedAt: null,
          type: 'VIDEO',
          duration: 2_500,
          visibility: 'hidden',
          originalFileName: `IMG_${n}.MOV`,
          exif: { ...exif, fileSizeInByte: 3_000_000 },
        })
      : undefined;
    const asset = assetRecord(ownerId, {
      deviceAssetId: `IMG_${n}`,
      ...base,
      type: video ? 'VIDEO' : 'IMAGE',
      duration: video ? 3_000 + Math.floor(rng.random() * 120_000) : null,
      originalFileName: `IMG_${n}.${video ? 'MOV' : 'HEIC'}`,
      livePhotoVideoId: motion?.id ?? null,
      exif,
    });
    if (!video && persons.length > 0 && rng.chance(shape.faces)) {
      const shown = [...new Set(Array.from({ length: 1 + Math.floor(rng.random() * 3) }, () => rng.pickSkewed(persons)))];
      const own = shown.map((person, index) => faceRecord(asset.id, person.id, ownerId, index));
      const inTimeline = asset.deletedAt === null && asset.visibility === 'timeline';
      for (const person of shown) {
        person.faceCount++;
        if (shape.timelineFaceCount && inTimeline) person.timelineFaceCount = (person.timelineFaceCount ?? 0) + 1;
        person.faceAssetId ??= asset.id;
      }
      asset.personIds = shown.map((person) => person.id);
      asset.faceIds = own.map((face) => face.id);
      faces.push(...own);
    }
    assets.push(asset);
    if (motion) assets.push(motion);
    if (!locked) albumable.push(asset);
    if (!video && !live && !trashed && !locked) stackable.push(asset);
  }
  return { assets, faces, people: persons.filter((person) => person.faceCount > 0), stackable, albumable };
};

/**
 * The items of an owner's library, one by one (a 500k library's 2 million are never held at once):
 * people and their name guards, assets with their checksum and device entries (and trash entries),
 * v1.100's text-search postings with `terms`, faces, the timeline counters.
 */
export async function* ownedItems(library: OwnLibrary, options: { terms?: boolean } = {}): AsyncGenerator<Record<string, unknown>> {
  const { assetItem, checksumItem } = await import('#shared/db/items/asset.ts');
  const assetWrites = await import('#shared/db/items/asset-writes.ts');
  const { faceItem } = await import('#shared/db/items/face.ts');
  const { personItem, personNameItem } = await import('#shared/db/items/person.ts');
  const { counterItemsOf } = await import('#shared/db/items/bucket.ts');
  const { stampPut } = await import('#shared/db/changes.ts');
  const keys = await import('#shared/db/item-keys.ts');
  const { assetTerms } = await import('#shared/domain/terms.ts');
  const putItemOf = (write: { item: { Put?: { Item?: Record<string, unknown> } } }) => write.item.Put?.Item as Record<string, unknown>;
  const ownerId = library.assets[0]?.ownerId ?? '';
  const byId = new Map(library.assets.map((asset) => [asset.id, asset]));
  const names = new Map(library.people.map((person) => [person.id, person.name]));
  for (const person of library.people) {
    yield stampPut(personItem(person));
    yield personNameItem(ownerId, person.name, person.id);
  }
  for (const asset of library.assets) {
    yield stampPut(assetItem(asset));
    yield checksumItem(asset.ownerId, asset.checksum, asset.id);
    yield putItemOf(assetWrites.addToDevice(asset));
    if (asset.deletedAt) yield putItemOf(assetWrites.trashEntry(asset, asset.deletedAt));
    if (options.terms)
      for (const term of assetTerms(
        asset,
        asset.personIds.map((id) => names.get(id) ?? ''),
      ))
        yield { ...keys.term(asset.ownerId, term, asset.fileCreatedAt, asset.id), type: 'term', assetId: asset.id };
  }
  for (const face of library.faces) yield stampPut(faceItem(face, byId.get(face.assetId) as AssetRecord));
  yield* counterItemsOf(ownerId, library.assets);
}

/**
 * Writes items as they come, `chunk` at a time, each chunk with parallel BatchWriteItem (25 a call,
 * `writers` calls in flight: DynamoDB Local takes several at once; unprocessed ones again).
 */
export const tableWriter = (
  db: DynamoDBDocumentClient,
  tableName: string,
  options: { writers?: number; chunk?: number; log?: (line: string) => void } = {},
) => {
  const writers = options.writers ?? 32;
  const chunk = options.chunk ?? 50_000;
  let buffer: Record<string, unknown>[] = [];
  const stats = { written: 0, seconds: 0 };
  const writeAll = async (items: readonly Record<string, unknown>[]) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: writers }, async () => {
        while (next < items.length) {
          const part = items.slice(next, next + 25);
          next += 25;
          let requests = part.map((Item) => ({ PutRequest: { Item } }));
          while (requests.length > 0) {
            const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
            requests = (result.UnprocessedItems?.[tableName] ?? []) as typeof requests;
          }
        }
      }),
    );
  };
  const flush = async () => {
    const part = buffer;
    buffer = [];
    if (part.length === 0) return;
    const t = performance.now();
    await writeAll(part);
    stats.seconds += (performance.now() - t) / 1000;
    stats.written += part.length;
    options.log?.(
      `wrote ${stats.written} items (${Math.round(stats.written / stats.seconds)} items/s, ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB resident)`,
    );
  };
  const put = async (...items: Record<string, unknown>[]) => {
    buffer.push(...items);
    if (buffer.length >= chunk) await flush();
  };
  const putAll = async (items: AsyncIterable<Record<string, unknown>> | Iterable<Record<string, unknown>>) => {
    for await (const item of items) await put(item);
  };
  return { put, putAll, flush, stats };
};
