import { countOrNoContent } from '#shared/http/generation.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { emptyTrash } from '#shared/services/trash.service.ts';

// Both generations' path: v3's clients get `{count}`, v1.100's an empty 204 (docs/immich-compatibility.md).
export const handler = httpHandler(
  { publish, access: 'user', permission: 'asset.delete', returns: returns<{ count: number } | undefined>(), status: 204 },
  async ({ auth, event }) => countOrNoContent(event, await emptyTrash(auth)),
);
