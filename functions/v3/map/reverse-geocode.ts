import { type MapReverseGeocodeResponseDto, ReverseGeocodeQuery } from '#shared/dto/v3/map.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { placeNamesAt } from '#shared/services/places.service.ts';

// Immich answers a list of one (its nulls when no place is within the distance).
export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'map.search',
    returns: returns<MapReverseGeocodeResponseDto[]>(),
    query: ReverseGeocodeQuery,
  },
  async ({ query }) => [await placeNamesAt(query.lat, query.lon)],
);
