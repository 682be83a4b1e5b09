import type { AssetResponseDto } from '#shared/dto/v3/asset.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';

// Duplicates are what Immich's duplicate detection (machine learning, off here) groups: none.
export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'duplicate.read',
    returns: returns<{ duplicateId: string; assets: AssetResponseDto[] }[]>(),
  },
  () => [],
);
