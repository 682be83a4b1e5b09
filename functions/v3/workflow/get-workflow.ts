import { IdParams } from '#shared/dto/common.ts';
import { mapWorkflow, type WorkflowResponseDto } from '#shared/dto/v3/workflow.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getWorkflow } from '#shared/services/workflow.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'workflow.read', params: IdParams, returns: returns<WorkflowResponseDto>() },
  async ({ auth, params }) => mapWorkflow(await getWorkflow(auth, params.id)),
);
