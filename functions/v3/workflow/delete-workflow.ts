import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { deleteWorkflow } from '#shared/services/workflow.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'workflow.delete', params: IdParams, returns: returns<void>(), status: 204 },
  ({ auth, params }) => deleteWorkflow(auth, params.id),
);
