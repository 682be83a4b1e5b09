import { IdParams } from '#shared/dto/common.ts';
import { mapTagV3, type TagResponseDto, TagUpdateDto } from '#shared/dto/v3/tag.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateTagV3 } from '#shared/services/tag/tag.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'tag.update', params: IdParams, body: TagUpdateDto, returns: returns<TagResponseDto>() },
  async ({ auth, params, body }) => mapTagV3(await updateTagV3(auth, params.id, body)),
);
