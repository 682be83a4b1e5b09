/**
 * Access to the caller's memories: a module of its own, as each resource\'s, so that only the functions that need its repository
 * bundle it (docs/benchmarks.md).
 */
import * as memoryRepo from '../db/memory.repository.ts';
import type { MemoryRecord } from '../model/memory.ts';
import type { Auth } from '../model/user.ts';
import { noAccess, type Permission } from './permission.ts';

/** The caller's memory (Immich's memory.read, .update and .delete: the owner's alone). */
export const requireMemory = async (auth: Auth, permission: Permission, memoryId: string): Promise<MemoryRecord> => {
  const memory = await memoryRepo.get(auth.user.id, memoryId);
  if (!memory) throw noAccess(permission);
  return memory;
};
