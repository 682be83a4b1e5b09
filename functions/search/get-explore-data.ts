import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getExploreData, type SearchExploreResponseDto } from '#shared/services/search.service.ts';

export const handler = httpHandler({ access: 'user', returns: returns<SearchExploreResponseDto[]>() }, ({ auth }) => getExploreData(auth));
