import { type ServerVersionResponseDto, serverVersionV3 } from '#shared/dto/v3/server.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';

export const handler = publicHandler({ generation: 'v3', returns: returns<ServerVersionResponseDto>() }, () => serverVersionV3);
