import { mapAsset } from '#shared/dto/v1/asset.response.ts';
import { type SearchResponseDto, searchResponse } from '#shared/dto/v1/search.response.ts';
import { SearchDto } from '#shared/dto/v1/search.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { searchText } from '#shared/services/search.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'asset.read', returns: returns<SearchResponseDto>(), query: SearchDto },
  async ({ auth, query }) =>
    searchResponse(
      (await searchText(auth, query)).map((asset) => mapAsset(asset, { callerId: auth.user.id, withExif: true, withSmartInfo: true })),
      null,
    ),
);
