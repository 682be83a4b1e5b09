import { httpHandler } from '#shared/http/handler.ts';
import { AssetBulkUploadCheckDto } from '#shared/schemas/asset.ts';
import { checkBulkUpload } from '#shared/services/asset.service.ts';

export const handler = httpHandler({ access: 'user', body: AssetBulkUploadCheckDto, status: 200 }, ({ auth, body }) => checkBulkUpload(auth, body.assets));
