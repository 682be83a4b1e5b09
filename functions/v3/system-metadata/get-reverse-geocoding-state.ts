import type { ReverseGeocodingStateResponseDto } from '#shared/dto/v3/server.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';

// No geocoding data is imported here (docs/immich-compatibility.md): Immich's answer before its first import.
export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'systemMetadata.read', returns: returns<ReverseGeocodingStateResponseDto>() },
  () => ({ lastUpdate: null, lastImportFileName: null }),
);
