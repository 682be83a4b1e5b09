import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { Conflict } from '../core/errors.ts';
import { newestLiveMember } from '../model/album.ts';
import {
  type AssetRecord,
  type AssetStatus,
  type AssetWithFaces,
  type FaceRecord,
  inTimeline,
  type PhotoEdit,
  peopleOfFaces,
  type SearchableExifField,
  statusOf,
} from '../model/asset.ts';
import type { AssetMetadataEntry } from '../model/asset-metadata.ts';
import type { PersonRecord } from '../model/person.ts';
import type { QuotaCheck, UsageChange, UserRecord } from '../model/user.ts';
import * as activityRepo from './activity.repository.ts';
import * as albumRepo from './album.repository.ts';
import * as albumExitRepo from './album-exit.repository.ts';
import * as albumSyncRepo from './album-sync.repository.ts';
import { batchDelete, batchGet, chunk } from './batch.ts';
import { getItem } from './get.ts';
import * as indexKeys from './index-keys.ts';
import * as keys from './item-keys.ts';
import * as albumWrites from './items/album-writes.ts';
import { assetCodec, setStatusWrite } from './items/asset.ts';
import * as assetMetadataWrites from './items/asset-metadata-writes.ts';
import * as assetWrites from './items/asset-writes.ts';
import * as auditWrites from './items/audit-writes.ts';
import { slotOf } from './items/bucket.ts';
import * as bucketWrites from './items/bucket-writes.ts';
import * as deletionWrites from './items/deletion-writes.ts';
import { faceCodec, showsCondition } from './items/face.ts';
import * as faceWrites from './items/face-writes.ts';
import * as personWrites from './items/person-writes.ts';
import * as userWrites from './items/user-writes.ts';
import { dateOrder, type Partition } from './keys.ts';
import { done, doneWith, type Outcome, refused } from './outcome.ts';
import * as partitions from './partitions.ts';
import { queryAll, queryPages } from './query.ts';
import * as sharedLinkRepo from './shared-link.repository.ts';
import {
  checkWrite,
  deleteWrite,
  isCancelled,
  putWrite,
  transact,
  tryTransact,
  updateWrite,
  type Write,
  writeIfPresent,
  writeOne,
} from './transact.ts';

export const get = async (assetId: string): Promise<AssetRecord | undefined> => {
  const item = await getItem(keys.asset(assetId));
  return item ? assetCodec.read(item) : undefined;
};

/** Assets by id (BatchGetItem, 100 a call), in the order asked, missing ones left out; `consistent`: as they are now. */
export const getMany = async (assetIds: readonly string[], options: { consistent?: boolean } = {}): Promise<AssetRecord[]> =>
  (
    await batchGet(
      [...new Set(assetIds)].map((id) => keys.asset(id)),
      options,
    )
  ).map(assetCodec.read);

/** An asset and its faces (in the file's order): one Query on the asset's partition. */
export const getWithFaces = async (assetId: string): Promise<AssetWithFaces | undefined> => {
  const items = await queryAll(partitions.asset(assetId));
  const asset = items.find((item) => item.type === 'asset');
  if (!asset) return undefined;
  const faces = items.filter((item) => item.type === 'face').map(faceCodec.read);
  return { asset: assetCodec.read(asset), faces: faces.sort((a, b) => a.index - b.index) };
};

/** The faces of these assets, read by key (their ids are on the asset); `consistent`: as they are now. */
export const getFacesOf = async (assets: readonly AssetRecord[], options: { consistent?: boolean } = {}): Promise<FaceRecord[]> =>
  (
    await batchGet(
      assets.flatMap((asset) => asset.faceIds.map((faceId) => keys.assetFace(asset.id, faceId))),
      options,
    )
  ).map(faceCodec.read);

/**
 * Many assets and their faces (in the file's order) as they are now, by key: the assets in
 * BatchGetItem calls of 100, then their faces the same way (their ids are on the asset), where
 * `getWithFaces` costs a Query an asset. Missing ones are left out.
 */
export const getManyWithFaces = async (assetIds: readonly string[]): Promise<AssetWithFaces[]> => {
  const assets = await getMany(assetIds, { consistent: true });
  const faces = new Map<string, FaceRecord[]>();
  for (const face of await getFacesOf(assets, { consistent: true })) faces.set(face.assetId, [...(faces.get(face.assetId) ?? []), face]);
  return assets.map((asset) => ({ asset, faces: (faces.get(asset.id) ?? []).sort((a, b) => a.index - b.index) }));
};

