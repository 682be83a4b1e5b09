import { IdParams } from '#shared/dto/common.ts';
import { mapWorkflow, type WorkflowResponseDto, WorkflowUpdateDto } from '#shared/dto/v3/workflow.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateWorkflow } from '#shared/services/workflow.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'workflow.update',
    params: IdParams,
    body: WorkflowUpdateDto,
    returns: returns<WorkflowResponseDto>(),
  },
  async ({ auth, params, body: { steps, ...fields } }) => mapWorkflow(await updateWorkflow(auth, params.id, fields, steps)),
);
