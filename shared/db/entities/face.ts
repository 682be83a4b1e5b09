import { type AssetRecord, FaceEntrySchema, type FaceRecord, FaceRecordSchema, statusOf } from '../../model/asset.ts';
import { codec } from '../codec.ts';
import { indexKeys, keys } from '../keys.ts';
import { putWrite, type Write } from '../transact.ts';

export const faceCodec = codec('face', FaceRecordSchema);
/** A face as its person's list (gsi2) holds it: with its asset's status. */
export const faceEntryCodec = codec('face', FaceEntrySchema);

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
};
