import type { WorkflowRecord } from '../model/workflow.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import { workflowCodec } from './items/workflow.ts';
import type { Outcome } from './outcome.ts';
import * as partitions from './partitions.ts';
import { queryAll } from './query.ts';
import { deleteWrite, putWrite, tryWriteOne, writeOne } from './transact.ts';

/** The owner's workflow, or undefined (someone else's reads as missing). */
export const get = async (ownerId: string, workflowId: string): Promise<WorkflowRecord | undefined> => {
  const item = await getItem(keys.workflow(ownerId, workflowId));
  return item ? workflowCodec.read(item) : undefined;
};

/** Every workflow of an owner (Query `USER#<id>` WORKFLOW#). */
export const list = async (ownerId: string): Promise<WorkflowRecord[]> =>
  (await queryAll(partitions.userWorkflows(ownerId))).map(workflowCodec.read);

/** A new workflow (its id is new: `attribute_not_exists`). */
export const create = async (workflow: WorkflowRecord): Promise<void> => {
  await writeOne(
    putWrite({ ...keys.workflow(workflow.ownerId, workflow.id), type: 'workflow', ...workflow }, { condition: 'attribute_not_exists(pk)' }),
  );
};

/**
 * A workflow changed from the one read: written only while it is still that one (`updatedAt` as
 * read), so of two concurrent updates neither is lost unnoticed; `changed` when it changed or went.
 */
export const replaceWorkflow = (workflow: WorkflowRecord, was: WorkflowRecord): Promise<Outcome<'changed'>> =>
  tryWriteOne(
    putWrite(
      { ...keys.workflow(workflow.ownerId, workflow.id), type: 'workflow', ...workflow },
      { condition: 'updatedAt = :was', values: { ':was': was.updatedAt }, refusal: 'changed' },
    ),
  );

export const remove = async (ownerId: string, workflowId: string): Promise<void> => {
  await writeOne(deleteWrite(keys.workflow(ownerId, workflowId)));
};
