import type { AssetResponseDto, SanitizedAssetResponseDto } from '#shared/dto/v1/asset.response.ts';
import { mapBucketAssets } from '#shared/dto/v1/timeline.response.ts';
import { TimeBucketAssetDto } from '#shared/dto/v1/timeline.ts';
import { returns } from '#shared/http/pipeline.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { getTimeBucket } from '#shared/services/timeline.service.ts';

// A shared-link route too: a visitor reads their link's album, without metadata unless the link shows it.
export const handler = sharedHandler(
  {
    access: 'shared',
    permission: 'asset.read',
    returns: returns<(AssetResponseDto | SanitizedAssetResponseDto)[]>(),
    query: TimeBucketAssetDto,
  },
  async ({ auth, query }) => mapBucketAssets(await getTimeBucket(auth, query), auth.user.id),
);
