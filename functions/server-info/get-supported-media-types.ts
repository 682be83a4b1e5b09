import type { ServerMediaTypesResponseDto } from '#shared/domain/media-types.ts';
import { mediaTypes } from '#shared/domain/media-types.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';

export const handler = publicHandler({ returns: returns<ServerMediaTypesResponseDto>() }, () => mediaTypes);
