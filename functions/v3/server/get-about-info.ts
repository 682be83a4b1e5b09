import { aboutV3, type ServerAboutResponseDto } from '#shared/dto/v3/server.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { isServerLicensed } from '#shared/services/license.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'server.about', returns: returns<ServerAboutResponseDto>() },
  async () => ({ ...aboutV3, licensed: await isServerLicensed() }),
);
