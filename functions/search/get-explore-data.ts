import { mapExplore, type SearchExploreResponseDto } from '#shared/dto/v1/search.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getExploreData } from '#shared/services/search.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'asset.read', returns: returns<SearchExploreResponseDto[]>() },
  async ({ auth }) => mapExplore(await getExploreData(auth), auth.user.id),
);