/** The owner's assets with these checksums (hex): checksum → assetId. */
export const findByChecksums = async (ownerId: string, checksums: readonly string[]): Promise<Map<string, string>> => {
  const guards = await batchGet([...new Set(checksums)].map((checksum) => keys.checksum(ownerId, checksum)));
  return new Map(guards.map((guard) => [String(guard.checksum), String(guard.assetId)]));
};

/** The owner's asset with this checksum (hex). */
export const getByChecksum = async (ownerId: string, checksum: string): Promise<AssetRecord | undefined> => {
  const guard = await getItem(keys.checksum(ownerId, checksum));
  return typeof guard?.assetId === 'string' ? get(guard.assetId) : undefined;
};

export interface AssetPageOptions {
  descending: boolean;
  pageSize: number;
  /** Only assets taken within [takenAfter, takenBefore] (inclusive). */
  takenAfter?: string;
  takenBefore?: string;
}

async function* assetPages(partition: Partition, options: AssetPageOptions): AsyncGenerator<AssetRecord[], void, void> {
  // The sort key is `<fileCreatedAt>#<id>`: an inclusive window on the date is a key range.
  const range = {
    ...(options.takenAfter ? { from: options.takenAfter } : {}),
    ...(options.takenBefore ? { to: dateOrder(options.takenBefore, '\uffff') } : {}),
  };
  for await (const page of queryPages(partition, { descending: options.descending, pageSize: options.pageSize, ...range }))
    yield page.map(assetCodec.read);
}

/** An owner's assets in date order (gsi1), page by page. */
export const timelinePages = (ownerId: string, options: AssetPageOptions) => assetPages(partitions.timeline(ownerId), options);

/**
 * An owner's assets updated within [from, to] (either bound may be absent), from the by-update
 * index (gsi2), oldest change first: the mobile app's delta sync reads what changed since.
 */
export const assetsUpdatedBetween = async (ownerId: string, from?: string, to?: string): Promise<AssetRecord[]> => {
  const assets: AssetRecord[] = [];
  const range = { ...(from ? { from } : {}), ...(to ? { to: dateOrder(to, '\uffff') } : {}) };
  for await (const page of queryPages(partitions.assetsByUpdate(ownerId), { pageSize: 500, ...range }))
    assets.push(...page.map(assetCodec.read));
  return assets;
};

/**
 * When an owner's assets changed since `from` were uploaded, and whether they are trashed (the
 * by-update index, projected to those two): every asset uploaded since `from` is among them, as
 * an asset's `updatedAt` is never before its upload.
 */
export const uploadsSince = async (ownerId: string, from: string): Promise<{ createdAt: string; trashed: boolean }[]> => {
  const uploads: { createdAt: string; trashed: boolean }[] = [];
  for await (const page of queryPages(partitions.assetsByUpdate(ownerId), { pageSize: 1000, from, attributes: ['createdAt', 'deletedAt'] }))
    for (const item of page) uploads.push({ createdAt: String(item.createdAt), trashed: typeof item.deletedAt === 'string' });
  return uploads;
};

/** An owner's assets with one EXIF value, in date order (that value's index), page by page. */
export const exifPages = (field: SearchableExifField, ownerId: string, value: string, options: AssetPageOptions) =>
  assetPages(partitions.exif(field, ownerId, value), options);

/**
 * The albums an asset is in, all of them: the index (gsi2) is read until it shows as many entries
 * as the asset's own count says, which album changes keep in the same transactions. A write that
 * then conditions on that count cannot miss an entry added in between.
 */
