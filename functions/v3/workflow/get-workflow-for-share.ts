import { IdParams } from '#shared/dto/common.ts';
import { mapWorkflowShare, type WorkflowShareResponseDto } from '#shared/dto/v3/workflow.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getWorkflow } from '#shared/services/workflow.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'workflow.read', params: IdParams, returns: returns<WorkflowShareResponseDto>() },
  async ({ auth, params }) => mapWorkflowShare(await getWorkflow(auth, params.id)),
);
