import type { MapMarkerResponseDto } from '#shared/dto/common/map.response.ts';
import { MapMarkerDto } from '#shared/dto/v1/map.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { jsonAnswer } from '#shared/http/json-answer.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { RawResponse } from '#shared/http/response.ts';
import { getMapMarkers } from '#shared/services/map.service.ts';

// A large answer gzip-compressed, as v3's (functions/v3/map/get-map-markers.ts).
export const handler = httpHandler(
  { access: 'user', permission: 'asset.read', returns: returns<RawResponse>(), query: MapMarkerDto },
  async ({ auth, query, event }) => jsonAnswer<MapMarkerResponseDto[]>(event, await getMapMarkers(auth, query)),
);
