/**
 * Immich v3's workflows (docs/immich-compatibility.md, "Workflows"): a user's own, with a trigger
 * and the plugin methods each runs. This server has no plugins, so a step names a method that
 * does not exist (Immich's 400 `Unknown method …`), a workflow has no steps, and none ever runs:
 * its logs are empty.
 */
import { randomUUID } from 'node:crypto';
import { Permission } from '../access/permission.ts';
import { requireWorkflow } from '../access/workflow-access.ts';
import { Conflict, Invalid } from '../core/errors.ts';
import * as workflowRepo from '../db/workflow.repository.ts';
import type { Auth } from '../model/user.ts';
import { type WorkflowFields, type WorkflowRecord, type WorkflowTrigger, workflowTriggers } from '../model/workflow.ts';

/** GET /workflows/triggers: Immich's triggers, each for assets. */
export const workflowTriggerList = (): { trigger: WorkflowTrigger; types: ['AssetV1'] }[] =>
  workflowTriggers.map((trigger) => ({ trigger, types: ['AssetV1'] }));

/** Immich's check of each step: here no plugin method exists to name. */
const requireNoSteps = (steps: readonly { method: string }[] | undefined): void => {
  const [first] = steps ?? [];
  if (first) throw new Invalid(`Unknown method ${first.method}`);
};

export interface WorkflowFilters {
  id?: string | undefined;
  trigger?: WorkflowTrigger | undefined;
  enabled?: boolean | undefined;
}

/** GET /workflows: the caller's, newest first, narrowed as Immich's search narrows (id, trigger, enabled). */
export const searchWorkflows = async (auth: Auth, filters: WorkflowFilters): Promise<WorkflowRecord[]> =>
  (await workflowRepo.list(auth.user.id))
    .filter(
      (workflow) =>
        (!filters.id || workflow.id === filters.id) &&
        (!filters.trigger || workflow.trigger === filters.trigger) &&
        (filters.enabled === undefined || workflow.enabled === filters.enabled),
    )
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));

/** POST /workflows: enabled unless said otherwise, logging off (Immich's defaults). */
export const createWorkflow = async (
  auth: Auth,
  fields: WorkflowFields & { trigger: WorkflowTrigger },
  steps: readonly { method: string }[] | undefined,
): Promise<WorkflowRecord> => {
  requireNoSteps(steps);
  const now = new Date().toISOString();
  const workflow: WorkflowRecord = {
    id: randomUUID(),
    ownerId: auth.user.id,
    trigger: fields.trigger,
    name: fields.name ?? null,
    description: fields.description ?? null,
    enabled: fields.enabled ?? true,
    logging: fields.logging ?? false,
    createdAt: now,
    updatedAt: now,
  };
  await workflowRepo.create(workflow);
  return workflow;
};

export const getWorkflow = (auth: Auth, id: string): Promise<WorkflowRecord> => requireWorkflow(auth, Permission.WorkflowRead, id);

/** PUT /workflows/:id: the fields given; steps as at creation. A concurrent change is read again and applied over. */
export const updateWorkflow = async (
  auth: Auth,
  id: string,
  fields: WorkflowFields,
  steps: readonly { method: string }[] | undefined,
): Promise<WorkflowRecord> => {
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await requireWorkflow(auth, Permission.WorkflowUpdate, id);
    requireNoSteps(steps);
    const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    // Always later than the one read, so two updates of the same moment cannot both pass the condition.
    const updatedAt = new Date(Math.max(Date.now(), Date.parse(current.updatedAt) + 1)).toISOString();
    const updated: WorkflowRecord = { ...current, ...defined, updatedAt };
    if ((await workflowRepo.replaceWorkflow(updated, current)).ok) return updated;
  }
  throw new Conflict('The workflow changed while it was updated; try again');
};

/** DELETE /workflows/:id. */
export const deleteWorkflow = async (auth: Auth, id: string): Promise<void> => {
  await requireWorkflow(auth, Permission.WorkflowDelete, id);
  await workflowRepo.remove(auth.user.id, id);
};

/** GET /workflows/:id/logs: a workflow with no steps never runs, so it has no log. */
export const getWorkflowLogs = async (auth: Auth, id: string): Promise<never[]> => {
  await requireWorkflow(auth, Permission.WorkflowLogs, id);
  return [];
};
