import type { SystemConfig } from '#shared/domain/system-config.ts';
import { SystemConfigBody } from '#shared/dto/common/system-config.ts';
import { isV1ConfigBody, mapConfigV1 } from '#shared/dto/v1/system-config.response.ts';
import { clientGeneration } from '#shared/http/generation.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { updateConfig } from '#shared/services/system-config.service.ts';

/**
 * Both generations' path (v3's `updateConfig`): one body with both generations' settings
 * (docs/immich-compatibility.md, "System configuration"). A v1.100 client sends and gets v1.100's
 * shape: one the request tells (its web app), or a body of v1.100's settings alone, which is what
 * a v1.100 client sends back ("Paths both generations share"); every other gets every setting.
 */
export const handler = httpHandler(
  {
    publish,
    access: 'admin',
    permission: 'systemConfig.update',
    returns: returns<SystemConfig | Record<string, unknown>>(),
    body: SystemConfigBody,
  },
  async ({ body, event }) => {
    const generation = clientGeneration(event);
    if (generation === 'v3' || (generation === undefined && !isV1ConfigBody(body))) return updateConfig(body);
    return mapConfigV1(await updateConfig(body, 'v1'));
  },
);
