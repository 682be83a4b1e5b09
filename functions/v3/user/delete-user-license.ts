import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { deleteUserLicense } from '#shared/services/license.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'userLicense.delete', returns: returns<void>(), status: 204 },
  ({ auth }) => deleteUserLicense(auth),
);
