/**
 * Duplicate groups (Immich's `duplicate.delete` check): a group is the caller's when it is in their
 * own partition of groups (shared/db/duplicate.repository.ts); another's or an unknown id gets
 * Immich's 400, and nothing is done.
 */

import type { DuplicateGroup } from '../db/duplicate.repository.ts';
import * as duplicateRepo from '../db/duplicate.repository.ts';
import type { Auth } from '../model/user.ts';
import { noAccess, Permission } from './permission.ts';

/** Every one of the groups (duplicates ignored), as they are now, or a 400 for all. */
export const requireGroups = async (auth: Auth, ids: readonly string[]): Promise<DuplicateGroup[]> => {
  const groups = await Promise.all([...new Set(ids)].map((id) => duplicateRepo.getGroup(auth.user.id, id)));
  if (groups.some((group) => group.count === undefined && group.assetIds.length === 0)) throw noAccess(Permission.DuplicateDelete);
  return groups;
};
