import { mapTagV3, TagCreateDto, type TagResponseDto } from '#shared/dto/v3/tag.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createTagV3 } from '#shared/services/tag/tag.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'tag.create', body: TagCreateDto, returns: returns<TagResponseDto>(), status: 201 },
  async ({ auth, body }) => mapTagV3(await createTagV3(auth, body)),
);
