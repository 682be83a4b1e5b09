import { randomUUID } from 'node:crypto';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type AlbumRecord, type AlbumShare, type AlbumSummary, summarize } from '#shared/model/album.ts';
import type { AssetRecord, FaceRecord } from '#shared/model/asset.ts';
import type { PersonRecord } from '#shared/model/person.ts';
import { type AssetShape, type OwnLibrary, ownedItems, ownLibrary, type Rng, seeded, tableWriter } from './assets.ts';

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
 * `stampPut`, docs/data-model.md, "Change ids and the sync stream"), and written as they are built,
 * in chunks of parallel BatchWriteItem. The owners' assets, faces and people come from the
 * generator the sync bench shares (./assets.ts), in this family's shape (`familyShape`). Counters are computed in memory once and written once: the
 * timeline counters (`counterItemsOf`), each asset's `albumCount`, each person's `faceCount` and
 * `timelineFaceCount`, each user's usage. No originals and no previews are stored (the media job
 * never runs): thumbnails answer 404, which no measured call reads.
 */

type Sdk = typeof import('@immich/sdk-v3');

/** Two summaries as one (`summarize` of both entry lists), so an album's is kept without holding its entries. */
const joinSummaries = (a: AlbumSummary, b: AlbumSummary): AlbumSummary => {
  if (a.assetCount === 0) return b;
  if (b.assetCount === 0) return a;
  const least = (x?: string, y?: string) => (x === undefined ? y : y === undefined || x < y ? x : y);
  const most = (x?: string, y?: string) => (x === undefined ? y : y === undefined || x > y ? x : y);
  return Object.fromEntries(
    Object.entries({
      assetCount: a.assetCount + b.assetCount,
      startDate: least(a.startDate, b.startDate),
      endDate: most(a.endDate, b.endDate),
      localStartDate: least(a.localStartDate, b.localStartDate),
      localEndDate: most(a.localEndDate, b.localEndDate),
    }).filter(([, value]) => value !== undefined),
  ) as AlbumSummary;
};
type Opts = { baseUrl: string; headers: Record<string, string> };

/** BatchWriteItem calls in flight (SCALE_WRITERS): DynamoDB Local takes several at once. */
const writers = Number(process.env.SCALE_WRITERS ?? 32);

/**
 * v1.100's text-search postings (GET /search; about 13 an asset, three quarters of all items) are
 * written only with SCALE_TERMS=1: no measured call reads them (the 3.x apps search by metadata),
 * and without them a library is written four times faster.
 */
