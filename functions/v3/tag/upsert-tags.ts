import { mapTagV3, type TagResponseDto, TagUpsertDto } from '#shared/dto/v3/tag.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { upsertTags } from '#shared/services/tag/tag.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'tag.create', body: TagUpsertDto, returns: returns<TagResponseDto[]>() },
  async ({ auth, body }) => (await upsertTags(auth, body.tags)).map(mapTagV3),
);
