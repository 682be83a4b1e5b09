import type { BulkIdResponseDto } from '#shared/dto/common/album.response.ts';
import { IdParams } from '#shared/dto/common.ts';
import { BulkIdsDtoV3 } from '#shared/dto/v3/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { addTagAssetsV3 } from '#shared/services/tag/tag.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'tag.asset',
    params: IdParams,
    body: BulkIdsDtoV3,
    returns: returns<BulkIdResponseDto[]>(),
  },
  ({ auth, params, body }) => addTagAssetsV3(auth, params.id, body.ids),
);
