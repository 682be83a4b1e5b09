import { mapServerInfo, type ServerInfoResponseDto } from '#shared/dto/common/server-info.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getServerInfo } from '#shared/services/server-info.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'server.storage', returns: returns<ServerInfoResponseDto>() },
  async ({ auth }) => mapServerInfo(await getServerInfo(auth)),
);
