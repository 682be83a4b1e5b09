import { IdParams } from '#shared/dto/common.ts';
import { GetAssetThumbnailDto } from '#shared/dto/v1/asset.ts';
import { fileResponse } from '#shared/http/files.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { RawResponse } from '#shared/http/response.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { deliver, thumbnailFile } from '#shared/services/file.service.ts';

export const handler = sharedHandler(
  { access: 'shared', permission: 'asset.view', returns: returns<RawResponse>(), params: IdParams, query: GetAssetThumbnailDto },
  async ({ auth, params, query, event }) => {
    const file = await thumbnailFile(auth, params.id, query.format ?? 'WEBP');
    return fileResponse(file, await deliver(file, `No thumbnail found for asset ${params.id}`), event);
  },
);
