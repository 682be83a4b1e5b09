import { type AssetRecord, hiddenInStack, type PhotoEdit } from '../../model/asset.ts';
import * as indexKeys from '../index-keys.ts';
import * as keys from '../item-keys.ts';
import { deleteWrite, putWrite, setFields, updateWrite, type Write } from '../transact.ts';
import { assetItem, type CountedState, checksumItem, conditionOn, exifAsRead, placeFields, setWhere, withFaces } from './asset.ts';

/** The assetWrites of ./asset.ts (one export each: imported as a namespace, so a bundle carries only those used). */
export const create = (asset: AssetRecord): Write => putWrite(assetItem(asset), { condition: 'absent' });
/** The file's checksum, claimed for the asset: `duplicate` when the owner has an asset of it already. */
export const claimChecksum = (asset: AssetRecord): Write<'duplicate'> =>
  putWrite(checksumItem(asset.ownerId, asset.checksum, asset.id), { condition: 'absent', refusal: 'duplicate' });
export const releaseChecksum = (asset: AssetRecord): Write => deleteWrite(keys.checksum(asset.ownerId, asset.checksum));
/** The asset's entry under its device (GET /asset/device/:deviceId, POST /asset/exist). */
export const addToDevice = (asset: AssetRecord): Write =>
  putWrite({
    ...keys.deviceAsset(asset.ownerId, asset.deviceId, asset.id),
    type: 'deviceAsset',
    assetId: asset.id,
    deviceAssetId: asset.deviceAssetId,
    isVisible: asset.visibility !== 'hidden',
  });
export const removeFromDevice = (asset: AssetRecord): Write => deleteWrite(keys.deviceAsset(asset.ownerId, asset.deviceId, asset.id));
/**
 * Sets fields of an existing asset. With `albumCount`, only while it is still in that many
 * albums (the writes that copy its status to its album entries found them all); with `counted`,
 * only while it is still in the timeline state it was read in (its counters move in the same
 * transaction: shared/db/items/bucket.ts).
 * With `faceIds` (the faces whose status copies the same transaction sets), only while the asset
 * still has exactly those: a face recognised meanwhile (docs/faces.md) would keep an old copy.
 */
export const set = (
  assetId: string,
  fields: Partial<AssetRecord>,
  albumCount?: number,
  counted?: CountedState,
  faceIds?: readonly string[],
): Write => setWhere(assetId, fields, withFaces(conditionOn(albumCount, counted), faceIds));
/**
 * Puts an asset in a duplicate group or takes it out of one (`duplicateId` null), only while it
 * is still in the group it was read in (`was`; null: none): a new change id and `updatedAt`, as
 * Immich's update of the asset, so the apps' delta sync and the timeline see it. With `detectedAt`,
 * also when duplicate detection looked at it.
 */
export const setDuplicate = (
  assetId: string,
  duplicateId: string | null,
  was: string | null,
  updatedAt: string,
  detectedAt?: string,
): Write =>
  setWhere(
    assetId,
    { duplicateId, updatedAt, ...(detectedAt ? { duplicatesDetectedAt: detectedAt } : {}) },
    was === null
      ? {
          expression: 'attribute_exists(pk) AND (attribute_not_exists(#wasDuplicate) OR attribute_type(#wasDuplicate, :dupNull))',
          names: { '#wasDuplicate': 'duplicateId' },
          values: { ':dupNull': 'NULL' },
        }
      : {
          expression: 'attribute_exists(pk) AND #wasDuplicate = :wasDuplicate',
          names: { '#wasDuplicate': 'duplicateId' },
          values: { ':wasDuplicate': was },
        },
  );
/** Marks when duplicate detection looked at an asset (no change id: nothing the apps see changes). */
export const markDuplicatesDetected = (assetId: string, detectedAt: string): Write =>
  updateWrite(keys.asset(assetId), 'SET duplicatesDetectedAt = :at', {
    condition: 'present',
    sync: 'unsent',
    values: { ':at': detectedAt },
  });
/**
 * Sets an asset's place names (reverse geocoding: docs/places.md) and moves it in the place
 * indexes, only while its position and its timeline state are still those read (the counters'
 * place facets move in the same transaction) and its names still those it was found with.
 */
export const setPlaces = (
  asset: AssetRecord,
  places: Pick<AssetRecord['exif'], 'city' | 'state' | 'country'>,
  geocoded: boolean,
  updatedAt: string,
): Write => {
  const after = { ...asset.exif, ...places };
  const indexed = indexKeys.exif(asset.ownerId, after, placeFields);
  // The counted state and the place names as read (conditionOn), and the position as read.
  const condition = conditionOn(undefined, asset);
  const position = exifAsRead(asset.exif, ['latitude', 'longitude']);
  return setWhere(
    asset.id,
    {
      'exif.city': places.city,
      'exif.state': places.state,
      'exif.country': places.country,
      geocoded,
      updatedAt,
      ...indexed,
      ...indexKeys.geo(asset.ownerId, after),
    } as Partial<AssetRecord>,
    {
      expression: [condition.expression, ...position.parts].join(' AND '),
      names: { ...condition.names, ...position.names },
      values: { ...condition.values, ...position.values },
    },
    placeFields.map((field) => `ix_${field}`).filter((name) => !(name in indexed)),
  );
};
/**
 * Puts an asset with a position in the map index (`ix_geo`), where an asset stored before it
 * lacks it (the places job over a library: docs/places.md). Not a change a client sees.
 */
