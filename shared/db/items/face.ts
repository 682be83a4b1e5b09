import { type AssetRecord, FaceEntrySchema, type FaceRecord, FaceRecordSchema, statusOf } from '../../model/asset.ts';
import { codec } from '../codec.ts';
import * as indexKeys from '../index-keys.ts';
import * as keys from '../item-keys.ts';
import { upgradeStatus } from './legacy.ts';

export const faceCodec = codec('face', FaceRecordSchema);
/** A face as its person's list (gsi2) holds it: with its asset's status. */
export const faceEntryCodec = codec('face', FaceEntrySchema, {}, upgradeStatus);

/**
 * The stored form of a face: in its asset's partition, findable by its id (gsi1), with the asset's
 * status; with a person, on their gsi2 list. A face without a person has no `personId` attribute
 * (read as null), so a write can condition on its having none.
 */
export const faceItem = (face: FaceRecord, asset: AssetRecord) => {
  const { personId, ...rest } = face;
  return {
    ...keys.assetFace(asset.id, face.id),
    ...(personId === null ? {} : indexKeys.personFaces(personId, asset.fileCreatedAt, asset.id, face.id)),
    ...indexKeys.face(face.id, asset.id),
    type: 'face',
    ...rest,
    ...(personId === null ? {} : { personId }),
    ...statusOf(asset),
  };
};

/** A write's condition that the face still shows `personId` (null: still no one). */
export const showsCondition = (personId: string | null): { condition: string; values?: Record<string, unknown> } =>
  personId === null
    ? { condition: 'attribute_exists(pk) AND attribute_not_exists(personId)' }
    : { condition: 'personId = :person', values: { ':person': personId } };

export const prefixed = (attributes: Record<string, string>) =>
  Object.fromEntries(Object.entries(attributes).map(([key, value]) => [`:${key}`, value]));
