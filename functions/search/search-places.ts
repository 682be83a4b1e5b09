import { mapPlace, type PlacesResponseDto, SearchPlacesDto } from '#shared/dto/v1/map.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { searchPlaces } from '#shared/services/places.service.ts';

// Both generations' path and answer: places whose name starts with `name` (docs/places.md).
export const handler = httpHandler(
  { access: 'user', permission: 'asset.read', returns: returns<PlacesResponseDto[]>(), query: SearchPlacesDto },
  ({ query }) => searchPlaces(query.name).map(mapPlace),
);
