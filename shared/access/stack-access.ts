/**
 * Access to the caller's stacks: a module of its own, as each resource\'s, so that only the functions that need its
 * repository bundle it (docs/benchmarks.md).
 */
import * as stackRepo from '../db/stack.repository.ts';
import type { StackRecord } from '../model/stack.ts';
import type { Auth } from '../model/user.ts';
import { noAccess, type Permission } from './permission.ts';

/** The caller's stack (Immich's stack.read, .update and .delete: the owner's alone). */
export const requireStack = async (auth: Auth, permission: Permission, stackId: string): Promise<StackRecord> => {
  const stack = await stackRepo.get(auth.user.id, stackId);
  if (!stack) throw noAccess(permission);
  return stack;
};

/**
 * Every one of the caller's stacks named (one refused refuses them all, as Immich's bulk check),
 * each once: read 100 a call, never one read per id (docs/api.md, "Limits").
 */
export const requireStacks = async (auth: Auth, permission: Permission, stackIds: readonly string[]): Promise<StackRecord[]> => {
  const unique = [...new Set(stackIds)];
  const stacks = await stackRepo.getMany(auth.user.id, unique);
  if (stacks.length !== unique.length) throw noAccess(permission);
  return stacks;
};
