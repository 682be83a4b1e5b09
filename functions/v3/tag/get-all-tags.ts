import { mapTagV3, type TagResponseDto } from '#shared/dto/v3/tag.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAllTags } from '#shared/services/tag/tag.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'tag.read', returns: returns<TagResponseDto[]>() },
  async ({ auth }) => (await getAllTags(auth)).map(mapTagV3),
);
