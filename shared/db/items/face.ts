import { type AssetRecord, FaceEntrySchema, type FaceRecord, FaceRecordSchema, statusOf } from '../../model/asset.ts';
import { codec } from '../codec.ts';
import { indexKeys, keys } from '../keys.ts';
import { putWrite, updateWrite, type Write } from '../transact.ts';
import { upgradeStatus } from './legacy.ts';

export const faceCodec = codec('face', FaceRecordSchema);
/** A face as its person's list (gsi2) holds it: with its asset's status. */
export const faceEntryCodec = codec('face', FaceEntrySchema, {}, upgradeStatus);

/** The stored form of a face: in its asset's partition, on its person's gsi2 list, findable by its id (gsi1), with the asset's status. */
export const faceItem = (face: FaceRecord, asset: AssetRecord) => ({
  ...keys.assetFace(asset.id, face.id),
  ...indexKeys.personFaces(face.personId, asset.fileCreatedAt, asset.id, face.id),
  ...indexKeys.face(face.id, asset.id),
  type: 'face',
  ...face,
  ...statusOf(asset),
});

export const faceWrites = {
  create: (face: FaceRecord, asset: AssetRecord): Write => putWrite(faceItem(face, asset), { condition: 'absent' }),
  /** Moves a face to another person (a merge; an edit says whose it must still be: `from`). */
  reassign: (face: { id: string; assetId: string; fileCreatedAt: string }, personId: string, from?: string): Write =>
    updateWrite(keys.assetFace(face.assetId, face.id), 'SET personId = :person, gsi2pk = :gsi2pk, gsi2sk = :gsi2sk', {
      condition: from === undefined ? 'present' : 'personId = :from',
      values: {
        ':person': personId,
        ...prefixed(indexKeys.personFaces(personId, face.fileCreatedAt, face.assetId, face.id)),
        ...(from === undefined ? {} : { ':from': from }),
      },
    }),
};

const prefixed = (attributes: Record<string, string>) =>
  Object.fromEntries(Object.entries(attributes).map(([key, value]) => [`:${key}`, value]));