export const indexPosition = (asset: AssetRecord): Write =>
  updateWrite(keys.asset(asset.id), 'SET ix_geo = :geo', {
    condition: 'present',
    sync: 'unsent',
    values: { ':geo': indexKeys.geo(asset.ownerId, asset.exif).ix_geo },
  });
/**
 * Records a video's encoded version (its key), or with none removes it (docs/media.md,
 * "Transcoding"), only while the asset exists. No change a client syncs: the encoded version is
 * not in an asset's answer, only served (no change id, updatedAt kept).
 */
export const setEncodedVideo = (assetId: string, key: string | undefined): Write =>
  key
    ? updateWrite(keys.asset(assetId), 'SET #encoded = :encoded', {
        condition: 'present',
        sync: 'unsent',
        names: { '#encoded': 'encodedVideoPath' },
        values: { ':encoded': key },
      })
    : updateWrite(keys.asset(assetId), 'REMOVE #encoded', {
        condition: 'present',
        sync: 'unsent',
        names: { '#encoded': 'encodedVideoPath' },
      });
/**
 * Records that the asset's CLIP embedding was added to its owner's index under `model`
 * (docs/search.md), only while the asset exists; nothing a client syncs (no change id).
 */
export const setSmartSearch = (assetId: string, model: string, at: string): Write =>
  updateWrite(keys.asset(assetId), 'SET smartSearchAt = :at, smartSearchModel = :model', {
    condition: 'present',
    sync: 'unsent',
    values: { ':at': at, ':model': model },
  });
/** Sets fields of an asset whose photo edits are still `edits` (the media function's edited files). */
export const setIfEdits = (assetId: string, edits: readonly PhotoEdit[], fields: Partial<AssetRecord>): Write =>
  setWhere(assetId, fields, { expression: '#edits = :editsAsRead', names: { '#edits': 'edits' }, values: { ':editsAsRead': edits } });
/**
 * Sets an asset's stack (and whether it hides it), only while it is in the state and the stack
 * it was read in: two changes of stacks racing for one asset cannot both land.
 */
export const setStack = (asset: AssetRecord, stack: AssetRecord['stack'], updatedAt: string): Write => {
  const { expression, names, values } = setFields({
    stack,
    updatedAt,
    gsi2sk: indexKeys.assetsByUpdate('', updatedAt, asset.id).gsi2sk,
    stackHidden: hiddenInStack({ id: asset.id, stack }),
  });
  const condition = conditionOn(undefined, asset, asset.stack?.id ?? null);
  return updateWrite(keys.asset(asset.id), expression, {
    condition: condition.expression,
    names: { ...names, ...condition.names },
    values: { ...values, ...condition.values },
  });
};
/**
 * Deletes an existing asset that is still in `albumCount` albums and in the timeline state it was
 * read in; with `faceIds` (the faces deleted after it), only while the asset still has exactly those.
 */
const delete_ = (assetId: string, albumCount: number, counted: CountedState, faceIds?: readonly string[]): Write => {
  const condition = withFaces(conditionOn(albumCount, counted), faceIds);
  return deleteWrite(keys.asset(assetId), {
    condition: condition.expression,
    names: condition.names,
    values: condition.values,
    sync: 'recorded',
  });
};
/**
 * The asset's entry in its owner's trash (`deletedAt` its time in the trash), written and deleted
 * with every change of its `deletedAt`: what the nightly clean-up finds expired trash by.
 */
export const trashEntry = (asset: Pick<AssetRecord, 'id' | 'ownerId'>, deletedAt: string): Write =>
  putWrite({ ...keys.trashEntry(asset.ownerId, deletedAt, asset.id), type: 'trashEntry', assetId: asset.id });
/** The reverse (none to delete, for an asset trashed before the entries existed: "Earlier shapes"). */
export const dropTrashEntry = (asset: Pick<AssetRecord, 'id' | 'ownerId'>, deletedAt: string): Write =>
  deleteWrite(keys.trashEntry(asset.ownerId, deletedAt, asset.id));
/** One more (or one fewer) album holding the asset. */
export const addAlbumCount = (assetId: string, delta: 1 | -1): Write =>
  updateWrite(keys.asset(assetId), 'ADD albumCount :delta', { condition: 'present', values: { ':delta': delta }, sync: 'unsent' });

export { delete_ as delete };
