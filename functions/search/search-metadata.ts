import * as v from 'valibot';
import { mapSearchHit, type SearchResponseDto, searchResponse } from '#shared/dto/v1/search.response.ts';
import { SearchAssetsDto } from '#shared/dto/v1/search.ts';
import { isV3Search, MetadataSearchDtoV3, mapSearchV3, type SearchResponseDtoV3 } from '#shared/dto/v3/search.ts';
import { parseOrThrow } from '#shared/dto/validate.ts';
import { isV3App } from '#shared/http/generation.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { searchMetadata } from '#shared/services/search.service.ts';

// The filters of GET /assets as a JSON body (Immich's MetadataSearchDto); 200, not 201. Both
// generations' path: v3's clients always send `visibility` (or another field only v3 has), or
// are v3's apps; they get v3's request and answer, the rest v1.100's (docs/immich-compatibility.md).
export const handler = httpHandler(
  { access: 'user', permission: 'asset.read', returns: returns<SearchResponseDto | SearchResponseDtoV3>(), body: v.unknown(), status: 200 },
  async ({ auth, body, event }) => {
    if (isV3Search(body) || isV3App(event)) {
      const filters = parseOrThrow(MetadataSearchDtoV3, body);
      const page = await searchMetadata(auth, filters);
      return mapSearchV3(page.items, auth.user.id, filters.withExif === true, page.hasNextPage ? String((filters.page ?? 1) + 1) : null);
    }
    const filters = parseOrThrow(SearchAssetsDto, body);
    const page = await searchMetadata(auth, filters);
    const items = page.items.map((hit) => mapSearchHit(hit, auth.user.id, filters.withExif === true));
    return searchResponse(items, page.hasNextPage ? String((filters.page ?? 1) + 1) : null);
  },
);
