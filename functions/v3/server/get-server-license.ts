import type { LicenseResponseDto } from '#shared/dto/v3/license.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getServerLicense } from '#shared/services/license.service.ts';

// Without one: Immich's 404, which the web app reads as unlicensed.
export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'serverLicense.read', returns: returns<LicenseResponseDto>() },
  () => getServerLicense(),
);
