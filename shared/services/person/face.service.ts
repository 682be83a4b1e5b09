import { requireAsset } from '../../access/asset-access.ts';
import { Permission } from '../../access/permission.ts';
import * as personRepo from '../../db/person.repository.ts';
import { type FaceRecord, peopleOfFaces } from '../../model/asset.ts';
import type { PersonRecord } from '../../model/person.ts';
import type { Auth } from '../../model/user.ts';

/**
 * GET /face and GET /faces `?id=<assetId>`: every face of the asset in the file's order, as
 * Immich lists them: each with its person when the caller owns them, and a face no one is
 * recognised in yet (docs/faces.md) without one, so that its owner can click it and name it
 * (Immich's `mapFaces`: someone else's asset, read through a shared album, shows its faces without
 * people).
 */
export const getAssetFaces = async (auth: Auth, assetId: string): Promise<{ face: FaceRecord; person: PersonRecord | undefined }[]> => {
  const { asset, faces } = await requireAsset(auth, Permission.AssetRead, assetId);
  const mine = asset.ownerId === auth.user.id;
  const people = mine
    ? new Map((await personRepo.getMany(asset.ownerId, peopleOfFaces(faces))).map((person) => [person.id, person]))
    : new Map();
  return [...faces]
    .sort((a, b) => a.index - b.index)
    .map((face) => ({ face, person: face.personId === null ? undefined : people.get(face.personId) }));
};
