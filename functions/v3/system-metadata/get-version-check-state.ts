import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';

// No version check runs here (it would call GitHub): Immich's state before its first one.
export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'admin',
    permission: 'systemMetadata.read',
    returns: returns<{ checkedAt: string | null; releaseVersion: string | null }>(),
  },
  () => ({ checkedAt: null, releaseVersion: null }),
);
