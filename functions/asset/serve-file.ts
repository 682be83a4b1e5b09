import { IdParams } from '#shared/dto/common.ts';
import { ServeFileDto } from '#shared/dto/v1/asset.ts';
import { fileResponse } from '#shared/http/files.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { RawResponse } from '#shared/http/response.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { assetFile, deliver } from '#shared/services/file.service.ts';

export const handler = sharedHandler(
  { access: 'shared', permission: 'asset.download', returns: returns<RawResponse>(), params: IdParams, query: ServeFileDto },
  async ({ auth, params, query, event }) => {
    const file = await assetFile(auth, params.id, { isThumb: query.isThumb ?? false, isWeb: query.isWeb ?? false });
    return fileResponse(file, await deliver(file, `No file found for asset ${params.id}`), event);
  },
);
