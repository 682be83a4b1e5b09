import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AlbumRecord, AlbumShare } from '#shared/model/album.ts';
import type { AssetRecord, FaceRecord } from '#shared/model/asset.ts';
import type { PersonRecord } from '#shared/model/person.ts';
import { assetRecord, cameraExif, faceRecord } from '../../support/records.ts';

/**
 * A family's library at scale (issue 55), written straight into the table: 4 users, assets over
 * 20 years (more photos in recent years, summers and Decembers, clustered on a few days a month),
 * EXIF with GPS and place names for 70%, 5% videos, live photos (4% of photos: the photo and its
 * hidden video), 2% trashed, 3% archived, 0.5% in the locked folder, 5% favourites; people (0.6%
 * of the assets' count) with faces (0.4 a asset); albums (one per 250 assets) holding each photo in
 * 0 to 5 of them, one in 10,000 of them shared with one or two of the others; two partner shares
 * (one shown in the timeline); and, through the API (whose write builders stamp them), stacks,
 * memories and tags.
 *
 * Every item is the product's own: built by the write builders of shared/db/items/ (asset,
 * checksum, device entry, trash entry, search postings, face, person and its name guard, album,
 * album entry, album user), stamped with change ids as the builders stamp them (`putWrite` /
 * `stampPut`, docs/data-model.md, "Change ids and the sync stream"), and written with parallel
 * BatchWriteItem (./table-io.ts). Counters are computed in memory once and written once: the
 * timeline counters (`counterItemsOf`), each asset's `albumCount`, each person's `faceCount` and
 * `timelineFaceCount`, each user's usage. No originals and no previews are stored (the media job
 * never runs): thumbnails answer 404, which no measured call reads.
 */

type Sdk = typeof import('@immich/sdk-v3');

/** BatchWriteItem calls in flight (SCALE_WRITERS): DynamoDB Local takes several at once. */
const writers = Number(process.env.SCALE_WRITERS ?? 32);

/**
 * v1.100's text-search postings (GET /search; about 13 an asset, three quarters of all items) are
 * written only with SCALE_TERMS=1: no measured call reads them (the 3.x apps search by metadata),
 * and without them a library is written four times faster.
 */
const withTerms = process.env.SCALE_TERMS === '1';

/** Writes items with parallel BatchWriteItem, 25 a call, `writers` calls in flight, unprocessed ones again. */
const writeItems = async (db: DynamoDBDocumentClient, tableName: string, items: readonly Record<string, unknown>[]): Promise<void> => {
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
type Opts = { baseUrl: string; headers: Record<string, string> };

let seed = 55_055;
/**
 * Seeded (mulberry32, in 32-bit integers: an LCG in doubles loses its low bits past 2^53 and falls
 * into short cycles): every run builds the same shapes (ids and change ids differ).
 */
const random = (): number => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const chance = (p: number): boolean => random() < p;
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const pickSkewed = <T>(list: readonly T[]): T => list[Math.floor(random() ** 2 * list.length)] as T;

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
const tagNames = ['Family', 'Holiday', 'Work', 'Sport', 'Nature', 'Food', 'Pets', 'Art', 'School', 'Friends'];

/** 240 months, 2006–2025, weighted: more photos every year, more in summers and Decembers. */
const firstYear = 2006;
const seasonal = [0.7, 0.6, 0.7, 0.8, 0.9, 1.1, 1.5, 1.6, 1.0, 0.9, 0.8, 1.4];
const monthWeights = Array.from({ length: 240 }, (_, i) => (0.3 + 1.7 * (Math.floor(i / 12) / 19) ** 1.5) * (seasonal[i % 12] as number));
const cumulative = monthWeights.reduce<number[]>((sums, w) => {
  sums.push((sums.at(-1) ?? 0) + w);
  return sums;
}, []);
const total = cumulative.at(-1) as number;
const pickMonth = (): number => {
  const r = random() * total;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cumulative[mid] as number) < r) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};
/** A moment in month `index`: 60% on one of the month's three "event" days (per user), the rest any day. */
const momentIn = (index: number, eventDays: readonly number[]): string => {
  const year = firstYear + Math.floor(index / 12);
  const month = index % 12;
  const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = chance(0.6) ? (eventDays[Math.floor(random() * 3)] as number) % days : Math.floor(random() * days);
  return new Date(
    Date.UTC(year, month, 1 + day, 8 + Math.floor(random() * 14), Math.floor(random() * 60), Math.floor(random() * 60)),
  ).toISOString();
};

