/**
 * Immich v3.2's workflows (`@immich/sdk` 3.2.2: WorkflowCreateDto, WorkflowUpdateDto, WorkflowSearchDto,
 * WorkflowResponseDto, WorkflowShareResponseDto, getWorkflowLogs's query).
 */
import * as v from 'valibot';
import { limits } from '../../model/limits.ts';
import { type WorkflowRecord, workflowTriggers } from '../../model/workflow.ts';
import { boolean, coercedInteger, isoDateTime, object, picklist, stringToBool, text, uuid } from './common.ts';

const trigger = picklist(workflowTriggers);
const optionalText = v.optional(v.nullable(text(limits.description)));

/** A step: a plugin method (`<plugin>#<method>`) with its configuration. */
const step = object({
  method: text(limits.keyValue),
  config: v.nullable(v.record(v.string(), v.unknown(), '$property must be an object')),
  enabled: v.optional(boolean),
});
const fields = {
  name: optionalText,
  description: optionalText,
  enabled: v.optional(boolean),
  logging: v.optional(boolean),
  steps: v.optional(v.array(step, '$property must be an array')),
};

export const WorkflowCreateDto = object({ trigger, ...fields });
export const WorkflowUpdateDto = object({ trigger: v.optional(trigger), ...fields });

export const WorkflowSearchQuery = object({
  id: v.optional(uuid),
  trigger: v.optional(trigger),
  name: v.optional(text(limits.name)),
  description: v.optional(text(limits.description)),
  enabled: v.optional(stringToBool),
  logging: v.optional(stringToBool),
});

export const WorkflowLogsQuery = object({
  result: v.optional(picklist(['completed', 'halted', 'error'] as const)),
  before: v.optional(isoDateTime),
  limit: v.optional(coercedInteger(1)),
});

export interface WorkflowStepDto {
  method: string;
  config: Record<string, unknown> | null;
  enabled?: boolean;
}

export interface WorkflowResponseDto {
  id: string;
  trigger: WorkflowRecord['trigger'];
  name: string | null;
  description: string | null;
  createdAt: string;
  updatedAt: string;
  enabled: boolean;
  logging: boolean;
  steps: WorkflowStepDto[];
}

export interface WorkflowShareResponseDto {
  trigger: WorkflowRecord['trigger'];
  name: string | null;
  description: string | null;
  steps: WorkflowStepDto[];
}

/** Immich's `mapWorkflow`: no steps here (no plugin methods to name). */
export const mapWorkflow = (workflow: WorkflowRecord): WorkflowResponseDto => ({
  id: workflow.id,
  enabled: workflow.enabled,
  logging: workflow.logging,
  trigger: workflow.trigger,
  name: workflow.name,
  description: workflow.description,
  createdAt: workflow.createdAt,
  updatedAt: workflow.updatedAt,
  steps: [],
});

/** Immich's `mapWorkflowShare`: the workflow without its ids and dates, to share. */
export const mapWorkflowShare = (workflow: WorkflowRecord): WorkflowShareResponseDto => ({
  trigger: workflow.trigger,
  name: workflow.name,
  description: workflow.description,
  steps: [],
});