const albumsOf = async (asset: AssetRecord): Promise<string[]> => {
  for (let attempt = 0; ; attempt++) {
    const ids = await albumRepo.listIdsOfAsset(asset.id);
    if (ids.length >= asset.albumCount || attempt >= 20) return ids;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

/**
 * Runs `change` on the asset as read (`current`), and again on a fresh read whenever it answers
 * `changed` (a concurrent request changed the asset meanwhile: deleted it, put it in or out of an
 * album, a face gone), a few times, then a 409. Undefined once the asset is gone.
 */
export const withFreshAsset = async <T>(
  current: AssetWithFaces,
  change: (found: AssetWithFaces) => Promise<Outcome<'changed', T>>,
): Promise<T | undefined> => {
  let found: AssetWithFaces | undefined = current;
  for (let attempt = 0; ; attempt++) {
    if (!found) return undefined;
    const outcome = await change(found);
    if (outcome.ok) return outcome.value;
    if (attempt >= 5) throw new Conflict('The asset was changed by another request; try again');
    // A little apart, so that requests racing for one asset do not meet again at once.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * (attempt + 1)));
    found = await getWithFaces(current.asset.id);
  }
};

export interface NewUpload {
  asset: AssetRecord;
  faces: FaceRecord[];
  /** People created by this upload (their names were free when read). */
  newPeople: PersonRecord[];
  /** Existing people gaining faces. */
  existingPeople: ReadonlySet<string>;
  /** The user's quota as read, with their upload sessions' holds: the upload must still fit. */
  quota: QuotaCheck;
  /** The upload session whose file this is: its hold ends as the file is counted. */
  release?: string;
  /**
   * The hidden video asset extracted from a motion photo (the photo's `livePhotoVideoId`), when
   * it is new: its checksum is claimed and its size counted in the same transaction.
   */
  motion?: AssetRecord;
  /** Further writes of the same transaction (an upload session ends with the asset it made: one write). */
  also?: readonly Write<UploadRefusal>[];
  /** v3's metadata keys sent with the upload (POST /assets `metadata`): written with the asset, in its transaction. */
  metadata?: readonly AssetMetadataEntry[] | undefined;
}

/**
 * Why an upload was not recorded: its file is the owner's already (`duplicate`), it no longer fits
 * the quota as read (`quota`), a new person's name was taken meanwhile (`name-taken`), a person
 * gaining faces is gone (`person-gone`), or its upload session ended meanwhile (`session-ended`).
 */
export type UploadRefusal = 'duplicate' | 'quota' | 'name-taken' | 'person-gone' | 'session-ended';

/** How many of the faces each person has (faces without a person count for no one). */
const facesPerPerson = (faces: readonly FaceRecord[]): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const { personId } of faces) if (personId !== null) counts.set(personId, (counts.get(personId) ?? 0) + 1);
  return counts;
};

/** Most writes one upload transaction needs besides faces and people (checksum, asset, usage). */
// The asset, its checksum, its device entry, the usage, its timeline counters, and a motion photo's video and its checksum.
export const fixedUploadWrites = 7;

/**
 * Records an upload in one transaction: the file's checksum is claimed, the asset and its faces
 * are created, new people are created with their names claimed, known people gain their faces,
 * and the owner's usage grows (within the quota). All or nothing: a concurrent upload of the same
 * file, or a concurrent new person of the same name, refuses it (UploadRefusal).
 */
export const recordUpload = async (upload: NewUpload): Promise<Outcome<UploadRefusal>> => {
  const { faces, newPeople, existingPeople, quota, motion, release, also = [], metadata = [] } = upload;
  const asset: AssetRecord = {
    ...upload.asset,
    personIds: peopleOfFaces(faces),
    faceIds: faces.map((face) => face.id),
  };
  const faceCounts = facesPerPerson(faces);
  // Faces in the timeline: all of them, or none (an upload to the archive or the locked folder).
  const timeline = inTimeline(asset) ? 1 : 0;
  // The motion video is stored as a file of its own, so it counts as well (its asset's deletion subtracts it).
  const usage = [asset, ...(motion ? [motion] : [])].reduce<UsageChange>((total, each) => addUsageOf(total, each, 1), {
    bytes: 0,
    photos: 0,
    videos: 0,
  });
  return tryTransact<UploadRefusal>([
    assetWrites.claimChecksum(asset),
    assetWrites.create(asset),
    assetWrites.addToDevice(asset),
    ...(motion ? [assetWrites.claimChecksum(motion), assetWrites.create(motion)] : []),
    userWrites.addUsage(asset.ownerId, usage, quota, release),
    ...newPeople.flatMap((person) => [
      personWrites.claimName(person),
      personWrites.create({
        ...person,
        faceCount: faceCounts.get(person.id) ?? 0,
        timelineFaceCount: timeline * (faceCounts.get(person.id) ?? 0),
      }),
    ]),
    ...[...existingPeople].map((personId) =>
      personWrites.addFacesWhilePresent(asset.ownerId, personId, faceCounts.get(personId) ?? 0, {
        timeline: timeline * (faceCounts.get(personId) ?? 0),
      }),
    ),
    ...faces.map((face) => faceWrites.create(face, asset)),
    ...bucketWrites.move(asset.ownerId, undefined, slotOf(asset)),
    ...metadata.map((entry) => assetMetadataWrites.put(asset, entry, asset.createdAt)),
    ...also,
  ]);
};

/**
 * A user stored before usage by type was kept: their assets' bytes by type, summed over their
 * timeline (every asset, hidden and trashed ones too, as their usage counts them), then kept on the
 * user if no upload or deletion changed their usage meanwhile (else the next count tries again).
 * Once per such user; afterwards every upload and deletion keeps it.
 */
