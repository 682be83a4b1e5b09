import type { TimeBucketResponseDto } from '#shared/dto/v1/timeline.response.ts';
import { TimeBucketDto } from '#shared/dto/v1/timeline.ts';
import { returns } from '#shared/http/pipeline.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { getTimeBuckets } from '#shared/services/timeline.service.ts';

// A shared-link route too (Immich's isShared): a visitor reads the buckets of their link's album.
export const handler = sharedHandler(
  { access: 'shared', permission: 'asset.read', returns: returns<TimeBucketResponseDto[]>(), query: TimeBucketDto },
  ({ auth, query }) => getTimeBuckets(auth, query),
);
