import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AssetRecord, FaceRecord } from '#shared/model/asset.ts';
import type { PersonRecord } from '#shared/model/person.ts';
import { assetRecord, cameraExif, faceRecord } from '../support/records.ts';
import { putItems } from './table-io.ts';

/**
 * A family's library for the sync bench, in the shape of a real one:
 * the measured user, a partner who shares their library with them, an album member, and a user
 * the admin deletes mid-way. Assets, their faces and people are written straight into the table
 * with the project's own item builders, each stamped as the write builders stamp it (`stampPut`,
 * docs/data-model.md, "Change ids and the sync stream"); albums, their users and entries,
 * partners and stacks go through the API (@immich/sdk-v3), whose write builders stamp them.
 */

// Loaded after the stack has set TABLE_NAME (the modules read it at import).
type Sdk = typeof import('@immich/sdk-v3');
type Opts = { baseUrl: string; headers: Record<string, string> };

let seed = 20261127;
/** A seeded generator: every run builds the same shapes (ids and change ids differ). */
export const random = (): number => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const chance = (p: number): boolean => random() < p;
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
/** Skewed towards the first items (a few people and albums hold most photos, as in a real library). */
const pickSkewed = <T>(list: readonly T[]): T => list[Math.floor(random() ** 2 * list.length)] as T;

const start = Date.UTC(2014, 0, 1);
const span = 10 * 365 * 86_400_000;
/** "Trip": a summer's photos, some of them also favourites (so also in "Favourites"). */
const tripFrom = Date.UTC(2019, 6, 1);
const tripTo = Date.UTC(2019, 8, 30);

const places = [
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
];
const cameras = [
  { make: 'Apple', model: 'iPhone 13', lensModel: 'iPhone 13 back dual wide camera 5.1mm f/1.6' },
  { make: 'Apple', model: 'iPhone 8', lensModel: 'iPhone 8 back camera 3.99mm f/1.8' },
  { make: 'Google', model: 'Pixel 7', lensModel: null },
  { make: 'SONY', model: 'ILCE-7M3', lensModel: 'FE 24-105mm F4 G OSS' },
  { make: 'samsung', model: 'SM-G991B', lensModel: null },
];
const names = ['Anna', 'Ben', 'Clara', 'David', 'Emma', 'Felix', 'Greta', 'Hugo', 'Ida', 'Jonas'];
const surnames = ['Keller', 'Meier', 'Schmid', 'Weber'];

/** Thumbhashes differ from photo to photo (what the stream sends of each compresses as real ones do, not as one repeated). */
const thumbhash = (): string => Buffer.from(Array.from({ length: 24 }, () => Math.floor(random() * 256))).toString('base64');

export interface OwnLibrary {
  /** Every asset item written (a live photo's hidden video included). */
  assets: AssetRecord[];
  faces: FaceRecord[];
  people: PersonRecord[];
  /** Photos a stack may join: listed images, no live photo, not trashed. */
  stackable: AssetRecord[];
  /** What may go in albums: all but a live photo's hidden video. */
  albumable: AssetRecord[];
}

/**
 * `count` asset items of one owner, as uploads leave them: 10% videos, 5% favourites, 2% trashed,
 * 3% archived, 4% of photos live photos (the photo and its hidden video, two items), 85% with a
 * position and its place names, a camera's EXIF; with `people` people, 15% of photos carry 1–3
 * of their faces (as a photo manager's face regions leave them: `sourceType` exif).
 */
