import { mapServerInfo, type ServerInfoResponseDto } from '#shared/dto/common/server-info.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getServerInfo } from '#shared/services/server-info.service.ts';

// v1.100's /server-info: a bucket has no disk, so the caller's usage against their quota or all the server stores (docs/immich-compatibility.md).
export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'server.storage', returns: returns<ServerInfoResponseDto>() },
  async ({ auth }) => mapServerInfo(await getServerInfo(auth)),
);