export const countUsageByType = async (user: UserRecord): Promise<{ photos: number; videos: number }> => {
  let total: UsageChange = { bytes: 0, photos: 0, videos: 0 };
  for await (const page of timelinePages(user.id, { descending: false, pageSize: 1000 })) {
    for (const asset of page) total = addUsageOf(total, asset, 1);
  }
  try {
    await transact([userWrites.countUsageByType(user.id, user.quotaUsageInBytes, total.photos, total.videos)]);
  } catch (error) {
    if (!isCancelled(error)) throw error;
  }
  return { photos: total.photos, videos: total.videos };
};

/** `total` with an asset's bytes added (`sign` 1) or taken (−1): to the photos' or the videos' share by its type. */
const addUsageOf = (total: UsageChange, asset: AssetRecord, sign: 1 | -1): UsageChange => {
  const bytes = sign * (asset.exif.fileSizeInByte ?? 0);
  return {
    bytes: total.bytes + bytes,
    photos: total.photos + (asset.type === 'IMAGE' ? bytes : 0),
    videos: total.videos + (asset.type === 'VIDEO' ? bytes : 0),
  };
};

export type AssetChanges = Partial<
  Pick<AssetRecord, 'isFavorite' | 'visibility' | 'deletedAt' | 'exif' | 'fileCreatedAt' | 'localDateTime'>
>;

/**
 * Changes an asset and, in the same transaction, the status its faces and album entries copy.
 * Past 100 writes the copies follow in further transactions; each sets absolute values, so a
 * retry after a failure converges. A new date taken (`fileCreatedAt`, `localDateTime`: a date
 * edit) moves it in the date-ordered indexes and its counters to the new month and day.
 */
export const update = async (
  asset: AssetRecord,
  faces: readonly FaceRecord[],
  changes: AssetChanges,
): Promise<Outcome<'changed', AssetRecord>> => {
  const updated: AssetRecord = { ...asset, ...changes, updatedAt: new Date().toISOString() };
  const status = statusOf(updated);
  const before = statusOf(asset);
  const statusChanged = (Object.keys(status) as (keyof AssetStatus)[]).some((key) => status[key] !== before[key]);
  // The albums it is in: their entries copy its status, and a move into the locked folder tells their users.
  const albums = statusChanged ? await albumsOf(asset) : [];
  // The timeline counters move with the asset when its state changes. Every write, whether it
  // moves them or not, lands only on the state it was read in: a write that saw no change (true
  // over true) must not land after a concurrent one that did, or the asset would leave the state
  // the counters hold it in. A concurrent change cancels this transaction: a fresh read and a retry.
  const counters = bucketWrites.move(asset.ownerId, slotOf(asset), slotOf(updated));
  // Into the locked folder: v1.100's apps (which know no locked folder) are told it is gone, as
  // for a deletion (GET /audit/deletes); one that comes out is listed again by its update. The
  // partners' and the albums' users' v3 apps get its deletion (docs/immich-compatibility.md, "The locked folder").
  const locking =
    updated.visibility === 'locked' && asset.visibility !== 'locked'
      ? [
          auditWrites.deleted(asset.ownerId, 'ASSET', asset.id, updated.updatedAt),
          deletionWrites.assetLocked(asset.ownerId, asset.id, albums),
        ]
      : [];
  // Its entry in the owner's trash moves with its `deletedAt` (pattern 88).
  const trashEntries: Write[] =
    updated.deletedAt === asset.deletedAt
      ? []
      : [
          ...(asset.deletedAt !== null ? [assetWrites.dropTrashEntry(asset, asset.deletedAt)] : []),
          ...(updated.deletedAt !== null ? [assetWrites.trashEntry(asset, updated.deletedAt)] : []),
        ];
  const copies: Write[] = [];
  let albumCount: number | undefined;
  // In or out of the timeline: its people's counts of faces in the timeline move (docs/data-model.md, "People"), and
  // each face's copy is written only while it still shows whom it showed (a face edit meanwhile: read again).
  const timelineMove = inTimeline(updated) === inTimeline(asset) ? 0 : inTimeline(updated) ? 1 : -1;
  const peopleCounts =
    timelineMove === 0
      ? []
      : [...facesPerPerson(faces)].map(([personId, count]) => personWrites.addTimelineFaces(asset.ownerId, personId, timelineMove * count));
  const firstRoom = 99 - counters.length - locking.length - trashEntries.length - peopleCounts.length;
  if (statusChanged) {
    albumCount = albums.length;
    copies.push(
      ...faces.map((face, index) =>
        setStatusWrite(
          keys.assetFace(asset.id, face.id),
          status,
          { assetId: asset.id, faceId: face.id },
          // Only in the first transaction, with the counts: a copy of a later one (an asset of some 90 faces) must not fail.
          timelineMove === 0 || index >= firstRoom ? undefined : showsCondition(face.personId),
        ),
      ),
      ...albums.map((albumId) => setStatusWrite(keys.albumAsset(albumId, asset.id), status)),
      // After the entries (in their transaction or a later one): their albums' summaries are recomputed (docs/data-model.md, "Album summaries").
      ...albums.map((albumId) => albumWrites.mark(albumId)),
    );
  }
  const [first = [], ...rest] = chunk(copies, firstRoom);
  // EXIF changes as the fields that changed, each on its own (`exif.latitude`): a concurrent write
  // of other EXIF fields (the media job's place names) is kept. A new position puts the asset on the map.
  const { exif, ...flags } = changes;
  const exifChanges = exif
    ? Object.fromEntries(
        Object.entries(exif)
          .filter(([field, value]) => asset.exif[field as keyof AssetRecord['exif']] !== value)
          .map(([field, value]) => [`exif.${field}`, value]),
      )
    : {};
  // Out of the locked folder: marked, so the partners' apps, which dropped it and its EXIF, get both again (shared/db/changes.ts).
  const unlocking = asset.visibility === 'locked' && updated.visibility !== 'locked' ? { unlockedAt: updated.updatedAt } : {};
  const fields = {
    ...flags,
    ...exifChanges,
    ...(exif ? indexKeys.geo(asset.ownerId, exif) : {}),
    ...unlocking,
    updatedAt: updated.updatedAt,
  };
  try {
    // Its faces' status copies are set from the faces read: only while its face list is still as read.
    const faceIds = statusChanged ? asset.faceIds : undefined;
    await transact([
      assetWrites.set(asset.id, fields as Partial<AssetRecord>, albumCount, asset, faceIds),
      ...counters,
      ...locking,
      ...trashEntries,
      ...peopleCounts,
      ...first,
    ]);
  } catch (error) {
    // The asset was deleted, joined or left an album, or lost a face meanwhile: read it again.
    if (isCancelled(error)) return refused('changed');
    throw error;
  }
  for (const part of rest) await transact(part);
  return doneWith(updated);
};