const withTerms = process.env.SCALE_TERMS === '1';

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
const pickMonth = (rng: Rng): number => {
  const r = rng.random() * total;
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
const momentIn = (rng: Rng, index: number, eventDays: readonly number[]): string => {
  const year = firstYear + Math.floor(index / 12);
  const month = index % 12;
  const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = rng.chance(0.6) ? (eventDays[Math.floor(rng.random() * 3)] as number) % days : Math.floor(rng.random() * days);
  return new Date(
    Date.UTC(year, month, 1 + day, 8 + Math.floor(rng.random() * 14), Math.floor(rng.random() * 60), Math.floor(rng.random() * 60)),
  ).toISOString();
};

/** The family's libraries (./assets.ts): 5% videos, 70% located, 0.5% in the locked folder, faces on a fifth of photos. */
const familyShape = (deviceId: string): AssetShape => ({
  moments: (rng) => {
    const eventDays = Array.from({ length: 240 }, () => [0, 1, 2].map(() => Math.floor(rng.random() * 28)));
    return () => {
      const monthIndex = pickMonth(rng);
      return momentIn(rng, monthIndex, eventDays[monthIndex] as number[]);
    };
  },
  videos: 0.05,
  located: 0.7,
  trashed: 0.02,
  archived: 0.03 / 0.98,
  locked: 0.005 / 0.95,
  favourite: () => 0.05,
  faces: 0.2,
  timelineFaceCount: true,
  deviceId,
});

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

/** Builds the library in memory, writes its items, then what goes through the API. */
export const generate = async (
  size: number,
  env: { sdk: Sdk; db: DynamoDBDocumentClient; tableName: string; baseUrl: string; adminAuth: Opts },
  log: (line: string) => void = () => {},
): Promise<ScaleLibrary> => {
  const { sdk, db, tableName, baseUrl, adminAuth } = env;
  const { albumMemberCodec } = await import('#shared/db/items/album.ts');
  const albumWrites = await import('#shared/db/items/album-writes.ts');
  const { newChangeId } = await import('#shared/db/changes.ts');
  const keys = await import('#shared/db/item-keys.ts');
  const putItemOf = (write: { item: { Put?: { Item?: Record<string, unknown> } } }) => write.item.Put?.Item as Record<string, unknown>;
  const rng = seeded(55_055);
  const { random, chance, pick, pickSkewed } = rng;
  // Items go to the table in chunks as they are built (SCALE_CHUNK items at a time), so that a
  // 500k library (2.2 million items) is never held in memory at once: only its asset records are.
  const writer = tableWriter(db, tableName, { writers, chunk: Number(process.env.SCALE_CHUNK ?? 50_000), log });
  const { put } = writer;

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
  const libraries: OwnLibrary[] = [];
  for (const [index, user] of users.entries()) {
    const share = userShares[index] as number;
    const library = ownLibrary(rng, user.id, Math.round(size * share), Math.round(peopleTotal * share), familyShape(`phone-${index}`));
    Object.assign(user, { assets: library.assets, faces: library.faces, people: library.people });
    libraries.push(library);
  }

  // Albums: one per 250 assets, owned in the users' shares; each listed photo in 0 to 5 of its owner's.
  const albumCount = Math.max(8, Math.round(size / 250));
  const sharedCount = Math.max(3, Math.round(size / 10_000));
  const now = new Date().toISOString();
  const albums: ScaleAlbum[] = [];
  // Each album's summary item as the product keeps it once current (docs/data-model.md, "Album
  // summaries"): its entries' summary, and the sync markers of its entries and users (the latest
  // change id of each; '' none), so the first GET /albums and every sync read it as they would a
  // library written through the API and listed once.
  const kept = new Map<string, { summary: AlbumSummary; entriesId: string; usersId: string }>();
  const keptOf = (albumId: string) => {
    const entry = kept.get(albumId) ?? { summary: { assetCount: 0 }, entriesId: '', usersId: '' };
    kept.set(albumId, entry);
    return entry;
  };
  const latest = (a: string, b: unknown) => (typeof b === 'string' && b > a ? b : a);
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
  for (const index of users.keys()) {
    const own = byOwner[index] as ScaleAlbum[];
    if (own.length === 0) continue;
    for (const asset of (libraries[index] as OwnLibrary).albumable) {
      const r = random();
      const wanted = r < 0.5 ? 0 : r < 0.75 ? 1 : r < 0.88 ? 2 : r < 0.95 ? 3 : r < 0.98 ? 4 : 5;
      const chosen = new Set<ScaleAlbum>();
      for (let tries = 0; chosen.size < Math.min(wanted, own.length) && tries < 20; tries++) chosen.add(pickSkewed(own));
      asset.albumCount = chosen.size;
      for (const album of chosen) {
        album.assetIds.push(asset.id);
        album.record.albumThumbnailAssetId ??= asset.id;
        const entry = putItemOf((albumWrites.join(album.record.id, asset, now)[0] as Parameters<typeof putItemOf>[0]) ?? {});
        const summary = keptOf(album.record.id);
        summary.summary = joinSummaries(summary.summary, summarize([albumMemberCodec.read(entry)]));
        summary.entriesId = latest(summary.entriesId, entry.updateId);
        await put(entry);
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
    for (const item of albumUsers.slice(-puts.length))
      keptOf(album.record.id).usersId = latest(keptOf(album.record.id).usersId, item.updateId);
    album.record.sharedUserIds = album.shares.map((share) => share.userId);
    album.record.userRoles = Object.fromEntries(album.shares.filter((s) => s.role === 'viewer').map((s) => [s.userId, 'viewer']));
  }

  // The items, in the order a sync does not care about (it orders by change id).
  for (const library of libraries) await writer.putAll(ownedItems(library, { terms: withTerms }));
  await put(...albums.map((album) => putItemOf(albumWrites.create(album.record))), ...albumUsers);
  await put(
    ...albums.map((album) => {
      const { summary, entriesId, usersId } = keptOf(album.record.id);
      const at = newChangeId();
      return {
        ...keys.albumSummary(album.record.id),
        contentId: at,
        summaryId: at,
        summary,
        entriesId,
        usersId,
        entryDeletionsId: '',
        userDeletionsId: '',
        // The album's owner, for the writers that know only its id (they move its users' album sync markers).
        ownerId: album.record.ownerId,
        // Its entries' owners (an album here holds its owner's photos only), as the table's migration leaves them.
        ...(album.assetIds.length > 0 ? { entryOwners: new Set([album.record.ownerId]) } : {}),
        entryOwnersLearnt: true,
      };
    }),
  );
  // Each user's album sync marker, as their albums' writes moved it (docs/data-model.md, "Album
  // summaries"): after every change id of the albums, not yet learnt by a sync.
  await put(...users.map((user) => ({ ...keys.albumSyncMark(user.id), type: 'albumSyncMark', changeId: newChangeId() })));
  await writer.flush();
  const { written } = writer.stats;
  const built = (performance.now() - started) / 1000 - writer.stats.seconds;
  log(`built ${written} items in ${built.toFixed(1)} s (besides writing them)`);

  const writing = performance.now();
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
  const itemSeconds = writer.stats.seconds + (performance.now() - writing) / 1000;
  log(`wrote ${written} items in ${itemSeconds.toFixed(1)} s (${Math.round(written / itemSeconds)} items/s)`);

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
    items: written,
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
