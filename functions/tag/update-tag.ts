import { IdParams } from '#shared/dto/common.ts';
import { mapTagV1, type TagResponseDto, UpdateTagDto } from '#shared/dto/v1/tag.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateTagV1 } from '#shared/services/tag/tag.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'tag.update', params: IdParams, body: UpdateTagDto, returns: returns<TagResponseDto>() },
  async ({ auth, params, body }) => mapTagV1(await updateTagV1(auth, params.id, body)),
);