/**
 * The albums showing the asset as their thumbnail (whoever owns them: an album member's asset can
 * be another's album's thumbnail) show their newest other live entry instead, written in the
 * asset's deleting transaction as Immich's foreign key sets it null with the delete: no album ever
 * names a deleted asset, so the sync stream never sends an album whose thumbnail the app's tables
 * no longer hold (docs/immich-compatibility.md, "The sync stream"). Every other album is checked in
 * that transaction still not to show it (an add racing the delete sets the thumbnail of an album
 * that had none): the moves first, then the checks, as many as the first transaction holds.
 */
const thumbnailWrites = async (
  asset: AssetRecord,
  albumIds: readonly string[],
  now: string,
): Promise<{ albumId: string; write: Write }[]> => {
  const writes = await Promise.all(
    albumIds.map(async (albumId) => {
      const ownerId = await albumExitRepo.albumOwnerOf(albumId, asset.ownerId);
      const album = await albumRepo.get(ownerId, albumId);
      if (album?.albumThumbnailAssetId !== asset.id)
        return { albumId, moves: false, write: albumWrites.notShowing(ownerId, albumId, asset.id) };
      const others = (await albumRepo.listMembers(albumId)).filter((member) => member.assetId !== asset.id);
      return { albumId, moves: true, write: albumWrites.replaceThumbnail(album, asset.id, newestLiveMember(others), now) };
    }),
  );
  return [...writes.filter((entry) => entry.moves), ...writes.filter((entry) => !entry.moves)];
};

/**
 * After the delete, the albums whose check did not fit its first transaction (an asset in some 90
 * albums or more) are read again: one that took it as its thumbnail meanwhile shows another.
 */
