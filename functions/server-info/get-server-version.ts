import type { ServerVersionResponseDto } from '#shared/dto/v1/server-info.ts';
import { serverVersion } from '#shared/dto/v1/server-info.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';

export const handler = publicHandler({ returns: returns<ServerVersionResponseDto>() }, () => serverVersion);
