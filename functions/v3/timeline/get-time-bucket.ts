import { mapBucketAssetsV3, TimeBucketAssetDtoV3, type TimeBucketAssetResponseDto } from '#shared/dto/v3/timeline.ts';
import { returns } from '#shared/http/pipeline.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { getTimeBucket } from '#shared/services/timeline.service.ts';

export const handler = sharedHandler(
  {
    generation: 'v3',
    access: 'shared',
    permission: 'asset.read',
    returns: returns<TimeBucketAssetResponseDto>(),
    query: TimeBucketAssetDtoV3,
  },
  async ({ auth, query }) => mapBucketAssetsV3(await getTimeBucket(auth, query), auth.user.id, query),
);
