import { SearchAssetsDto } from '#shared/dto/v1/search.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { type SearchResponseDto, searchMetadata } from '#shared/services/search.service.ts';

// The filters of GET /assets, as a JSON body (Immich's MetadataSearchDto); 200, not 201.
export const handler = httpHandler(
  { access: 'user', returns: returns<SearchResponseDto>(), body: SearchAssetsDto, status: 200 },
  ({ auth, body }) => searchMetadata(auth, body),
);
