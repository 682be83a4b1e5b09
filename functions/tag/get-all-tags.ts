import { mapTagV1, type TagResponseDto } from '#shared/dto/v1/tag.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAllTags } from '#shared/services/tag/tag.service.ts';

export const handler = httpHandler({ access: 'user', permission: 'tag.read', returns: returns<TagResponseDto[]>() }, async ({ auth }) =>
  (await getAllTags(auth)).map(mapTagV1),
);
