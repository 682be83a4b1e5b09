import { mapPublicConfig, type PublicConfigDto } from '#shared/dto/v3/system-config.response.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { getConfigDefaults } from '#shared/services/config.reader.ts';

export const handler = publicHandler({ generation: 'v3', returns: returns<PublicConfigDto>() }, () => mapPublicConfig(getConfigDefaults()));