const thumbhash = (): string => Buffer.from(Array.from({ length: 24 }, () => Math.floor(random() * 256))).toString('base64');

export interface ScaleUser {
  id: string;
  email: string;
  name: string;
  auth: Opts;
  token: string;
  assets: AssetRecord[];
  faces: FaceRecord[];
  people: PersonRecord[];
}

export interface ScaleAlbum {
  record: AlbumRecord;
  assetIds: string[];
  shares: AlbumShare[];
}

export interface ScaleLibrary {
  size: number;
  users: ScaleUser[];
  albums: ScaleAlbum[];
  /** partners[i] = [sharedBy, sharedWith, inTimeline] */
  partners: [number, number, boolean][];
  stacks: number;
  memories: number;
  tagged: number;
  items: number;
  seconds: { build: number; items: number; api: number };
}

/** The users' shares of the library. */
const userShares = [0.45, 0.3, 0.15, 0.1];

const ownAssets = (user: ScaleUser, count: number, peopleCount: number, deviceId: string) => {
  const now = new Date().toISOString();
  const people: PersonRecord[] = Array.from({ length: peopleCount }, (_, index) => ({
    id: randomUUID(),
    ownerId: user.id,
    name: `${firstNames[index % firstNames.length]} ${surnames[Math.floor(index / firstNames.length) % surnames.length]}${index >= 72 ? ` ${index}` : ''}`,
    birthDate: null,
    isHidden: false,
    thumbnailPath: '',
    faceAssetId: null,
    faceCount: 0,
    timelineFaceCount: 0,
    isFavorite: index < 3,
    color: null,
    createdAt: now,
    updatedAt: now,
  }));
  const eventDays = Array.from({ length: 240 }, () => [0, 1, 2].map(() => Math.floor(random() * 28)));
  while (user.assets.length < count) {
    const monthIndex = pickMonth();
    const when = momentIn(monthIndex, eventDays[monthIndex] as number[]);
    const video = chance(0.05);
    const camera = pickSkewed(cameras);
    const place = chance(0.7) ? pick(places) : undefined;
    const trashed = chance(0.02);
    const archived = !trashed && chance(0.03 / 0.98);
    const locked = !trashed && !archived && chance(0.005 / 0.95);
    const exif = {
      ...cameraExif(when),
      make: camera.make,
      model: camera.model,
      lensModel: camera.lensModel,
      fileSizeInByte: video ? 20_000_000 + Math.floor(random() * 80_000_000) : 1_500_000 + Math.floor(random() * 3_000_000),
      ...(place
        ? {
            latitude: place.latitude + (random() - 0.5) / 10,
            longitude: place.longitude + (random() - 0.5) / 10,
            city: place.city,
            state: place.state,
            country: place.country,
          }
        : {}),
      ...(video ? { fNumber: null, focalLength: null, iso: null, exposureTime: null, exifImageWidth: 1920, exifImageHeight: 1080 } : {}),
    };
    const base = {
      deviceId,
      at: when,
      thumbhash: thumbhash(),
      geocoded: place !== undefined,
      deletedAt: trashed ? now : null,
      visibility: archived ? ('archive' as const) : locked ? ('locked' as const) : ('timeline' as const),
      isFavorite: chance(0.05),
    };
    const live = !video && user.assets.length + 2 <= count && chance(0.04);
    const n = user.assets.length;
    const motion = live
      ? assetRecord(user.id, {
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
    const asset = assetRecord(user.id, {
      deviceAssetId: `IMG_${n}`,
      ...base,
      type: video ? 'VIDEO' : 'IMAGE',
      duration: video ? 3_000 + Math.floor(random() * 120_000) : null,
      originalFileName: `IMG_${n}.${video ? 'MOV' : 'HEIC'}`,
      livePhotoVideoId: motion?.id ?? null,
      exif,
    });
    // 0.4 faces an asset: a fifth of photos with 1–3 people (2 on average).
    if (!video && people.length > 0 && chance(0.2)) {
      const shown = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => pickSkewed(people)))];
      const own = shown.map((person, index) => faceRecord(asset.id, person.id, user.id, index));
      const inTimeline = asset.deletedAt === null && asset.visibility === 'timeline';
      for (const person of shown) {
        person.faceCount++;
        if (inTimeline) person.timelineFaceCount = (person.timelineFaceCount ?? 0) + 1;
        person.faceAssetId ??= asset.id;
      }
      asset.personIds = shown.map((person) => person.id);
      asset.faceIds = own.map((face) => face.id);
      user.faces.push(...own);
    }
    user.assets.push(asset);
    if (motion) user.assets.push(motion);
  }
  user.people = people.filter((person) => person.faceCount > 0);
};

