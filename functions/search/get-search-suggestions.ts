import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { SearchSuggestionRequestDto } from '#shared/schemas/search.ts';
import { getSearchSuggestions } from '#shared/services/search.service.ts';

export const handler = httpHandler({ access: 'user', returns: returns<string[]>(), query: SearchSuggestionRequestDto }, ({ auth, query }) =>
  getSearchSuggestions(auth, query),
);
