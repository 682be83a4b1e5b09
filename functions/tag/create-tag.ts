import { CreateTagDto, mapTagV1, type TagResponseDto } from '#shared/dto/v1/tag.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createTagV1 } from '#shared/services/tag/tag.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'tag.create', body: CreateTagDto, returns: returns<TagResponseDto>(), status: 201 },
  async ({ auth, body }) => mapTagV1(await createTagV1(auth, body)),
);
