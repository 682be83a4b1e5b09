import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { UpdateAssetDto } from '#shared/dto/v1/asset.ts';
import { MapMarkerDto } from '#shared/dto/v1/map.ts';
import { SearchAssetsDto } from '#shared/dto/v1/search.ts';
import { AssetSearchDto } from '#shared/dto/v1/sync.ts';
import { AssetStatsDto, TimeBucketDto } from '#shared/dto/v1/timeline.ts';
import { MapMarkerQuery } from '#shared/dto/v3/map.ts';
import { MetadataSearchDtoV3 } from '#shared/dto/v3/search.ts';
import { TimeBucketDtoV3 } from '#shared/dto/v3/timeline.ts';

/**
 * One core, no generation (docs/architecture.md): each generation's DTO reads its request into the
 * model, so the services see visibilities and never v1.100's `isArchived`/`isVisible` flags.
 */
describe("each generation's DTO reads its archive flags into the model's visibility", () => {
  it('map markers: v1.100 absent both, true the archive, false the timeline; v3 true both, else the timeline', () => {
    expect(v.parse(MapMarkerDto, {})).toEqual({ visibilities: ['timeline', 'archive'] });
    expect(v.parse(MapMarkerDto, { isArchived: 'true' }).visibilities).toEqual(['archive']);
    expect(v.parse(MapMarkerDto, { isArchived: 'false' }).visibilities).toEqual(['timeline']);
    expect(v.parse(MapMarkerQuery, { isArchived: 'true' }).visibilities).toEqual(['timeline', 'archive']);
    expect(v.parse(MapMarkerQuery, {})).toEqual({ visibilities: ['timeline'] });
  });

  it("timeline: v1.100's isArchived a visibility, asking for the archive unless false; v3 only by naming it", () => {
    expect(v.parse(TimeBucketDto, { size: 'MONTH' })).toMatchObject({ visibility: undefined, archiveAsked: true });
    expect(v.parse(TimeBucketDto, { size: 'MONTH', isArchived: 'false' })).toMatchObject({ visibility: 'timeline', archiveAsked: false });
    expect(v.parse(TimeBucketDto, { size: 'MONTH', isArchived: 'true' })).toMatchObject({ visibility: 'archive', archiveAsked: true });
    expect(v.parse(TimeBucketDto, { size: 'MONTH' })).not.toHaveProperty('isArchived');
    expect(v.parse(TimeBucketDtoV3, {})).toMatchObject({ archiveAsked: false, visibilityNamed: false });
    expect(v.parse(TimeBucketDtoV3, { visibility: 'archive' })).toMatchObject({ archiveAsked: true, visibilityNamed: true });
    expect(v.parse(AssetStatsDto, { isArchived: 'true' })).toEqual({ visibility: 'archive' });
  });

  it("v1.100's asset list and asset edits", () => {
    expect(v.parse(AssetSearchDto, { isArchived: 'true' })).toMatchObject({ visibility: 'archive' });
    expect(v.parse(AssetSearchDto, {})).not.toHaveProperty('isArchived');
    expect(v.parse(UpdateAssetDto, { isArchived: false })).toMatchObject({ listedVisibility: 'timeline' });
    expect(v.parse(UpdateAssetDto, { isFavorite: true })).toMatchObject({ listedVisibility: undefined });
    expect(v.parse(UpdateAssetDto, { isArchived: true })).not.toHaveProperty('isArchived');
  });

  it("metadata search: v1.100's isVisible, isArchived and withArchived; v3's visibility", () => {
    expect(v.parse(SearchAssetsDto, {}).visibilities).toEqual(['timeline', 'hidden']);
    expect(v.parse(SearchAssetsDto, { withArchived: 'true' }).visibilities).toEqual(['timeline', 'archive', 'hidden']);
    expect(v.parse(SearchAssetsDto, { isArchived: 'true', isVisible: 'true' }).visibilities).toEqual(['archive']);
    expect(v.parse(SearchAssetsDto, { isVisible: 'false', withArchived: 'true' }).visibilities).toEqual(['hidden']);
    expect(v.parse(SearchAssetsDto, { isArchived: 'false', isVisible: 'true' }).visibilities).toEqual(['timeline']);
    expect(v.parse(MetadataSearchDtoV3, {}).visibilities).toEqual(['timeline', 'archive']);
    expect(v.parse(MetadataSearchDtoV3, { visibility: 'locked' }).visibilities).toEqual(['locked']);
  });
});
