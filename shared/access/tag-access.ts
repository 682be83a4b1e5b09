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
