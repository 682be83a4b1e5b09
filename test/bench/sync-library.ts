import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type AssetShape, type OwnLibrary, ownedItems, ownLibrary, seeded, tableWriter } from './scale/assets.ts';

/**
 * A family's library for the sync bench, in the shape of a real one:
 * the measured user, a partner who shares their library with them, an album member, and a user
 * the admin deletes mid-way. Assets, their faces and people come from the generator the scale
 * bench shares (./scale/assets.ts) and are written straight into the table with the project's own
 * item builders, each stamped as the write builders stamp it (`stampPut`, docs/data-model.md,
 * "Change ids and the sync stream"); albums, their users and entries, partners and stacks go
 * through the API (@immich/sdk-v3), whose write builders stamp them.
 */

// Loaded after the stack has set TABLE_NAME (the modules read it at import).
type Sdk = typeof import('@immich/sdk-v3');
type Opts = { baseUrl: string; headers: Record<string, string> };

/** Seeded (./scale/assets.ts): every run builds the same shapes (ids and change ids differ). */
const rng = seeded(20261127);
const { random, chance, pickSkewed } = rng;

const start = Date.UTC(2014, 0, 1);
const span = 10 * 365 * 86_400_000;
/** "Trip": a summer's photos, some of them also favourites (so also in "Favourites"). */
const tripFrom = Date.UTC(2019, 6, 1);
const tripTo = Date.UTC(2019, 8, 30);

/**
 * The sync bench's libraries: over 10 years, 3% in a summer's trip (a quarter of those favourites,
 * 5% of the rest), 10% videos, 85% with a position and its place names, 2% trashed, 3% archived,
 * faces on 15% of photos (people's timeline counts left to the first list).
 */
const syncShape: AssetShape = {
  moments: (r) => () =>
    new Date(
      r.chance(0.03) ? tripFrom + Math.floor(r.random() * (tripTo - tripFrom)) : start + Math.floor(r.random() * span),
    ).toISOString(),
  videos: 0.1,
  located: 0.85,
  trashed: 0.02,
  archived: 0.03,
  locked: 0,
  favourite: (when) => {
    const taken = Date.parse(when);
    return taken >= tripFrom && taken < tripTo ? 0.25 : 0.05;
  },
  faces: 0.15,
  timelineFaceCount: false,
  deviceId: 'phone',
};

export type { OwnLibrary } from './scale/assets.ts';

/** `count` asset items of one owner in the sync bench's shape (`syncShape`), with `people` people. */
export const ownLibraryOf = (ownerId: string, count: number, people: number): OwnLibrary =>
  ownLibrary(rng, ownerId, count, people, syncShape);

/** Writes an owner's library: people and their names, assets with their checksum, device and trash entries, faces, timeline counters. */
export const writeLibrary = async (db: DynamoDBDocumentClient, tableName: string, library: OwnLibrary): Promise<void> => {
  const writer = tableWriter(db, tableName);
  await writer.putAll(ownedItems(library));
  await writer.flush();
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
    user: ownLibraryOf(user.id, size, 40),
    partner: ownLibraryOf(partner.id, Math.round(size / 5), 12),
    member: ownLibraryOf(member.id, Math.round(size / 20), 0),
    leaving: ownLibraryOf(leaving.id, Math.round(size / 50), 0),
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
