import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { FileResponse } from '#shared/http/response.ts';
import { GetAssetThumbnailDto } from '#shared/schemas/asset.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { getThumbnail } from '#shared/services/thumbnail.service.ts';

export const handler = httpHandler(
  { access: 'user', returns: returns<FileResponse>(), params: IdParams, query: GetAssetThumbnailDto },
  async ({ auth, params, query }) => {
    const { bytes, contentType } = await getThumbnail(auth, params.id, query.format ?? 'WEBP');
    return new FileResponse(bytes, contentType);
  },
);
