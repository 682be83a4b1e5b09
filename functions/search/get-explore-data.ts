import { mapExplore, type SearchExploreResponseDto } from '#shared/dto/v1/search.response.ts';
import { mapExploreV3, type SearchExploreResponseDtoV3 } from '#shared/dto/v3/search.ts';
import { isV3App } from '#shared/http/generation.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getExploreData } from '#shared/services/search.service.ts';

// Both generations' path: v3's apps (which parse v3's asset) get v3's assets; the rest v1.100's
// (v3's web app reads only each asset's id here; docs/immich-compatibility.md).
export const handler = httpHandler(
  { access: 'user', permission: 'asset.read', returns: returns<SearchExploreResponseDto[] | SearchExploreResponseDtoV3[]>() },
  async ({ auth, event }) => {
    const cities = await getExploreData(auth);
    return isV3App(event) ? mapExploreV3(cities, auth.user.id) : mapExplore(cities, auth.user.id);
  },
);
