import type { SystemConfig } from '#shared/domain/system-config.ts';
import { mapConfigV1 } from '#shared/dto/v1/system-config.response.ts';
import { clientGeneration } from '#shared/http/generation.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getOAuthConfig } from '#shared/services/oauth-config.ts';

// Both generations' path: a v1.100 client the request tells gets v1.100's SystemConfigDto, every
// other every setting of both (docs/immich-compatibility.md, "Paths both generations share").
export const handler = httpHandler(
  { access: 'admin', permission: 'systemConfig.read', returns: returns<SystemConfig | Record<string, unknown>>() },
  async ({ event }) => {
    const config = await getOAuthConfig();
    return clientGeneration(event) === 'v1' ? mapConfigV1(config) : config;
  },
);
