import { IdParams } from '#shared/dto/common.ts';
import { WorkflowLogsQuery } from '#shared/dto/v3/workflow.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getWorkflowLogs } from '#shared/services/workflow.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'workflow.logs',
    params: IdParams,
    query: WorkflowLogsQuery,
    returns: returns<never[]>(),
  },
  ({ auth, params }) => getWorkflowLogs(auth, params.id),
);
