/**
 * Access to the caller's workflows: a module of its own, as each resource\'s, so that only the functions that need
 * its repository bundle it (docs/benchmarks.md).
 */
import * as workflowRepo from '../db/workflow.repository.ts';
import type { Auth } from '../model/user.ts';
import type { WorkflowRecord } from '../model/workflow.ts';
import { noAccess, type Permission } from './permission.ts';

/** The caller's workflow (Immich's workflow.read, .update, .delete and .logs: the owner's alone). */
export const requireWorkflow = async (auth: Auth, permission: Permission, workflowId: string): Promise<WorkflowRecord> => {
  const workflow = await workflowRepo.get(auth.user.id, workflowId);
  if (!workflow) throw noAccess(permission);
  return workflow;
};
