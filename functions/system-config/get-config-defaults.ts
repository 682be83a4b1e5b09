import type { SystemConfig } from '#shared/domain/system-config.ts';
import { mapConfigV1 } from '#shared/dto/v1/system-config.response.ts';
import { clientGeneration } from '#shared/http/generation.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getConfigDefaults } from '#shared/services/config.reader.ts';

// Both generations' path, answered as GET /system-config is.
export const handler = httpHandler(
  { access: 'admin', permission: 'systemConfig.read', returns: returns<SystemConfig | Record<string, unknown>>() },
  ({ event }) => (clientGeneration(event) === 'v1' ? mapConfigV1(getConfigDefaults()) : getConfigDefaults()),
);
