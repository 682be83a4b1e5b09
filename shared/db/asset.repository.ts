import type { FaceRegion } from '../media/faces.ts';
import type { ExifInfo } from '../media/metadata.ts';
import { batchDelete, batchGet } from './batch.ts';
import { tableName } from './client.ts';
import { indexKeys, keys, type Key } from './keys.ts';
import { personItem, personNameItem, type PersonRecord } from './person.repository.ts';
import { queryIndex, queryPrefix } from './query.ts';
import { transact, type Write } from './transact.ts';
import { chunk, strip } from './items.ts';

export type AssetType = 'IMAGE' | 'VIDEO' | 'AUDIO' | 'OTHER';

/** An asset (item type `asset`) with its EXIF, as Immich's `assets` + `exif` rows. */
export interface AssetRecord {
  id: string;
  ownerId: string;
  libraryId: string;
  deviceAssetId: string;
  deviceId: string;
  type: AssetType;
  originalPath: string;
  originalFileName: string;
  sidecarPath: string | null;
  /** SHA-1 of the file, hex. */
  checksum: string;
  fileCreatedAt: string;
  fileModifiedAt: string;
  localDateTime: string;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  isFavorite: boolean;
  isArchived: boolean;
  isVisible: boolean;
  isOffline: boolean;
  isReadOnly: boolean;
  isExternal: boolean;
  duration: string | null;
  livePhotoVideoId: string | null;
  thumbhash: string | null;
  resizePath: string | null;
  exif: ExifInfo;
  /** The people whose faces are on it, and those faces (set at upload; search reads them). */
  personIds: string[];
  faceIds: string[];
  /** How many albums hold it (GET /assets isNotInAlbum). Kept by album changes. */
  albumCount: number;
}

/** The EXIF values GET /assets finds through an index (table.ts), each sparse and per owner. */
export const searchIndexes = ['make', 'model', 'lensModel', 'city', 'state', 'country'] as const;
export type SearchIndex = (typeof searchIndexes)[number];

/** An index's partition value: `<ownerId>#<value>`, exact and case-sensitive as Immich's filters. */
export const searchKey = (ownerId: string, value: string): string => `${ownerId}#${value}`;

const searchAttributes = (asset: AssetRecord): Record<string, string> =>
  Object.fromEntries(
    searchIndexes.flatMap((field) => {
      const value = asset.exif[field];
      return typeof value === 'string' && value !== '' ? [[`ix_${field}`, searchKey(asset.ownerId, value)]] : [];
    }),
  );

/** The stored form of an asset: its keys, its timeline and search index keys. */
export const assetItem = (asset: AssetRecord) => ({
  ...asset,
  ...keys.asset(asset.id),
  ...indexKeys.timeline(asset.ownerId, asset.fileCreatedAt, asset.id),
  ...searchAttributes(asset),
  type: 'asset',
  assetType: asset.type,
});

/** A face on an asset (item type `face`): a named region of the file, attached to a person. */
export interface FaceRecord extends Omit<FaceRegion, 'name'> {
  id: string;
  assetId: string;
  personId: string;
  ownerId: string;
  /** Position among the asset's regions, as the file lists them: faces are returned in this order. */
  index: number;
}

/**
 * What faces and album entries copy from their asset, so that a person's or an album's list can
 * be filtered (trashed, archived, hidden) and ordered without reading every asset. Every change
 * of these on an asset rewrites the copies (`updateAsset`).
 */
export interface AssetStatus {
  fileCreatedAt: string;
  deletedAt: string | null;
  isArchived: boolean;
  isVisible: boolean;
}

export const statusOf = (asset: AssetRecord): AssetStatus => ({
  fileCreatedAt: asset.fileCreatedAt,
  deletedAt: asset.deletedAt,
  isArchived: asset.isArchived,
  isVisible: asset.isVisible,
});

/** The stored form of a face: in its asset's partition, on its person's gsi2 list, with the asset's status. */
export const faceItem = (face: FaceRecord, asset: AssetRecord) => ({
  ...keys.assetFace(asset.id, face.id),
  ...indexKeys.personFaces(face.personId, asset.fileCreatedAt, asset.id, face.id),
  type: 'face',
  ...face,
  ...statusOf(asset),
});

/** The item's `type` is the entity (`asset`); the asset's own type is stored as `assetType`. */
export const fromAssetItem = (item: Record<string, unknown>): AssetRecord => {
  const { assetType, ...rest } = strip<Record<string, unknown>>(item);
  for (const field of searchIndexes) delete rest[`ix_${field}`];
  return { personIds: [], faceIds: [], albumCount: 0, ...rest, type: assetType } as unknown as AssetRecord;
};

