import { TagBulkAssetsDto, type TagBulkAssetsResponseDto } from '#shared/dto/v3/tag.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { bulkTagAssets } from '#shared/services/tag/tag.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'tag.asset', body: TagBulkAssetsDto, returns: returns<TagBulkAssetsResponseDto>() },
  ({ auth, body }) => bulkTagAssets(auth, body),
);
