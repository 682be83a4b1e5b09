import type { MapMarkerResponseDto } from '#shared/dto/common/map.response.ts';
import { MapMarkerDto } from '#shared/dto/v1/map.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getMapMarkers } from '#shared/services/map.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'asset.read', returns: returns<MapMarkerResponseDto[]>(), query: MapMarkerDto },
  ({ auth, query }) => getMapMarkers(auth, query),
);