/** An asset and its faces: one Query on the asset's partition. */
export const getAssetWithFaces = async (assetId: string): Promise<{ asset: AssetRecord; faces: FaceRecord[] } | undefined> => {
  const items = await queryPrefix<Record<string, unknown>>(keys.asset(assetId).pk, undefined);
  const asset = items.find((item) => item.type === 'asset');
  if (!asset) return undefined;
  return { asset: fromAssetItem(asset), faces: items
      .filter((item) => item.type === 'face')
      .map((item) => strip<FaceRecord>(item))
      .sort((a, b) => (a.index ?? 0) - (b.index ?? 0)),
  };
};

/** The owner's assets with these checksums (hex): checksum → assetId. */
export const findByChecksums = async (ownerId: string, checksums: readonly string[]): Promise<Map<string, string>> => {
  const unique = [...new Set(checksums)];
  const guards = await batchGet<{ checksum: string; assetId: string }>(unique.map((checksum) => keys.checksum(ownerId, checksum)));
  return new Map(guards.map((guard) => [guard.checksum, guard.assetId]));
};

export class DuplicateChecksumError extends Error {}
export class PersonNameTakenError extends Error {}
export class QuotaExceededError extends Error {}

export interface NewUpload {
  asset: AssetRecord;
  faces: FaceRecord[];
  /** People created by this upload (their names were free when read). */
  newPeople: PersonRecord[];
  /** Existing people gaining faces: personId → number of new faces. */
  existingPeople: Map<string, number>;
  /** The user's quota when it has one; the upload's size is added to their usage. */
  quota: { sizeInBytes: number | null; usageInBytes: number };
}

const absent = 'attribute_not_exists(pk)';

/**
 * Records an upload in one transaction: the asset, its checksum guard, its faces, new people
 * with their name guards, face counts of known people, and the owner's usage. All or nothing:
 * a concurrent upload of the same file, or a concurrent new person of the same name, cancels it.
 */
export const recordUpload = async (upload: NewUpload): Promise<void> => {
  const { faces, newPeople, existingPeople, quota } = upload;
  const asset: AssetRecord = { ...upload.asset, personIds: [...new Set(faces.map((face) => face.personId))], faceIds: faces.map((face) => face.id) };
  const faceCounts = new Map<string, number>();
  for (const face of faces) faceCounts.set(face.personId, (faceCounts.get(face.personId) ?? 0) + 1);
  const usage: Write = {
    item: {
      Update: {
        TableName: tableName,
        Key: keys.user(asset.ownerId),
        UpdateExpression: 'ADD quotaUsageInBytes :size',
        // With a quota: unchanged since read and still room for this file.
        ConditionExpression:
          quota.sizeInBytes === null
            ? 'attribute_exists(pk) AND (attribute_not_exists(quotaSizeInBytes) OR attribute_type(quotaSizeInBytes, :null))'
            : 'quotaSizeInBytes = :quota AND quotaUsageInBytes <= :maxUsage',
        ExpressionAttributeValues:
          quota.sizeInBytes === null
            ? { ':size': asset.exif.fileSizeInByte ?? 0, ':null': 'NULL' }
            : { ':size': asset.exif.fileSizeInByte ?? 0, ':quota': quota.sizeInBytes, ':maxUsage': quota.sizeInBytes - (asset.exif.fileSizeInByte ?? 0) },
      },
    },
    onConditionFailed: () => new QuotaExceededError(),
  };
  const writes: Write[] = [
    {
      item: { Put: { TableName: tableName, Item: { ...keys.checksum(asset.ownerId, asset.checksum), type: 'checksum', checksum: asset.checksum, assetId: asset.id }, ConditionExpression: absent } },
      onConditionFailed: () => new DuplicateChecksumError(),
    },
    {
      item: {
        Put: {
          TableName: tableName,
          Item: assetItem(asset),
          ConditionExpression: absent,
        },
      },
    },
    usage,
    ...newPeople.flatMap((person): Write[] => [
      {
        item: { Put: { TableName: tableName, Item: personNameItem(person.ownerId, person.name, person.id), ConditionExpression: absent } },
        onConditionFailed: () => new PersonNameTakenError(),
      },
      { item: { Put: { TableName: tableName, Item: personItem({ ...person, faceCount: faceCounts.get(person.id) ?? 0 }), ConditionExpression: absent } } },
    ]),
    ...[...existingPeople.keys()].map(
      (personId): Write => ({
        item: {
          Update: {
            TableName: tableName,
            Key: keys.person(asset.ownerId, personId),
            UpdateExpression: 'ADD faceCount :n',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':n': faceCounts.get(personId) ?? 0 },
          },
        },
        onConditionFailed: () => new PersonNameTakenError(),
      }),
    ),
    ...faces.map(
      (face): Write => ({
        item: {
          Put: {
            TableName: tableName,
            Item: faceItem(face, asset),
            ConditionExpression: absent,
          },
        },
      }),
    ),
  ];
  await transact(writes);
};

/** Most items one upload transaction may need besides faces and people (checksum, asset, usage). */
export const fixedUploadWrites = 3;

