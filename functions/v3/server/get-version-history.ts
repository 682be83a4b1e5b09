import { type ServerVersionHistoryResponseDto, versionHistoryV3 } from '#shared/dto/v3/server.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { getVersionHistory } from '#shared/services/server-info.service.ts';

export const handler = publicHandler({ generation: 'v3', returns: returns<ServerVersionHistoryResponseDto[]>() }, async () =>
  versionHistoryV3(await getVersionHistory()),
);
