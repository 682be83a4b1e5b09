import { SearchSuggestionRequestDto } from '#shared/dto/v1/search.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getSearchSuggestions } from '#shared/services/search.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'asset.read', returns: returns<(string | null)[]>(), query: SearchSuggestionRequestDto },
  ({ auth, query }) => getSearchSuggestions(auth, query),
);
