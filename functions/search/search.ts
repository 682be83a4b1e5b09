import { Invalid } from '#shared/core/errors.ts';
import { mapAsset } from '#shared/dto/v1/asset.response.ts';
import { type SearchResponseDto, searchResponse } from '#shared/dto/v1/search.response.ts';
import { SearchDto, smartOfTextSearch } from '#shared/dto/v1/search.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { searchText } from '#shared/services/search.service.ts';
import { searchSmart } from '#shared/services/smart-search.service.ts';

// v1.100's deprecated search: words (`q`), or with `clip` or `smart` a smart search (docs/search.md), paged as Immich's.
export const handler = httpHandler(
  { access: 'user', permission: 'asset.read', returns: returns<SearchResponseDto>(), query: SearchDto },
  async ({ auth, query }) => {
    if (query.smart || query.clip) {
      const request = smartOfTextSearch(query);
      if (!request.query) throw new Invalid('Missing query');
      const page = await searchSmart(auth, request);
      return searchResponse(
        page.items.map((hit) => mapAsset(hit.asset, { callerId: auth.user.id, withExif: true, withSmartInfo: true })),
        page.hasNextPage ? String(request.page + 1) : null,
      );
    }
    return searchResponse(
      (await searchText(auth, query)).map((asset) => mapAsset(asset, { callerId: auth.user.id, withExif: true, withSmartInfo: true })),
      null,
    );
  },
);
