import { IdParams } from '#shared/dto/common.ts';
import { mapTagV3, type TagResponseDto } from '#shared/dto/v3/tag.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getTagV3 } from '#shared/services/tag/tag.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'tag.read', params: IdParams, returns: returns<TagResponseDto>() },
  async ({ auth, params }) => mapTagV3(await getTagV3(auth, params.id)),
);
