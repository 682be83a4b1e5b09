import { configDefaults } from '#shared/domain/system-config.ts';
import { mapPublicConfig, type PublicConfigDto } from '#shared/dto/v3/system-config.response.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';

// The defaults of the public fields (OAuth's, password login, the login message, the theme), which
// neither the configuration's views nor its environment overrides touch: read from the domain, not
// the configuration reader, whose repository needs TABLE_NAME at import, which this row (no data)
// is not given deployed (test/infra/bundle.test.ts, "start without a table").
export const handler = publicHandler({ generation: 'v3', returns: returns<PublicConfigDto>() }, () => mapPublicConfig(configDefaults));
