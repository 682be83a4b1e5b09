import { mapWorkflow, type WorkflowResponseDto, WorkflowSearchQuery } from '#shared/dto/v3/workflow.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { searchWorkflows } from '#shared/services/workflow.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'workflow.read', query: WorkflowSearchQuery, returns: returns<WorkflowResponseDto[]>() },
  async ({ auth, query }) => (await searchWorkflows(auth, query)).map(mapWorkflow),
);
