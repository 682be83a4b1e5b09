import { mapExplore, type SearchExploreResponseDto } from '#shared/dto/v1/search.response.ts';
import { mapExploreV3, type SearchExploreResponseDtoV3 } from '#shared/dto/v3/search.ts';
import { clientGeneration } from '#shared/http/generation.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getExploreData } from '#shared/services/search.service.ts';

// Both generations' path: a v3 client the request tells (its apps, the v3 web app) gets v3's
// assets, every other v1.100's (docs/immich-compatibility.md, "Paths both generations share").
export const handler = httpHandler(
  { access: 'user', permission: 'asset.read', returns: returns<SearchExploreResponseDto[] | SearchExploreResponseDtoV3[]>() },
  async ({ auth, event }) => {
    const cities = await getExploreData(auth);
    return clientGeneration(event) === 'v3' ? mapExploreV3(cities, auth.user.id) : mapExplore(cities, auth.user.id);
  },
);
