import type { MapMarkerResponseDto } from '#shared/dto/common/map.response.ts';
import { MapMarkerQuery } from '#shared/dto/v3/map.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getMapMarkersV3 } from '#shared/services/map.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'map.read', returns: returns<MapMarkerResponseDto[]>(), query: MapMarkerQuery },
  ({ auth, query }) => getMapMarkersV3(auth, query),
);
