import { httpHandler } from '#shared/http/handler.ts';
import { BulkIdsDto } from '#shared/schemas/asset.ts';
import { restoreAssets } from '#shared/services/trash.service.ts';

export const handler = httpHandler({ access: 'user', body: BulkIdsDto, status: 204 }, ({ auth, body }) => restoreAssets(auth, body.ids));
