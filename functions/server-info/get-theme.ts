import type { ServerThemeDto } from '#shared/domain/server-info.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { getTheme } from '#shared/services/server-info.service.ts';

export const handler = publicHandler({ returns: returns<ServerThemeDto>() }, () => getTheme());
