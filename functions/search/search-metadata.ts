import { mapSearchHit, type SearchResponseDto, searchResponse } from '#shared/dto/v1/search.response.ts';
import { SearchAssetsDto } from '#shared/dto/v1/search.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { searchMetadata } from '#shared/services/search.service.ts';

// The filters of GET /assets, as a JSON body (Immich's MetadataSearchDto); 200, not 201.
export const handler = httpHandler(
  { access: 'user', permission: 'asset.read', returns: returns<SearchResponseDto>(), body: SearchAssetsDto, status: 200 },
  async ({ auth, body }) => {
    const page = await searchMetadata(auth, body);
    const items = page.items.map((hit) => mapSearchHit(hit, auth.user.id, body.withExif === true));
    return searchResponse(items, page.hasNextPage ? String((body.page ?? 1) + 1) : null);
  },
);
