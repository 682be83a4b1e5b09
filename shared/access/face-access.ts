/**
 * Access to faces by their id: a module of its own, as each resource\'s, so that only the functions that need its repository
 * bundle it (docs/benchmarks.md).
 */
import * as faceRepo from '../db/face.repository.ts';
import type { FaceRecord } from '../model/asset.ts';
import type { Auth } from '../model/user.ts';
import { noAccess, type Permission } from './permission.ts';

/**
 * A face on one of the caller's assets, by its id (Immich's face access: `person.create` to
 * reassign it, `face.delete` to delete it). A library stored before faces were findable by id
 * is indexed once, by the first lookup that misses (docs/data-model.md, "Earlier shapes").
 */
export const requireFace = async (auth: Auth, permission: Permission, faceId: string): Promise<FaceRecord> => {
  let face = await faceRepo.find(faceId);
  if (!face) {
    await faceRepo.indexFaces(auth.user.id);
    face = await faceRepo.find(faceId);
  }
  if (!face || face.ownerId !== auth.user.id) throw noAccess(permission);
  return face;
};
