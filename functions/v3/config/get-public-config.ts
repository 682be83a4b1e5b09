import { mapPublicConfig, type PublicConfigDto } from '#shared/dto/v3/system-config.response.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { readOAuthConfig } from '#shared/services/oauth-config.ts';

export const handler = publicHandler({ generation: 'v3', returns: returns<PublicConfigDto>() }, async () =>
  mapPublicConfig(await readOAuthConfig()),
);