const moveThumbnailsOff = async (asset: AssetRecord, albumIds: readonly string[]): Promise<void> => {
  for (const albumId of albumIds) {
    const album = await albumRepo.get(await albumExitRepo.albumOwnerOf(albumId, asset.ownerId), albumId);
    if (album?.albumThumbnailAssetId !== asset.id) continue;
    const live = newestLiveMember((await albumRepo.listMembers(albumId)).filter((member) => member.assetId !== asset.id));
    try {
      await writeOne(albumWrites.replaceThumbnail(album, asset.id, live, new Date().toISOString()));
    } catch (error) {
      // Changed again meanwhile: no longer this asset.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
};

/**
 * Deletes an asset for good: the asset, its checksum (so the file can be uploaded again), its
 * owner's usage, its people's face counts and the thumbnail of each album showing it in one
 * transaction; then what only pointed at it (faces, album and shared-link entries, with each
 * album's count); `ownerGone`: its owner is being purged (they leave its albums' entries' owners). Returns the albums it was in
 * (`changed` when a concurrent request deleted it or put it in an album meanwhile: read it again);
 * the originals are removed by the caller once this has succeeded.
 */
export const remove = async (
  asset: AssetRecord,
  faces: readonly FaceRecord[],
  options: { ownerGone?: boolean } = {},
): Promise<Outcome<'changed', { albums: string[] }>> => {
  const [albums, links] = await Promise.all([albumsOf(asset), sharedLinkRepo.listLinkIdsOfAsset(asset.id)]);
  // The users of its albums, whose album sync markers its transaction moves (shared/db/album-sync.repository.ts).
  const albumUsers = (await Promise.all(albums.map((albumId) => albumSyncRepo.usersOfAlbum(albumId, asset.ownerId)))).flat();
  // The delete and the audit come before them in the first transaction.
  const thumbnails = await thumbnailWrites(asset, albums, new Date().toISOString());
  const unchecked = thumbnails.slice(98).map((entry) => entry.albumId);
  const entryDeletions = albums.map((albumId) => deletionWrites.albumAsset(albumId, asset.id));
  const writes: Write[] = [
    auditWrites.deleted(asset.ownerId, 'ASSET', asset.id),
    // Its faces (deleted after it, with their people's counts here) as read: a face recognised meanwhile cancels it.
    assetWrites.delete(asset.id, albums.length, asset, asset.faceIds),
    // In the first transaction with the delete: a thumbnail changed meanwhile cancels it (read again).
    ...thumbnails.slice(0, 98).map((entry) => entry.write),
    deletionWrites.asset(asset.ownerId, asset.id),
    // Its albums' users learn that it left them (its faces go with it, as Immich's sync sends them).
    ...entryDeletions,
    ...bucketWrites.move(asset.ownerId, slotOf(asset), undefined),
    assetWrites.releaseChecksum(asset),
    assetWrites.removeFromDevice(asset),
    ...(asset.deletedAt !== null ? [assetWrites.dropTrashEntry(asset, asset.deletedAt)] : []),
    userWrites.freeUsage(asset.ownerId, addUsageOf({ bytes: 0, photos: 0, videos: 0 }, asset, -1)),
    // Its status as read is a condition of the asset's delete (its counted state), so its faces in the timeline go by it.
    ...[...facesPerPerson(faces)].map(([personId, count]) =>
      personWrites.addFaces(asset.ownerId, personId, -count, { timeline: inTimeline(asset) ? -count : 0 }),
    ),
    // Its albums' change markers, after their entries' deletions (docs/data-model.md, "Album summaries").
    ...albums.map((albumId) => albumWrites.mark(albumId, entryDeletions)),
  ];
  // And their users' album sync markers, made last: in its one transaction, or, when its writes
  // take more than one (an asset in very many albums), moved before the first, so no deletion of
  // an entry is ever seen without them.
  const markers = albumSyncRepo.markerWrites(albumUsers);
  if (writes.length + markers.length <= 100) writes.push(...markers);
  else await albumSyncRepo.moveMarkers(albumUsers);
  const [first = [], ...rest] = chunk(writes, 100);
  try {
    await transact(first);
  } catch (error) {
    // Deleted by a concurrent request, or put in an album meanwhile: read it again.
    if (isCancelled(error)) return refused('changed');
    throw error;
  }
  for (const part of rest) await transact(part);
  await moveThumbnailsOff(asset, unchecked);
  // What only pointed at the asset goes after it: idempotent, retried by BatchWriteItem.
  await batchDelete(
    [
      ...faces.map((face) => keys.assetFace(asset.id, face.id)),
      ...albums.map((albumId) => keys.albumAsset(albumId, asset.id)),
      ...links.map((linkId) => keys.sharedLinkAsset(linkId, asset.id)),
    ],
    'with-parent',
  );
  // And again once the entries are gone: a summary computed in between counted them. A purged
  // owner's asset: they leave the album's entries' owners (every asset of theirs goes).
  const gone = options.ownerGone ? { ownerGone: asset.ownerId } : {};
  for (const part of chunk(albums, 100)) await transact(part.map((albumId) => albumWrites.mark(albumId, [], gone)));
  // Likes and comments on it go too (Immich's activity rows cascade with their asset).
  await activityRepo.deleteAssetActivities(asset.id);
  return doneWith({ albums });
};

/**
 * Records an asset's place names (reverse geocoding: docs/places.md) with its place facet counters
 * moved in the same transaction, on condition that its position, place names and timeline state
 * are still those read: a concurrent change is `changed` (read it again).
 */
export const recordPlaces = async (
  asset: AssetRecord,
  places: Pick<AssetRecord['exif'], 'city' | 'state' | 'country'>,
  geocoded: boolean,
): Promise<Outcome<'changed', AssetRecord>> => {
  const updatedAt = new Date().toISOString();
  const updated: AssetRecord = { ...asset, exif: { ...asset.exif, ...places }, geocoded, updatedAt };
  try {
    await transact([
      assetWrites.setPlaces(asset, places, geocoded, updatedAt),
      ...bucketWrites.move(asset.ownerId, slotOf(asset), slotOf(updated)),
    ]);
  } catch (error) {
    if (isCancelled(error)) return refused('changed');
    throw error;
  }
  return doneWith(updated);
};

/** Puts an asset stored before the map index in it (its `ix_geo`); nothing when it is gone. */
export const indexAssetPosition = async (asset: AssetRecord): Promise<void> => {
  try {
    await writeOne(assetWrites.indexPosition(asset));
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
};

/** What media generation records on an asset: its previews' storage keys and its thumbhash. */
export type AssetMedia = Pick<AssetRecord, 'resizePath' | 'thumbhash'> & { webpPath: string | null };

/**
 * Records an asset's previews, if the asset still exists (one deleted meanwhile is `gone`: the
 * caller removes the files it made). Sets absolute values, so a repeat changes nothing.
 */
export const recordMedia = async (assetId: string, media: AssetMedia): Promise<Outcome<'gone'>> => {
  try {
    // Immich's thumbnail jobs save the asset, so its updatedAt changes: a delta sync then brings the thumbhash.
    await writeOne(assetWrites.set(assetId, { ...media, updatedAt: new Date().toISOString() }));
    return done();
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return refused('gone');
    throw error;
  }
};

/**
 * Records a video's encoded version (its key in the store), or removes it with none: `gone` when
 * the asset was deleted meanwhile (the caller removes the file it made).
 */
export const recordEncodedVideo = async (assetId: string, key: string | undefined): Promise<Outcome<'gone'>> =>
  (await writeIfPresent(assetWrites.setEncodedVideo(assetId, key))) ? done() : refused('gone');

/** Records an asset's CLIP embedding made under `model` (the media function's clip step: docs/search.md); `gone` when it is gone. */
export const recordSmartSearch = async (assetId: string, model: string): Promise<Outcome<'gone'>> =>
  (await writeIfPresent(assetWrites.setSmartSearch(assetId, model, new Date().toISOString()))) ? done() : refused('gone');

/**
 * Sets an asset's photo edits (v3's editor) and drops its edited files' keys until the media
 * function makes them for these edits (their answers fall back to the unedited files meanwhile).
 * A new updatedAt, as Immich's edit saves the asset: synced apps learn of it.
 */
export const setPhotoEdits = async (asset: AssetRecord, edits: PhotoEdit[]): Promise<AssetRecord> => {
  const fields = {
    edits,
    editedFullsizePath: null,
    editedPreviewPath: null,
    editedThumbnailPath: null,
    updatedAt: new Date().toISOString(),
  };
  // The sync stream's copy (AssetEditsV1): the edits as they are now, and a deletion of each they replace.
  const copy =
    edits.length > 0
      ? [putWrite({ ...keys.assetEdits(asset.id), type: 'assetEdits', ownerId: asset.ownerId, assetId: asset.id, edits })]
      : asset.edits.length > 0
        ? [deleteWrite(keys.assetEdits(asset.id), { sync: 'recorded' })]
        : [];
  await transact([
    assetWrites.set(asset.id, fields),
    ...copy,
    ...asset.edits.map((replaced) => deletionWrites.assetEdit(asset.ownerId, replaced.id)),
  ]);
  return { ...asset, ...fields };
};

/** An asset deleted for good: its edits' copy goes, each edit's deletion recorded for the sync stream. */
export const dropPhotoEdits = async (asset: AssetRecord): Promise<void> => {
  if (asset.edits.length === 0) return;
  await transact([
    deleteWrite(keys.assetEdits(asset.id), { sync: 'recorded' }),
    ...asset.edits.map((edit) => deletionWrites.assetEdit(asset.ownerId, edit.id)),
  ]);
};

export type EditedMedia = Pick<AssetRecord, 'editedFullsizePath' | 'editedPreviewPath' | 'editedThumbnailPath' | 'thumbhash'>;

/**
 * Records the files the media function made for these edits, with their thumbhash (Immich shows
 * an edited asset's): only while the asset still has exactly these edits, so a job for edits since
 * replaced never records its files. `changed` when they changed or the asset is gone.
 */
export const recordEditedMedia = async (assetId: string, edits: readonly PhotoEdit[], media: EditedMedia): Promise<Outcome<'changed'>> =>
  (await writeIfPresent(assetWrites.setIfEdits(assetId, edits, { ...media, updatedAt: new Date().toISOString() })))
    ? done()
    : refused('changed');

/** The entries of the assets one device of an owner uploaded: one Query of its partition. */
export const listDeviceAssets = async (
  ownerId: string,
  deviceId: string,
): Promise<{ assetId: string; deviceAssetId: string; isVisible: boolean }[]> =>
  (await queryAll(partitions.deviceAssets(ownerId, deviceId), { attributes: ['assetId', 'deviceAssetId', 'isVisible'] })).map((item) => ({
    assetId: String(item.assetId),
    deviceAssetId: String(item.deviceAssetId),
    isVisible: item.isVisible !== false,
  }));

/** An asset's entry in its owner's trash: the asset, and since when it is there. */
export interface TrashEntry {
  assetId: string;
  deletedAt: string;
}

/**
 * An owner's assets in the trash since `cutoff` or before, longest there first, at most `limit`,
 * and only those after the entry `after` (one a run has left where it is): one Query of their
 * trash entries (pattern 88).
 */
export const listTrashedBefore = async (ownerId: string, cutoff: string, limit: number, after?: TrashEntry): Promise<TrashEntry[]> => {
  for await (const page of queryPages(partitions.trash(ownerId), {
    // The first sort key after that entry's.
    ...(after ? { from: `${keys.trashEntry(ownerId, after.deletedAt, after.assetId).sk}\u0000` } : {}),
    to: `${cutoff}#\uffff`,
    pageSize: limit,
    attributes: ['sk', 'assetId'],
  }))
    return page.map((item) => ({ assetId: String(item.assetId), deletedAt: String(item.sk).slice(0, -`#${String(item.assetId)}`.length) }));
  return [];
};

/** A trash entry whose asset is no longer in the trash at that time (nothing, if it is gone already). */
export const dropTrashEntry = async (ownerId: string, assetId: string, deletedAt: string): Promise<void> => {
  await writeOne(assetWrites.dropTrashEntry({ id: assetId, ownerId }, deletedAt));
};

/**
 * Gives a trashed asset stored before trash entries its entry, only while it is still trashed
 * since then (a restore or deletion meanwhile cancels it: nothing to add).
 */
export const addTrashEntry = async (asset: Pick<AssetRecord, 'id' | 'ownerId' | 'deletedAt'>): Promise<void> => {
  if (asset.deletedAt === null) return;
  await transact([
    checkWrite(keys.asset(asset.id), { condition: 'deletedAt = :deletedAt', values: { ':deletedAt': asset.deletedAt } }),
    assetWrites.trashEntry(asset, asset.deletedAt),
  ]).catch((error: unknown) => {
    if (!isCancelled(error)) throw error;
  });
};

/** Marks an owner's earlier trash as given its entries (`addTrashEntry`). */
export const markTrashIndexed = async (ownerId: string): Promise<void> => {
  await writeIfPresent(
    updateWrite(keys.user(ownerId), 'SET trashIndexed = :true', { condition: 'present', sync: 'unsent', values: { ':true': true } }),
  );
};

/** When the owner's oldest asset was taken (one item of the timeline), or undefined for none. */
export const oldestTakenAt = async (ownerId: string): Promise<string | undefined> => {
  for await (const page of timelinePages(ownerId, { descending: false, pageSize: 1 })) return page[0]?.fileCreatedAt;
  return undefined;
};

/** The owner's assets taken within [from, to] (a key range of the timeline). */
export const assetsTakenBetween = async (ownerId: string, from: string, to: string): Promise<AssetRecord[]> => {
  const assets: AssetRecord[] = [];
  for await (const page of timelinePages(ownerId, { descending: false, pageSize: 100, takenAfter: from, takenBefore: to }))
    assets.push(...page);
  return assets;
};