export const ownLibrary = (ownerId: string, count: number, people: number): OwnLibrary => {
  const now = new Date().toISOString();
  const persons: PersonRecord[] = Array.from({ length: people }, (_, index) => ({
    id: randomUUID(),
    ownerId,
    name: `${names[index % names.length]} ${surnames[Math.floor(index / names.length) % surnames.length]}${index >= 40 ? ` ${index}` : ''}`,
    birthDate: null,
    isHidden: false,
    thumbnailPath: '',
    faceAssetId: null,
    faceCount: 0,
    // Counted from the faces at the first list (docs/data-model.md, "Earlier shapes"): some photos are trashed.
    timelineFaceCount: null,
    isFavorite: index < 3,
    color: null,
    createdAt: now,
    updatedAt: now,
  }));
  const assets: AssetRecord[] = [];
  const faces: FaceRecord[] = [];
  const stackable: AssetRecord[] = [];
  const albumable: AssetRecord[] = [];
  while (assets.length < count) {
    const taken = chance(0.03) ? tripFrom + Math.floor(random() * (tripTo - tripFrom)) : start + Math.floor(random() * span);
    const when = new Date(taken).toISOString();
    const inTrip = taken >= tripFrom && taken < tripTo;
    const video = chance(0.1);
    const camera = pickSkewed(cameras);
    const place = chance(0.85) ? pick(places) : undefined;
    const trashed = chance(0.02);
    const archived = !trashed && chance(0.03);
    const id = randomUUID();
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
      deviceId: 'phone',
      at: when,
      thumbhash: thumbhash(),
      geocoded: place !== undefined,
      deletedAt: trashed ? now : null,
      visibility: archived ? ('archive' as const) : ('timeline' as const),
      isFavorite: chance(inTrip ? 0.25 : 0.05),
    };
    const live = !video && assets.length + 2 <= count && chance(0.04);
    const motion = live
      ? assetRecord(ownerId, {
          deviceAssetId: `IMG_${assets.length}.MOV`,
          ...base,
          isFavorite: false,
          deletedAt: null,
          type: 'VIDEO',
          duration: 2_500,
          visibility: 'hidden',
          originalFileName: `IMG_${assets.length}.MOV`,
          exif: { ...exif, fileSizeInByte: 3_000_000 },
        })
      : undefined;
    const asset = assetRecord(ownerId, {
      id,
      deviceAssetId: `IMG_${assets.length}`,
      ...base,
      type: video ? 'VIDEO' : 'IMAGE',
      duration: video ? 3_000 + Math.floor(random() * 120_000) : null,
      originalFileName: `IMG_${assets.length}.${video ? 'MOV' : 'HEIC'}`,
      livePhotoVideoId: motion?.id ?? null,
      exif,
    });
    if (!video && persons.length > 0 && chance(0.15)) {
      const shown = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => pickSkewed(persons)))];
      const own = shown.map((person, index) => faceRecord(asset.id, person.id, ownerId, index));
      for (const person of shown) {
        person.faceCount++;
        person.faceAssetId ??= asset.id;
      }
      asset.personIds = shown.map((person) => person.id);
      asset.faceIds = own.map((face) => face.id);
      faces.push(...own);
    }
    assets.push(asset);
    if (motion) assets.push(motion);
    albumable.push(asset);
    if (!video && !live && !trashed) stackable.push(asset);
  }
  return { assets, faces, people: persons.filter((person) => person.faceCount > 0), stackable, albumable };
};

/** Writes an owner's library: assets, checksums, faces, people and their names, timeline counters. */
export const writeLibrary = async (db: DynamoDBDocumentClient, tableName: string, library: OwnLibrary): Promise<void> => {
  const { assetItem, checksumItem } = await import('#shared/db/items/asset.ts');
  const { faceItem } = await import('#shared/db/items/face.ts');
  const { personItem, personNameItem } = await import('#shared/db/items/person.ts');
  const { counterItemsOf } = await import('#shared/db/items/bucket.ts');
  const { stampPut } = await import('#shared/db/changes.ts');
  const byId = new Map(library.assets.map((asset) => [asset.id, asset]));
  const ownerId = library.assets[0]?.ownerId ?? '';
  await putItems(db, tableName, [
    // People before their faces, faces before… nothing: a sync orders by change id, not by write.
    ...library.people.flatMap((person) => [stampPut(personItem(person)), personNameItem(ownerId, person.name, person.id)]),
    ...library.assets.flatMap((asset) => [stampPut(assetItem(asset)), checksumItem(asset.ownerId, asset.checksum, asset.id)]),
    ...library.faces.map((face) => stampPut(faceItem(face, byId.get(face.assetId) as AssetRecord))),
    ...counterItemsOf(ownerId, library.assets),
  ]);
};

export interface Account {
  id: string;
  email: string;
  auth: Opts;
}

const account = async (sdk: Sdk, baseUrl: string, adminAuth: Opts, email: string, name: string): Promise<Account> => {
  const created = await sdk.createUserAdmin(
    { userAdminCreateDto: { email, password: 'password', name, shouldChangePassword: false } },
    adminAuth,
  );
  const session = await sdk.login({ loginCredentialDto: { email, password: 'password' } }, { baseUrl });
  return { id: created.id, email, auth: { baseUrl, headers: { Authorization: `Bearer ${session.accessToken}` } } };
};

