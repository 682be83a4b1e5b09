import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { deleteServerLicense } from '#shared/services/license.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'serverLicense.delete', returns: returns<void>(), status: 204 },
  () => deleteServerLicense(),
);
