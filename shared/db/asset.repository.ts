import type { FaceRegion } from '../media/faces.ts';
import type { ExifInfo } from '../media/metadata.ts';
import { batchGet } from './batch.ts';
import { tableName } from './client.ts';
import { indexKeys, keys } from './keys.ts';
import { personItem, personNameItem, type PersonRecord } from './person.repository.ts';
import { queryPrefix } from './query.ts';
import { transact, type Write } from './transact.ts';

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
}

/** A face on an asset (item type `face`): a named region of the file, attached to a person. */
export interface FaceRecord extends Omit<FaceRegion, 'name'> {
  id: string;
  assetId: string;
  personId: string;
  ownerId: string;
  /** Position among the asset's regions, as the file lists them: faces are returned in this order. */
  index: number;
}

const strip = <T>(item: Record<string, unknown>): T => {
  const { pk: _pk, sk: _sk, type: _type, gsi1pk: _g1, gsi1sk: _g1s, gsi2pk: _g2, gsi2sk: _g2s, ...rest } = item;
  return rest as T;
};

/** The item's `type` is the entity (`asset`); the asset's own type is stored as `assetType`. */
export const fromAssetItem = (item: Record<string, unknown>): AssetRecord => {
  const { assetType, ...rest } = strip<Record<string, unknown>>(item);
  return { ...rest, type: assetType } as AssetRecord;
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
  const { asset, faces, newPeople, existingPeople, quota } = upload;
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
          Item: { ...asset, ...keys.asset(asset.id), ...indexKeys.timeline(asset.ownerId, asset.fileCreatedAt, asset.id), type: 'asset', assetType: asset.type },
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
            Item: { ...keys.assetFace(asset.id, face.id), ...indexKeys.personFaces(face.personId, asset.fileCreatedAt, asset.id, face.id), type: 'face', ...face },
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
