import * as v from 'valibot';
import {
  type AssetRecord,
  AssetRecordSchema,
  type AssetStatus,
  hiddenInStack,
  PhotoEditSchema,
  searchableExifFields,
} from '../../model/asset.ts';
import { id } from '../../model/fields.ts';
import { codec } from '../codec.ts';
import * as indexKeys from '../index-keys.ts';
import * as keys from '../item-keys.ts';
import type { Key } from '../keys.ts';
import { setFields, updateWrite, type Write } from '../transact.ts';
import { upgradeAsset } from './legacy.ts';

/** The item's `type` is the entity (`asset`); the asset's own type is stored as `assetType`. */
export const assetCodec = codec('asset', AssetRecordSchema, { assetType: 'type' }, upgradeAsset);

/** The stored form of an asset: its keys, its timeline and EXIF index keys. */
export const assetItem = (asset: AssetRecord) => ({
  ...asset,
  ...keys.asset(asset.id),
  ...indexKeys.timeline(asset.ownerId, asset.fileCreatedAt, asset.id),
  ...indexKeys.assetsByUpdate(asset.ownerId, asset.updatedAt, asset.id),
  ...indexKeys.exif(asset.ownerId, asset.exif, searchableExifFields),
  ...indexKeys.geo(asset.ownerId, asset.exif),
  type: 'asset',
  assetType: asset.type,
});

/** An owner's file, by SHA-1: the guard that makes a file one asset per owner. */
export const checksumItem = (ownerId: string, checksum: string, assetId: string) => ({
  ...keys.checksum(ownerId, checksum),
  type: 'checksum',
  checksum,
  assetId,
});

// An item written before albumCount existed has none: it is in no album.
const inAlbums = '(albumCount = :albums OR (attribute_not_exists(albumCount) AND :albums = :none))';

/**
 * What an asset's timeline counters depend on: its state, its local date (the month and day it
 * counts in, which a date edit moves), and its place, whose facet counter a trash or a lock moves
 * (the media job names places concurrently with such writes: docs/places.md).
 */
export type CountedState = Pick<AssetRecord, 'id' | 'isFavorite' | 'visibility' | 'deletedAt' | 'stack' | 'localDateTime'> & {
  exif: Pick<AssetRecord['exif'], 'city' | 'state' | 'country'>;
};

export const placeFields = ['city', 'state', 'country'] as const;

/** These EXIF fields are still as read (each equal, or null or absent when read so). */
export const exifAsRead = <F extends keyof AssetRecord['exif']>(exif: Pick<AssetRecord['exif'], F>, fields: readonly F[]) => {
  const parts: string[] = [];
  const names: Record<string, string> = { '#exif': 'exif' };
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    const value = exif[field];
    names[`#${field}`] = field;
    if (value === null || value === undefined) {
      parts.push(`(attribute_not_exists(#exif.#${field}) OR attribute_type(#exif.#${field}, :exifNull))`);
      values[':exifNull'] = 'NULL';
    } else {
      parts.push(`#exif.#${field} = :was_${field}`);
      values[`:was_${field}`] = value;
    }
  }
  return { parts, names, values };
};

/**
 * The item still has this visibility: its `visibility`, or for an item written before it
 * (docs/data-model.md, "Earlier shapes") the flags it is read from (shared/db/items/legacy.ts).
 */
const legacyFlags: Record<AssetRecord['visibility'], string | undefined> = {
  timeline: 'isVisible = :true AND isArchived = :false',
  archive: 'isVisible = :true AND isArchived = :true',
  hidden: 'isVisible = :false',
  locked: undefined,
};
const visibilityIs = (visibility: AssetRecord['visibility']) => {
  const legacy = legacyFlags[visibility];
  return {
    expression: legacy
      ? `(#wasVisibility = :wasVisibility OR (attribute_not_exists(#wasVisibility) AND ${legacy}))`
      : '#wasVisibility = :wasVisibility',
    // Only the values the expression names: DynamoDB refuses an unused one.
    values: {
      ':wasVisibility': visibility,
      ...(legacy?.includes(':true') ? { ':true': true } : {}),
      ...(legacy?.includes(':false') ? { ':false': false } : {}),
    },
  };
};

/**
 * A write's condition that the asset exists and still has the status it was read with (where it
 * shows, whether trashed): a write that moves its faces' people moves their counts of faces in
 * the timeline by that status (docs/data-model.md, "People").
 */
export const statusAsRead = (asset: Pick<AssetRecord, 'visibility' | 'deletedAt'>) => {
  const visibility = visibilityIs(asset.visibility);
  const deleted =
    asset.deletedAt === null
      ? { expression: '(attribute_not_exists(#wasDeleted) OR attribute_type(#wasDeleted, :nullType))', values: { ':nullType': 'NULL' } }
      : { expression: '#wasDeleted = :wasDeleted', values: { ':wasDeleted': asset.deletedAt } };
  return {
    expression: `attribute_exists(pk) AND ${visibility.expression} AND ${deleted.expression}`,
    names: { '#wasVisibility': 'visibility', '#wasDeleted': 'deletedAt' },
    values: { ...visibility.values, ...deleted.values },
  };
};

/**
 * The asset exists, is in `albumCount` albums, is still in the `counted` state, and (with
 * `stackWas`) still in the stack it was read in, or in none (each when given).
 */
