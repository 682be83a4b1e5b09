import { type AssetRecord, FaceEntrySchema, type FaceRecord, FaceRecordSchema, statusOf } from '../../model/asset.ts';
import { codec } from '../codec.ts';
import { indexKeys, keys } from '../keys.ts';
import { putWrite, updateWrite, type Write } from '../transact.ts';
import { upgradeStatus } from './legacy.ts';

export const faceCodec = codec('face', FaceRecordSchema);
/** A face as its person's list (gsi2) holds it: with its asset's status. */
export const faceEntryCodec = codec('face', FaceEntrySchema, {}, upgradeStatus);

/** The stored form of a face: in its asset's partition, on its person's gsi2 list, with the asset's status. */
export const faceItem = (face: FaceRecord, asset: AssetRecord) => ({
  ...keys.assetFace(asset.id, face.id),
  ...indexKeys.personFaces(face.personId, asset.fileCreatedAt, asset.id, face.id),
  type: 'face',
  ...face,
  ...statusOf(asset),
});

export const faceWrites = {
  create: (face: FaceRecord, asset: AssetRecord): Write => putWrite(faceItem(face, asset), { condition: 'absent' }),
  /** Moves a face to another person (a merge): its person and its place in that person's list. */
  reassign: (face: { id: string; assetId: string; fileCreatedAt: string }, personId: string): Write =>
    updateWrite(keys.assetFace(face.assetId, face.id), 'SET personId = :person, gsi2pk = :gsi2pk, gsi2sk = :gsi2sk', {
      condition: 'present',
      values: { ':person': personId, ...prefixed(indexKeys.personFaces(personId, face.fileCreatedAt, face.assetId, face.id)) },
    }),
};

const prefixed = (attributes: Record<string, string>) =>
  Object.fromEntries(Object.entries(attributes).map(([key, value]) => [`:${key}`, value]));
