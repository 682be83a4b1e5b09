import { MapMarkerQuery } from '#shared/dto/v3/map.ts';
import { streamingHandler } from '#shared/http/stream-handler.ts';
import { getMapMarkersV3 } from '#shared/services/map.service.ts';

// Every marker of a library is one answer (about 150 bytes each), past Lambda's 6 MB for a large
// one: streamed as it is read, gzip-compressed when accepted (docs/places.md, "The map").
export const handler = streamingHandler(
  { generation: 'v3', access: 'user', permission: 'map.read', query: MapMarkerQuery, contentType: 'application/json; charset=utf-8' },
  async ({ auth, query }) => getMapMarkersV3(auth, query),
);
