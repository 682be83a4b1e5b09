import * as v from 'valibot';
import { mapSearchHit, type SearchResponseDto, searchResponse } from '#shared/dto/v1/search.response.ts';
import { SmartSearchDto } from '#shared/dto/v1/search.ts';
import { isV3Search, mapSearchV3, type SearchResponseDtoV3, SmartSearchDtoV3 } from '#shared/dto/v3/search.ts';
import { parseOrThrow } from '#shared/dto/validate.ts';
import { clientGeneration } from '#shared/http/generation.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { searchSmart } from '#shared/services/smart-search.service.ts';

/** A body only v3's SmartSearchDto reads: a v3 field, or a query by asset or language (v1.100 has neither). */
const isV3Smart = (body: unknown): boolean =>
  isV3Search(body) || (typeof body === 'object' && body !== null && ('queryAssetId' in body || 'language' in body));

// Both generations' POST /search/smart (docs/search.md): v3's clients (a v3 field, or v3's apps)
// get v3's request and answer, the rest v1.100's (docs/immich-compatibility.md, "Smart search").
export const handler = httpHandler(
  { access: 'user', permission: 'asset.read', returns: returns<SearchResponseDto | SearchResponseDtoV3>(), body: v.unknown(), status: 200 },
  async ({ auth, body, event }) => {
    if (isV3Smart(body) || clientGeneration(event) === 'v3') {
      const request = parseOrThrow(SmartSearchDtoV3, body);
      const page = await searchSmart(auth, request);
      return mapSearchV3(page.items, auth.user.id, request.filters.withExif === true, page.hasNextPage ? String(request.page + 1) : null);
    }
    const request = parseOrThrow(SmartSearchDto, body);
    const page = await searchSmart(auth, request);
    const items = page.items.map((hit) => mapSearchHit(hit, auth.user.id, request.filters.withExif === true));
    return searchResponse(items, page.hasNextPage ? String(request.page + 1) : null);
  },
);
