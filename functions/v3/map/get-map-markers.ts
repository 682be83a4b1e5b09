import type { MapMarkerResponseDto } from '#shared/dto/common/map.response.ts';
import { MapMarkerQuery } from '#shared/dto/v3/map.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { jsonAnswer } from '#shared/http/json-answer.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { RawResponse } from '#shared/http/response.ts';
import { getMapMarkersV3 } from '#shared/services/map.service.ts';

// Every marker of a library is one answer (about 150 bytes each: 40,000 pass Lambda's 6 MB), so a
// large one goes out gzip-compressed (shared/http/json-answer.ts; docs/places.md, "The map's markers").
export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'map.read', returns: returns<RawResponse>(), query: MapMarkerQuery },
  async ({ auth, query, event }) => jsonAnswer<MapMarkerResponseDto[]>(event, await getMapMarkersV3(auth, query)),
);
