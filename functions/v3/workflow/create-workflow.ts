import { mapWorkflow, WorkflowCreateDto, type WorkflowResponseDto } from '#shared/dto/v3/workflow.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createWorkflow } from '#shared/services/workflow.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'workflow.create',
    body: WorkflowCreateDto,
    returns: returns<WorkflowResponseDto>(),
    status: 201,
  },
  async ({ auth, body: { steps, ...fields } }) => mapWorkflow(await createWorkflow(auth, fields, steps)),
);
