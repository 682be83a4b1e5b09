import * as v from 'valibot';
import { id, instant, nullable } from './fields.ts';

/** What starts a workflow (Immich 3.2's `WorkflowTrigger`), each for assets (`AssetV1`). */
export const workflowTriggers = ['AssetCreate', 'AssetMetadataExtraction', 'AssetTagged'] as const;
export type WorkflowTrigger = (typeof workflowTriggers)[number];

/**
 * Immich v3's workflow: a trigger and the plugin methods it runs. No plugin exists here, so a
 * workflow has no steps and runs nothing (docs/immich-compatibility.md, "Workflows").
 */
export const WorkflowRecordSchema = v.object({
  id: id(),
  ownerId: id(),
  trigger: v.picklist(workflowTriggers),
  name: nullable(v.string()),
  description: nullable(v.string()),
  enabled: v.boolean(),
  logging: v.boolean(),
  createdAt: instant(),
  updatedAt: instant(),
});
export type WorkflowRecord = v.InferOutput<typeof WorkflowRecordSchema>;

/** A workflow's fields a create or an update gives. */
export type WorkflowFields = Partial<Pick<WorkflowRecord, 'trigger' | 'name' | 'description' | 'enabled' | 'logging'>>;