export const conditionOn = (albumCount: number | undefined, counted: CountedState | undefined, stackWas?: string | null) => {
  const parts = ['attribute_exists(pk)'];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (albumCount !== undefined) {
    parts.push(inAlbums);
    Object.assign(values, { ':albums': albumCount, ':none': 0 });
  }
  if (counted) {
    const visibility = visibilityIs(counted.visibility);
    parts.push('#wasFavorite = :wasFavorite', visibility.expression, '#wasLocal = :wasLocal');
    Object.assign(names, {
      '#wasFavorite': 'isFavorite',
      '#wasVisibility': 'visibility',
      '#wasDeleted': 'deletedAt',
      '#wasLocal': 'localDateTime',
    });
    Object.assign(values, { ':wasFavorite': counted.isFavorite, ...visibility.values, ':wasLocal': counted.localDateTime });
    if (counted.deletedAt === null) {
      parts.push('(attribute_not_exists(#wasDeleted) OR attribute_type(#wasDeleted, :nullType))');
      values[':nullType'] = 'NULL';
    } else {
      parts.push('#wasDeleted = :wasDeleted');
      values[':wasDeleted'] = counted.deletedAt;
    }
    // Whether a stack hides it (`stackHidden`, written with its stack; absent: not hidden).
    const hidden = hiddenInStack(counted);
    parts.push(
      hidden ? '#wasStackHidden = :wasStackHidden' : '(attribute_not_exists(#wasStackHidden) OR #wasStackHidden = :wasStackHidden)',
    );
    names['#wasStackHidden'] = 'stackHidden';
    values[':wasStackHidden'] = hidden;
    const places = exifAsRead(counted.exif, placeFields);
    parts.push(...places.parts);
    Object.assign(names, places.names);
    Object.assign(values, places.values);
  }
  if (stackWas !== undefined) {
    names['#wasStack'] = 'stack';
    if (stackWas === null) {
      parts.push('(attribute_not_exists(#wasStack) OR attribute_type(#wasStack, :stackNullType))');
      values[':stackNullType'] = 'NULL';
    } else {
      parts.push('#wasStack.#wasStackId = :wasStackId');
      names['#wasStackId'] = 'id';
      values[':wasStackId'] = stackWas;
    }
  }
  return {
    expression: parts.join(' AND '),
    ...(Object.keys(names).length > 0 ? { names } : {}),
    ...(Object.keys(values).length > 0 ? { values } : {}),
  };
};

/** A condition, and the asset's `faceIds` still the list given (absent or empty when it is empty). */
export const withFaces = (
  condition: ReturnType<typeof conditionOn>,
  faceIds: readonly string[] | undefined,
): ReturnType<typeof conditionOn> => {
  if (faceIds === undefined) return condition;
  const names = { ...condition.names, '#faceIdsWere': 'faceIds' };
  return faceIds.length === 0
    ? {
        expression: `${condition.expression} AND (attribute_not_exists(#faceIdsWere) OR size(#faceIdsWere) = :noFaces)`,
        names,
        values: { ...condition.values, ':noFaces': 0 },
      }
    : {
        expression: `${condition.expression} AND #faceIdsWere = :faceIdsWere`,
        names,
        values: { ...condition.values, ':faceIdsWere': [...faceIds] },
      };
};

/**
 * An update of an existing asset's fields, on a condition. A new updatedAt moves the asset in the
 * owner's by-update index (the mobile app's delta sync); a new stack sets whether it hides the
 * asset (what the counters' condition reads).
 */
export const setWhere = (
  assetId: string,
  fields: Partial<AssetRecord>,
  condition: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> },
  remove: readonly string[] = [],
): Write => {
  const { expression, names, values } = setFields(
    {
      ...fields,
      ...(fields.updatedAt ? { gsi2sk: indexKeys.assetsByUpdate('', fields.updatedAt, assetId).gsi2sk } : {}),
      // A new date taken moves it in every index in date order (the timeline, EXIF values, the map).
      ...(fields.fileCreatedAt ? { gsi1sk: indexKeys.timeline('', fields.fileCreatedAt, assetId).gsi1sk } : {}),
      ...(fields.stack !== undefined ? { stackHidden: hiddenInStack({ id: assetId, stack: fields.stack }) } : {}),
    },
    remove,
  );
  return updateWrite(keys.asset(assetId), expression, {
    condition: condition.expression,
    names: { ...names, ...condition.names },
    values: { ...values, ...condition.values },
  });
};

/**
 * Copies an asset's status onto an item that carries it (a face, an album entry), its dates too (a
 * date edit moves them); a face's place in its person's list (gsi2, in date order) moves with the
 * date. The copy is not what the sync stream sends of them (the asset's own change is), so their
 * change ids stay.
 */
export const setStatusWrite = (
  key: Key,
  status: AssetStatus,
  face?: { assetId: string; faceId: string },
  // Besides its existing: a face still showing whom it was read showing (`showsCondition`).
  still?: { condition: string; values?: Record<string, unknown> },
): Write =>
  updateWrite(
    key,
    `SET deletedAt = :deletedAt, visibility = :visibility, fileCreatedAt = :fileCreatedAt, localDateTime = :localDateTime${face ? ', gsi2sk = :gsi2sk' : ''}`,
    {
      condition: still ? `attribute_exists(pk) AND ${still.condition}` : 'present',
      sync: 'unsent',
      values: {
        ':deletedAt': status.deletedAt,
        ':visibility': status.visibility,
        ':fileCreatedAt': status.fileCreatedAt,
        ':localDateTime': status.localDateTime ?? status.fileCreatedAt,
        ...(face ? { ':gsi2sk': indexKeys.personFaces('', status.fileCreatedAt, face.assetId, face.faceId).gsi2sk } : {}),
        ...still?.values,
      },
    },
  );

/** The sync stream's copy of an asset's photo edits (`ASSET#<id>` / `EDITS`). */
export const assetEditsCodec = codec('assetEdits', v.object({ assetId: id(), ownerId: id(), edits: v.array(PhotoEditSchema) }));