/** Builds the library in memory, writes its items, then what goes through the API. */
export const generate = async (
  size: number,
  env: { sdk: Sdk; db: DynamoDBDocumentClient; tableName: string; baseUrl: string; adminAuth: Opts },
  log: (line: string) => void = () => {},
): Promise<ScaleLibrary> => {
  const { sdk, db, tableName, baseUrl, adminAuth } = env;
  const { assetItem, assetWrites, checksumItem } = await import('#shared/db/items/asset.ts');
  const { faceItem } = await import('#shared/db/items/face.ts');
  const { personItem, personNameItem } = await import('#shared/db/items/person.ts');
  const { counterItemsOf } = await import('#shared/db/items/bucket.ts');
  const { albumWrites } = await import('#shared/db/items/album.ts');
  const { stampPut } = await import('#shared/db/changes.ts');
  const { keys } = await import('#shared/db/keys.ts');
  const { assetTerms } = await import('#shared/domain/terms.ts');
  const putItemOf = (write: { item: { Put?: { Item?: Record<string, unknown> } } }) => write.item.Put?.Item as Record<string, unknown>;

  const started = performance.now();
  const users: ScaleUser[] = [];
  for (const [index, name] of ['Alex', 'Sam', 'Robin', 'Kim'].entries()) {
    const email = `scale${index}@immich.cloud`;
    const created = await sdk.createUserAdmin(
      { userAdminCreateDto: { email, password: 'password', name, shouldChangePassword: false } },
      adminAuth,
    );
    const session = await sdk.login({ loginCredentialDto: { email, password: 'password' } }, { baseUrl });
    users.push({
      id: created.id,
      email,
      name,
      token: session.accessToken,
      auth: { baseUrl, headers: { Authorization: `Bearer ${session.accessToken}` } },
      assets: [],
      faces: [],
      people: [],
    });
  }
  const peopleTotal = Math.max(12, Math.round(size * 0.006));
  for (const [index, user] of users.entries()) {
    const share = userShares[index] as number;
    ownAssets(user, Math.round(size * share), Math.round(peopleTotal * share), `phone-${index}`);
  }

  // Albums: one per 250 assets, owned in the users' shares; each listed photo in 0 to 5 of its owner's.
  const albumCount = Math.max(8, Math.round(size / 250));
  const sharedCount = Math.max(3, Math.round(size / 10_000));
  const now = new Date().toISOString();
  const albums: ScaleAlbum[] = [];
  const byOwner = users.map(() => [] as ScaleAlbum[]);
  for (let i = 0; i < albumCount; i++) {
    let r = random();
    let owner = 0;
    while (owner < userShares.length - 1 && r >= (userShares[owner] as number)) r -= userShares[owner++] as number;
    const ownerId = (users[owner] as ScaleUser).id;
    const album: ScaleAlbum = {
      record: {
        id: randomUUID(),
        ownerId,
        albumName: `${pick(tagNames)} ${firstYear + Math.floor(random() * 20)} ${i}`,
        description: '',
        albumThumbnailAssetId: null,
        createdAt: now,
        updatedAt: now,
        isActivityEnabled: true,
        order: 'desc',
        sharedLinkCount: 0,
        sharedUserIds: [],
        userRoles: {},
      },
      assetIds: [],
      shares: [],
    };
    albums.push(album);
    byOwner[owner]?.push(album);
  }
  const entries: Record<string, unknown>[] = [];
  for (const [index, user] of users.entries()) {
    const own = byOwner[index] as ScaleAlbum[];
    if (own.length === 0) continue;
    for (const asset of user.assets) {
      if (asset.visibility === 'hidden' || asset.visibility === 'locked') continue;
      const r = random();
      const wanted = r < 0.5 ? 0 : r < 0.75 ? 1 : r < 0.88 ? 2 : r < 0.95 ? 3 : r < 0.98 ? 4 : 5;
      const chosen = new Set<ScaleAlbum>();
      for (let tries = 0; chosen.size < Math.min(wanted, own.length) && tries < 20; tries++) chosen.add(pickSkewed(own));
      asset.albumCount = chosen.size;
      for (const album of chosen) {
        album.assetIds.push(asset.id);
        album.record.albumThumbnailAssetId ??= asset.id;
        entries.push(putItemOf((albumWrites.join(album.record.id, asset, now)[0] as Parameters<typeof putItemOf>[0]) ?? {}));
      }
    }
  }
  // Shared albums: the first albums of each owner, each with one or two of the others, editors and viewers.
  const albumUsers: Record<string, unknown>[] = [];
  for (let i = 0; i < sharedCount && i < albums.length; i++) {
    const album = albums[i] as ScaleAlbum;
    const others = users.filter((user) => user.id !== album.record.ownerId);
    const withWhom = [...new Set([pick(others), ...(chance(0.4) ? [pick(others)] : [])])];
    album.shares = withWhom.map((user) => ({ userId: user.id, role: chance(0.7) ? 'editor' : 'viewer' }));
    const [, ...puts] = albumWrites.shareWith(album.record, album.shares, now);
    albumUsers.push(...puts.map((write) => putItemOf(write)));
    album.record.sharedUserIds = album.shares.map((share) => share.userId);
    album.record.userRoles = Object.fromEntries(album.shares.filter((s) => s.role === 'viewer').map((s) => [s.userId, 'viewer']));
  }

  // The items, in the order a sync does not care about (it orders by change id).
  const items: Record<string, unknown>[] = [];
  for (const user of users) {
    const byId = new Map(user.assets.map((asset) => [asset.id, asset]));
    const names = new Map(user.people.map((person) => [person.id, person.name]));
    for (const person of user.people) items.push(stampPut(personItem(person)), personNameItem(user.id, person.name, person.id));
    for (const asset of user.assets) {
      items.push(
        stampPut(assetItem(asset)),
        checksumItem(asset.ownerId, asset.checksum, asset.id),
        putItemOf(assetWrites.addToDevice(asset)),
      );
      if (asset.deletedAt) items.push(putItemOf(assetWrites.trashEntry(asset, asset.deletedAt)));
      if (withTerms)
        for (const term of assetTerms(
          asset,
          asset.personIds.map((id) => names.get(id) ?? ''),
        ))
          items.push({ ...keys.term(asset.ownerId, term, asset.fileCreatedAt, asset.id), type: 'term', assetId: asset.id });
    }
    for (const face of user.faces) items.push(stampPut(faceItem(face, byId.get(face.assetId) as AssetRecord)));
    items.push(...counterItemsOf(user.id, user.assets));
  }
  items.push(...albums.map((album) => putItemOf(albumWrites.create(album.record))), ...entries, ...albumUsers);
  const built = (performance.now() - started) / 1000;
  log(`built ${items.length} items in ${built.toFixed(1)} s`);

  const writing = performance.now();
  await writeItems(db, tableName, items);
  // Each user's usage, as the uploads would have added it up.
  for (const user of users) {
    const bytes = (type: string) =>
      user.assets.filter((asset) => asset.type === type).reduce((n, asset) => n + Number(asset.exif.fileSizeInByte ?? 0), 0);
    const photos = bytes('IMAGE');
    const videos = bytes('VIDEO');
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.user(user.id),
        UpdateExpression: 'SET quotaUsageInBytes = :all, usagePhotos = :photos, usageVideos = :videos, usageByType = :true',
        ExpressionAttributeValues: { ':all': photos + videos, ':photos': photos, ':videos': videos, ':true': true },
      }),
    );
  }
  const itemSeconds = (performance.now() - writing) / 1000;
  log(`wrote ${items.length} items in ${itemSeconds.toFixed(1)} s (${Math.round(items.length / itemSeconds)} items/s)`);

  // Through the API: partners, stacks, memories, tags.
  const api = performance.now();
  const [a, b, c] = users as [ScaleUser, ScaleUser, ScaleUser, ScaleUser];
  await sdk.createPartner({ partnerCreateDto: { sharedWithId: a.id } }, b.auth);
  await sdk.updatePartner({ id: b.id, partnerUpdateDto: { inTimeline: true } }, a.auth);
  await sdk.createPartner({ partnerCreateDto: { sharedWithId: c.id } }, a.auth);
  const partners: ScaleLibrary['partners'] = [
    [1, 0, true],
    [0, 2, false],
  ];
  // Stacks of 2–3 consecutive listed photos, about 1% of each user's assets in them.
  let stacks = 0;
  for (const user of users) {
    const photos = user.assets
      .filter((x) => x.type === 'IMAGE' && !x.livePhotoVideoId && !x.deletedAt && x.visibility === 'timeline')
      .sort((x, y) => (x.fileCreatedAt < y.fileCreatedAt ? -1 : 1));
    const wanted = Math.round(user.assets.length * 0.01);
    const groups: string[][] = [];
    for (let i = 0, n = 0; n < wanted && i + 3 < photos.length; i += 20 + Math.floor(random() * 40)) {
      const group = photos.slice(i, i + (chance(0.7) ? 2 : 3));
      groups.push(group.map((x) => x.id));
      n += group.length;
    }
    for (let i = 0; i < groups.length; i += 8)
      await Promise.all(groups.slice(i, i + 8).map((assetIds) => sdk.createStack({ stackCreateDto: { assetIds } }, user.auth)));
    stacks += groups.length;
  }
  // Memories: ten "on this day" of each user's, 5–30 photos each.
  let memories = 0;
  for (const user of users) {
    const photos = user.assets.filter((x) => x.type === 'IMAGE' && !x.deletedAt && x.visibility === 'timeline');
    for (let i = 0; i < 10 && photos.length > 30; i++) {
      const from = Math.floor(random() * (photos.length - 30));
      const assetIds = photos.slice(from, from + 5 + Math.floor(random() * 25)).map((x) => x.id);
      const year = Number((photos[from] as AssetRecord).localDateTime.slice(0, 4));
      await sdk.createMemory(
        { memoryCreateDto: { type: sdk.MemoryType.OnThisDay, data: { year }, memoryAt: new Date().toISOString(), assetIds } },
        user.auth,
      );
      memories++;
    }
  }
  // Tags: ten of each user's, on 2% of their listed assets.
  let tagged = 0;
  for (const user of users) {
    const tags = await sdk.upsertTags({ tagUpsertDto: { tags: tagNames.map((name) => `${name}/${user.name}`) } }, user.auth);
    const listed = user.assets.filter((x) => x.visibility === 'timeline' || x.visibility === 'archive');
    for (const tag of tags) {
      const assetIds = listed.filter(() => chance(0.002)).map((x) => x.id);
      for (let i = 0; i < assetIds.length; i += 1000)
        await sdk.bulkTagAssets({ tagBulkAssetsDto: { tagIds: [tag.id], assetIds: assetIds.slice(i, i + 1000) } }, user.auth);
      tagged += assetIds.length;
    }
  }
  const apiSeconds = (performance.now() - api) / 1000;
  log(`API part (partners, ${stacks} stacks, ${memories} memories, ${tagged} tag entries) in ${apiSeconds.toFixed(1)} s`);
  return {
    size,
    users,
    albums,
    partners,
    stacks,
    memories,
    tagged,
    items: items.length,
    seconds: { build: built, items: itemSeconds, api: apiSeconds },
  };
};

/** `node test/bench/scale/generate.ts 10k`: generates a library into a fresh DynamoDB Local and reports its rate (no measurements). */
if (import.meta.main) {
  const arg = process.argv[2] ?? '10k';
  const size = arg.toLowerCase().endsWith('k') ? Number(arg.slice(0, -1)) * 1000 : Number(arg);
  process.env.LOG_LEVEL = 'silent';
  const { startLocalStack } = await import('../local-stack.ts');
  const stack = await startLocalStack();
  try {
    const { db } = await import('#shared/db/client.ts');
    const sdk = await import('@immich/sdk-v3');
    await generate(size, { sdk, db, tableName: stack.tableName, baseUrl: stack.baseUrl, adminAuth: stack.adminAuth }, console.log);
  } finally {
    await stack.stop();
  }
}
