import type { ReverseGeocodingStateResponseDto } from '#shared/dto/v3/server.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { reverseGeocodingState } from '#shared/services/places.service.ts';

// When the places index was built, as Immich answers when its geodata was imported (docs/places.md).
export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'systemMetadata.read', returns: returns<ReverseGeocodingStateResponseDto>() },
  () => reverseGeocodingState(),
);