/** Adds assets to an album through the API, many ids a call; any id refused fails the build. */
const addToAlbum = async (sdk: Sdk, auth: Opts, albumId: string, assetIds: readonly string[]): Promise<void> => {
  for (let i = 0; i < assetIds.length; i += 2000) {
    const results = await sdk.addAssetsToAlbum({ id: albumId, bulkIdsDto: { ids: assetIds.slice(i, i + 2000) } }, auth);
    const refused = results.filter((result) => !result.success);
    if (refused.length > 0) throw new Error(`album ${albumId}: ${refused.length} ids refused (${refused[0]?.error})`);
  }
};

const albumNames = [
  'Trip',
  'Favourites',
  'Family',
  'Kids',
  'Garden',
  'Christmas',
  'Summer',
  'Skiing',
  'Birthdays',
  'Wedding',
  'Pets',
  'Food',
  'Hiking',
  'Beach',
  'City breaks',
  'School',
  'Concerts',
  'Grandparents',
  'Camping',
  'Best of',
];
/** The user's albums shared with the member (who adds their own photos), and the one the leaving user joins. */
const sharedWithMember = ['Family', 'Kids', 'Christmas', 'Birthdays', 'Grandparents'];
const joinedByLeaving = 'Wedding';

export interface Family {
  user: Account;
  partner: Account;
  member: Account;
  leaving: Account;
  libraries: { user: OwnLibrary; partner: OwnLibrary; member: OwnLibrary; leaving: OwnLibrary };
  /** Every album the user has (theirs and shared with them), by name, with its owner and its entries. */
  albums: { id: string; name: string; ownerId: string; assetIds: string[] }[];
  /** An album of the member's not shared with the user yet (the bench shares it mid-way: its entries are a backfill). */
  later: { id: string; name: string; ownerId: string; assetIds: string[] };
  stacks: { user: number; partner: number };
  /** Seconds writing items, seconds through the API. */
  seconds: { items: number; api: number };
}

/** Stacks of 2–3 of the owner's photos taken one after the other, through POST /stacks, about `share` of the assets in them. */
const makeStacks = async (sdk: Sdk, auth: Opts, library: OwnLibrary, share: number): Promise<number> => {
  const photos = [...library.stackable].sort((a, b) => (a.fileCreatedAt < b.fileCreatedAt ? -1 : 1));
  let stacked = 0;
  let stacks = 0;
  const wanted = Math.max(2, Math.round(library.assets.length * share));
  for (let i = Math.floor(random() * 20); stacked < wanted && i + 3 < photos.length; i += 20 + Math.floor(random() * 40)) {
    const size = chance(0.7) ? 2 : 3;
    const ids = photos.slice(i, i + size).map((asset) => asset.id);
    await sdk.createStack({ stackCreateDto: { assetIds: ids } }, auth);
    stacked += size;
    stacks++;
  }
  return stacks;
};

/**
 * The family, for a measured user with `size` asset items: the partner a fifth of it, the member a
 * twentieth, the leaving user a fiftieth.
 */
