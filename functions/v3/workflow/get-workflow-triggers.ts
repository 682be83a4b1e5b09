import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { workflowTriggerList } from '#shared/services/workflow.service.ts';

// Any signed-in caller, no API-key permission (Immich's `permission: false`).
export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: false, returns: returns<ReturnType<typeof workflowTriggerList>>() },
  () => workflowTriggerList(),
);
