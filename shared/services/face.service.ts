import { Permission, requireAsset } from '../access/access.ts';
import { getPeople } from '../db/person.repository.ts';
import type { FaceRecord } from '../model/asset.ts';
import type { PersonRecord } from '../model/person.ts';
import type { Auth } from '../model/user.ts';

/**
 * GET /face and GET /faces `?id=<assetId>`: the asset's faces in the file's order, each with its
 * person when the caller owns them (Immich's `mapFaces`: someone else's asset, read through a
 * shared album, shows its faces without people).
 */
export const getAssetFaces = async (auth: Auth, assetId: string): Promise<{ face: FaceRecord; person: PersonRecord | undefined }[]> => {
  const { asset, faces } = await requireAsset(auth, Permission.AssetRead, assetId);
  const mine = asset.ownerId === auth.user.id;
  const people = mine
    ? new Map(
        (
          await getPeople(
            asset.ownerId,
            faces.map((face) => face.personId),
          )
        ).map((person) => [person.id, person]),
      )
    : new Map();
  return [...faces].sort((a, b) => a.index - b.index).map((face) => ({ face, person: people.get(face.personId) }));
};
