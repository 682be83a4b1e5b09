import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getUniqueOriginalPaths } from '#shared/services/view.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'folder.read', returns: returns<string[]>() },
  ({ auth }) => getUniqueOriginalPaths(auth),
);
