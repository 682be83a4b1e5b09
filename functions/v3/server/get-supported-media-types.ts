import type { ServerMediaTypesResponseDto } from '#shared/domain/media-types.ts';
import { mediaTypes } from '#shared/domain/media-types.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';

// The same answer as v1.100's: the extensions this server takes, whichever API a client speaks.
export const handler = publicHandler({ generation: 'v3', returns: returns<ServerMediaTypesResponseDto>() }, () => mediaTypes);
