import type { ServerInfoResponseDto } from '#shared/domain/server-info.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getServerInfo } from '#shared/services/server-info.service.ts';

export const handler = httpHandler({ access: 'user', returns: returns<ServerInfoResponseDto>() }, ({ auth }) => getServerInfo(auth));
