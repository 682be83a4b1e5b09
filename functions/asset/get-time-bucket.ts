import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { AssetResponseDto, SanitizedAssetResponseDto } from '#shared/mappers/asset.mapper.ts';
import { TimeBucketAssetDto } from '#shared/schemas/timeline.ts';
import { getTimeBucket } from '#shared/services/timeline.service.ts';

// A shared-link route too: a visitor reads their link's album, without metadata unless the link shows it.
export const handler = httpHandler(
  { access: 'shared', returns: returns<(AssetResponseDto | SanitizedAssetResponseDto)[]>(), query: TimeBucketAssetDto },
  ({ auth, query }) => getTimeBucket(auth, query),
);
