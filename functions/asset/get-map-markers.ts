import { MapMarkerDto } from '#shared/dto/v1/map.ts';
import { streamingHandler } from '#shared/http/stream-handler.ts';
import { getMapMarkers } from '#shared/services/map.service.ts';

// Streamed, as v3's (functions/v3/map/get-map-markers.ts; docs/places.md, "The map").
export const handler = streamingHandler(
  { access: 'user', permission: 'asset.read', query: MapMarkerDto, contentType: 'application/json; charset=utf-8' },
  async ({ auth, query }) => getMapMarkers(auth, query),
);
