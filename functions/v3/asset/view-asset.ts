import { IdParams } from '#shared/dto/common.ts';
import { AssetMediaOptionsDto } from '#shared/dto/v3/asset.ts';
import { fileResponse, isHead, redirectTo } from '#shared/http/files.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { RawResponse } from '#shared/http/response.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { deliver, viewThumbnail } from '#shared/services/file.service.ts';

// GET /assets/:id/thumbnail?size=: Immich's redirects are relative to this path (`original?…`, `thumbnail?size=preview`).
export const handler = sharedHandler(
  {
    generation: 'v3',
    access: 'shared',
    permission: 'asset.view',
    returns: returns<RawResponse>(),
    params: IdParams,
    query: AssetMediaOptionsDto,
  },
  async ({ auth, params, query, event }) => {
    if (query.size === 'original') return redirectTo(event, 'original', { size: undefined });
    const answer = await viewThumbnail(auth, params.id, query.size ?? 'thumbnail', query.edited ?? false);
    if ('redirect' in answer) {
      return answer.redirect === 'original'
        ? redirectTo(event, 'original', { size: undefined })
        : redirectTo(event, 'thumbnail', { size: answer.redirect });
    }
    return fileResponse(answer.file, await deliver(answer.file, 'Asset media not found', isHead(event)), event);
  },
);
