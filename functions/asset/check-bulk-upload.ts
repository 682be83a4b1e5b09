import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { AssetBulkUploadCheckResponseDto } from '#shared/schemas/asset.ts';
import { AssetBulkUploadCheckDto } from '#shared/schemas/asset.ts';
import { checkBulkUpload } from '#shared/services/asset.service.ts';

export const handler = httpHandler(
  { access: 'user', returns: returns<AssetBulkUploadCheckResponseDto>(), body: AssetBulkUploadCheckDto, status: 200 },
  ({ auth, body }) => checkBulkUpload(auth, body.assets),
);
