import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { restoreTrash } from '#shared/services/trash.service.ts';

export const handler = httpHandler({ access: 'user', permission: 'asset.delete', returns: returns<void>(), status: 204 }, ({ auth }) =>
  restoreTrash(auth),
);
