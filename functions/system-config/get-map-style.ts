import { MapThemeDto } from '#shared/dto/v1/map.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getMapStyle } from '#shared/services/map.service.ts';

// Any signed-in user (the map page asks for it), not only an admin.
export const handler = httpHandler(
  { access: 'user', permission: 'asset.read', returns: returns<unknown>(), query: MapThemeDto },
  ({ query }) => getMapStyle(query.theme),
);
