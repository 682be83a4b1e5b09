import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';

// External libraries (folders Immich scans) do not exist here: uploads belong to none.
export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'library.read', returns: returns<never[]>() },
  () => [],
);
