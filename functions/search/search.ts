import { SearchDto } from '#shared/dto/v1/search.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { SearchResponseDto } from '#shared/services/search.service.ts';
import { searchText } from '#shared/services/search.service.ts';

export const handler = httpHandler({ access: 'user', returns: returns<SearchResponseDto>(), query: SearchDto }, ({ auth, query }) =>
  searchText(auth, query),
);
