import type { MapMarkerResponseDto } from '#shared/dto/common/map.response.ts';
import { IdParams } from '#shared/dto/common.ts';
import { returns } from '#shared/http/pipeline.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { getAlbumMapMarkers } from '#shared/services/map.service.ts';

// A shared-link route too: a visitor reads their link's album's markers (none when it hides metadata).
export const handler = sharedHandler(
  { generation: 'v3', access: 'shared', permission: 'album.read', returns: returns<MapMarkerResponseDto[]>(), params: IdParams },
  ({ auth, params }) => getAlbumMapMarkers(auth, params.id),
);
