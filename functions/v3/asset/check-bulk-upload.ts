import { type AssetBulkUploadCheckResponseDto, mapBulkUploadCheck } from '#shared/dto/common/asset.response.ts';
import { AssetBulkUploadCheckDto } from '#shared/dto/v3/asset.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { checkBulkUpload } from '#shared/services/asset.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'asset.upload',
    returns: returns<AssetBulkUploadCheckResponseDto>(),
    body: AssetBulkUploadCheckDto,
    status: 200,
  },
  async ({ auth, body }) => mapBulkUploadCheck(await checkBulkUpload(auth, body.assets)),
);
