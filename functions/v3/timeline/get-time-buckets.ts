import { mapBucketsV3, TimeBucketDtoV3, type TimeBucketsResponseDto } from '#shared/dto/v3/timeline.ts';
import { returns } from '#shared/http/pipeline.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { getTimeBuckets } from '#shared/services/timeline.service.ts';

// The web app's grids (the mobile app reads the sync stream); a visitor reads their link's album.
export const handler = sharedHandler(
  { generation: 'v3', access: 'shared', permission: 'asset.read', returns: returns<TimeBucketsResponseDto[]>(), query: TimeBucketDtoV3 },
  async ({ auth, query }) => mapBucketsV3(await getTimeBuckets(auth, query)),
);