export const buildFamily = async (
  size: number,
  env: { sdk: Sdk; db: DynamoDBDocumentClient; tableName: string; baseUrl: string; adminAuth: Opts },
): Promise<Family> => {
  const { sdk, db, tableName, baseUrl, adminAuth } = env;
  const user = await account(sdk, baseUrl, adminAuth, 'sync@immich.cloud', 'Sync');
  const partner = await account(sdk, baseUrl, adminAuth, 'partner@immich.cloud', 'Partner');
  const member = await account(sdk, baseUrl, adminAuth, 'member@immich.cloud', 'Member');
  const leaving = await account(sdk, baseUrl, adminAuth, 'leaving@immich.cloud', 'Leaving');

  const itemsStarted = performance.now();
  const libraries = {
    user: ownLibrary(user.id, size, 40),
    partner: ownLibrary(partner.id, Math.round(size / 5), 12),
    member: ownLibrary(member.id, Math.round(size / 20), 0),
    leaving: ownLibrary(leaving.id, Math.round(size / 50), 0),
  };
  for (const library of Object.values(libraries)) await writeLibrary(db, tableName, library);
  const itemSeconds = (performance.now() - itemsStarted) / 1000;

  const apiStarted = performance.now();
  // The partner shares their library with the user, who shows it in their timeline; the user shares theirs back.
  await sdk.createPartner({ partnerCreateDto: { sharedWithId: user.id } }, partner.auth);
  await sdk.updatePartner({ id: partner.id, partnerUpdateDto: { inTimeline: true } }, user.auth);
  await sdk.createPartner({ partnerCreateDto: { sharedWithId: partner.id } }, user.auth);

  // An older album of the member's, shared with the user only mid-way: its entries are older than
  // what the user's first sync acks, so they come as the album's backfill.
  const holiday = libraries.member.albumable.filter(() => chance(0.4)).map((asset) => asset.id);
  const unshared = await sdk.createAlbum({ createAlbumDto: { albumName: 'Holiday', assetIds: holiday } }, member.auth);
  const later = { id: unshared.id, name: 'Holiday', ownerId: member.id, assetIds: holiday };

  // The user's albums: each photo in 0 to 3 of them; favourites in "Favourites", the summer's in "Trip".
  const contents = new Map<string, string[]>(albumNames.map((name) => [name, []]));
  const others = albumNames.filter((name) => name !== 'Trip' && name !== 'Favourites');
  for (const asset of libraries.user.albumable) {
    const chosen = new Set<string>();
    if (asset.isFavorite) chosen.add('Favourites');
    const taken = Date.parse(asset.fileCreatedAt);
    if (taken >= tripFrom && taken < tripTo) chosen.add('Trip');
    const r = random();
    const wanted = Math.max(chosen.size, r < 0.45 ? 0 : r < 0.78 ? 1 : r < 0.94 ? 2 : 3);
    while (chosen.size < wanted) chosen.add(pickSkewed(others));
    for (const name of chosen) contents.get(name)?.push(asset.id);
  }
  const albums: Family['albums'] = [];
  for (const name of albumNames) {
    const album = await sdk.createAlbum({ createAlbumDto: { albumName: name } }, user.auth);
    const assetIds = contents.get(name) ?? [];
    await addToAlbum(sdk, user.auth, album.id, assetIds);
    albums.push({ id: album.id, name, ownerId: user.id, assetIds: [...assetIds] });
  }
  const named = (name: string) => albums.find((album) => album.name === name) as Family['albums'][number];
  // Five shared with the member, who adds photos of their own; the leaving user joins "Wedding" with theirs.
  const memberPhotos = libraries.member.albumable.filter(() => chance(0.15)).map((asset) => asset.id);
  for (const [index, name] of sharedWithMember.entries()) {
    const album = named(name);
    await sdk.addUsersToAlbum(
      { id: album.id, addUsersDto: { albumUsers: [{ userId: member.id, role: sdk.AlbumUserRole.Editor }] } },
      user.auth,
    );
    const theirs = memberPhotos.filter((_, i) => i % sharedWithMember.length === index);
    await addToAlbum(sdk, member.auth, album.id, theirs);
    album.assetIds.push(...theirs);
  }
  const wedding = named(joinedByLeaving);
  await sdk.addUsersToAlbum(
    { id: wedding.id, addUsersDto: { albumUsers: [{ userId: leaving.id, role: sdk.AlbumUserRole.Editor }] } },
    user.auth,
  );
  const leavingPhotos = libraries.leaving.albumable.filter(() => chance(0.3)).map((asset) => asset.id);
  await addToAlbum(sdk, leaving.auth, wedding.id, leavingPhotos);
  wedding.assetIds.push(...leavingPhotos);

  // Albums of the others shared with the user: two of the member's, one of the leaving user's.
  const shareOf = async (owner: Account, name: string, photos: string[], role: 'editor' | 'viewer') => {
    const album = await sdk.createAlbum(
      {
        createAlbumDto: {
          albumName: name,
          albumUsers: [{ userId: user.id, role: role === 'editor' ? sdk.AlbumUserRole.Editor : sdk.AlbumUserRole.Viewer }],
        },
      },
      owner.auth,
    );
    await addToAlbum(sdk, owner.auth, album.id, photos);
    albums.push({ id: album.id, name, ownerId: owner.id, assetIds: photos });
  };
  await shareOf(
    member,
    "Member's garden",
    libraries.member.albumable.filter(() => chance(0.3)).map((asset) => asset.id),
    'viewer',
  );
  await shareOf(
    member,
    'Cousins',
    libraries.member.albumable.filter(() => chance(0.2)).map((asset) => asset.id),
    'editor',
  );
  await shareOf(
    leaving,
    'Old photos',
    libraries.leaving.albumable.filter(() => chance(0.5)).map((asset) => asset.id),
    'viewer',
  );

  // Stacks: about 1% of the user's assets and of the partner's.
  const stacks = {
    user: await makeStacks(sdk, user.auth, libraries.user, 0.01),
    partner: await makeStacks(sdk, partner.auth, libraries.partner, 0.01),
  };
  const apiSeconds = (performance.now() - apiStarted) / 1000;
  return { user, partner, member, leaving, libraries, albums, later, stacks, seconds: { items: itemSeconds, api: apiSeconds } };
};
