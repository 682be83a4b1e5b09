import { IdParams } from '#shared/dto/common.ts';
import { mapTagV1, type TagResponseDto } from '#shared/dto/v1/tag.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getTagV1 } from '#shared/services/tag/tag.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'tag.read', params: IdParams, returns: returns<TagResponseDto>() },
  async ({ auth, params }) => mapTagV1(await getTagV1(auth, params.id)),
);
