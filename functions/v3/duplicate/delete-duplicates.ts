import { BulkIdsDtoV3 } from '#shared/dto/v3/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { dismissDuplicates } from '#shared/services/duplicate.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'duplicate.delete', body: BulkIdsDtoV3, returns: returns<void>(), status: 204 },
  ({ auth, body }) => dismissDuplicates(auth, body.ids),
);
