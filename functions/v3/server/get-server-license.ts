import { NotFound } from '#shared/core/errors.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';

// No product key is ever stored here: Immich's answer without one (404), which the web app reads as unlicensed.
export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'serverLicense.read', returns: returns<never>() },
  () => {
    throw new NotFound();
  },
);
