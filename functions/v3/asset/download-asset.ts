import { IdParams } from '#shared/dto/common.ts';
import { AssetDownloadOriginalDto } from '#shared/dto/v3/asset.ts';
import { fileResponse, isHead } from '#shared/http/files.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { RawResponse } from '#shared/http/response.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { deliver, originalFile } from '#shared/services/file.service.ts';

// GET /assets/:id/original (`?edited=`: the edited full size of an edited asset).
export const handler = sharedHandler(
  {
    generation: 'v3',
    access: 'shared',
    permission: 'asset.download',
    returns: returns<RawResponse>(),
    params: IdParams,
    query: AssetDownloadOriginalDto,
  },
  async ({ auth, params, query, event }) => {
    const file = await originalFile(auth, params.id, query.edited ?? false);
    return fileResponse(file, await deliver(file, 'Asset media not found', isHead(event)), event);
  },
);
