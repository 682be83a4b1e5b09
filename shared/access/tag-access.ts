/**
 * Access to the caller's tags: a module of its own, as each resource\'s, so that only the functions that need its repository
 * bundle it (docs/benchmarks.md).
 */
import * as tagRepo from '../db/tag.repository.ts';
import type { TagRecord } from '../model/tag.ts';
import type { Auth } from '../model/user.ts';
import { noAccess, type Permission } from './permission.ts';

/** The caller's tag (Immich's tag.read, .update, .delete and .asset: the owner's alone). */
export const requireTag = async (auth: Auth, permission: Permission, tagId: string): Promise<TagRecord> => {
  const tag = await tagRepo.get(auth.user.id, tagId);
  if (!tag) throw noAccess(permission);
  return tag;
};

/** Every one of `tagIds` is the caller's tag (one BatchGetItem per 100 ids), else `noAccess(permission)`. */
export const requireTags = async (auth: Auth, permission: Permission, tagIds: readonly string[]): Promise<void> => {
  const wanted = [...new Set(tagIds)];
  if ((await tagRepo.getMany(auth.user.id, wanted)).length !== wanted.length) throw noAccess(permission);
};