/** Assets by id (BatchGetItem, 100 a call), in the order asked, missing ones left out. */
export const getAssets = async (assetIds: readonly string[]): Promise<AssetRecord[]> =>
  (await batchGet<Record<string, unknown>>([...new Set(assetIds)].map((id) => keys.asset(id)))).map(fromAssetItem);

/** The albums and shared links an asset is in (gsi2). */
const dependentsOf = async (assetId: string) => {
  const [albums, links] = await Promise.all([
    queryIndex<Record<string, unknown>>('gsi2', indexKeys.assetAlbums(assetId, '').gsi2pk),
    queryIndex<Record<string, unknown>>('gsi2', indexKeys.assetLinks(assetId, '').gsi2pk),
  ]);
  return { albums: albums.map((item) => String(item.albumId)), links: links.map((item) => String(item.linkId)) };
};

export type AssetChanges = Partial<Pick<AssetRecord, 'isFavorite' | 'isArchived' | 'deletedAt' | 'exif'>>;

/**
 * Changes an asset and, in the same transaction, the status its faces and album entries copy.
 * Past 100 writes the copies follow in further transactions; each sets absolute values, so a
 * retry after a failure converges.
 */
export const updateAsset = async (asset: AssetRecord, faces: readonly FaceRecord[], changes: AssetChanges): Promise<AssetRecord> => {
  const updated: AssetRecord = { ...asset, ...changes, updatedAt: new Date().toISOString() };
  const status = statusOf(updated);
  const fields = Object.keys({ ...changes, updatedAt: true }) as (keyof AssetRecord)[];
  const assetWrite: Write = {
    item: {
      Update: {
        TableName: tableName,
        Key: keys.asset(asset.id),
        UpdateExpression: `SET ${fields.map((field) => `#${field} = :${field}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(fields.map((field) => [`#${field}`, field])),
        ExpressionAttributeValues: Object.fromEntries(fields.map((field) => [`:${field}`, updated[field]])),
      },
    },
  };
  const statusChanged = (Object.keys(status) as (keyof AssetStatus)[]).some((key) => status[key] !== statusOf(asset)[key]);
  const copies: Write[] = [];
  if (statusChanged) {
    const { albums } = await dependentsOf(asset.id);
    const setStatus = (key: Key): Write => ({
      item: {
        Update: {
          TableName: tableName,
          Key: key,
          UpdateExpression: 'SET deletedAt = :deletedAt, isArchived = :isArchived, isVisible = :isVisible',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':deletedAt': status.deletedAt, ':isArchived': status.isArchived, ':isVisible': status.isVisible },
        },
      },
    });
    copies.push(...faces.map((face) => setStatus(keys.assetFace(asset.id, face.id))), ...albums.map((albumId) => setStatus(keys.albumAsset(albumId, asset.id))));
  }
  const [first = [], ...rest] = chunk(copies, 99);
  await transact([assetWrite, ...first]);
  for (const part of rest) await transact(part);
  return updated;
};

/**
 * Deletes an asset for good: the asset, its checksum (so the file can be uploaded again), its
 * faces (and their people's counts), its album and shared-link entries, and the owner's usage.
 * Returns the albums it was in; the originals are removed by the caller once this has succeeded.
 */
export const deleteAsset = async (asset: AssetRecord, faces: readonly FaceRecord[]): Promise<{ albums: string[] }> => {
  const { albums, links } = await dependentsOf(asset.id);
  const perPerson = new Map<string, number>();
  for (const face of faces) perPerson.set(face.personId, (perPerson.get(face.personId) ?? 0) + 1);
  const writes: Write[] = [
    { item: { Delete: { TableName: tableName, Key: keys.asset(asset.id), ConditionExpression: 'attribute_exists(pk)' } } },
    { item: { Delete: { TableName: tableName, Key: keys.checksum(asset.ownerId, asset.checksum) } } },
    {
      item: {
        Update: {
          TableName: tableName,
          Key: keys.user(asset.ownerId),
          UpdateExpression: 'ADD quotaUsageInBytes :size',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':size': -(asset.exif.fileSizeInByte ?? 0) },
        },
      },
    },
    ...[...perPerson].map(
      ([personId, count]): Write => ({
        item: { Update: { TableName: tableName, Key: keys.person(asset.ownerId, personId), UpdateExpression: 'ADD faceCount :n', ExpressionAttributeValues: { ':n': -count } } },
      }),
    ),
  ];
  const [first = [], ...rest] = chunk(writes, 100);
  await transact(first);
  for (const part of rest) await transact(part);
  // What only pointed at the asset goes after it: idempotent, retried by BatchWriteItem.
  await batchDelete([
    ...faces.map((face) => keys.assetFace(asset.id, face.id)),
    ...albums.map((albumId) => keys.albumAsset(albumId, asset.id)),
    ...links.map((linkId) => keys.sharedLinkAsset(linkId, asset.id)),
  ]);
  return { albums };
};
