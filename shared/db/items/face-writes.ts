import type { AssetRecord, FaceRecord } from '../../model/asset.ts';
import * as indexKeys from '../index-keys.ts';
import * as keys from '../item-keys.ts';
import { putWrite, updateWrite, type Write } from '../transact.ts';
import { faceItem, prefixed, showsCondition } from './face.ts';

/** The faceWrites of ./face.ts (one export each: imported as a namespace, so a bundle carries only those used). */
/** A new face; `refusal`: what it being there already means to the caller. */
export const create = <const Reason extends string = never>(
  face: FaceRecord,
  asset: AssetRecord,
  options: { refusal?: Reason } = {},
): Write<Reason> => putWrite(faceItem(face, asset), { condition: 'absent', ...options });
/**
 * Moves a face to another person (a merge), or gives a face without a person one (a name given
 * to it, recognition); `from`, when given, is whom it must still show (null: no one).
 */
export const reassign = (face: { id: string; assetId: string; fileCreatedAt: string }, personId: string, from?: string | null): Write => {
  const still = from === undefined ? { condition: 'present' } : showsCondition(from);
  return updateWrite(keys.assetFace(face.assetId, face.id), 'SET personId = :to, gsi2pk = :gsi2pk, gsi2sk = :gsi2sk', {
    condition: still.condition,
    values: {
      ':to': personId,
      ...prefixed(indexKeys.personFaces(personId, face.fileCreatedAt, face.assetId, face.id)),
      ...still.values,
    },
  });
};
