/**
 * Immich v3's duplicate routes (`@immich/sdk` 3.2.2: DuplicateResponseDto, DuplicateResolveDto):
 * the requests read into the service's inputs, the groups shaped as Immich answers them
 * (docs/immich-compatibility.md, "Duplicates").
 */
import * as v from 'valibot';
import type { DuplicateView, ResolveGroup } from '../../model/duplicate.ts';
import { limits } from '../../model/limits.ts';
import { type AssetResponseDto, mapAssetV3 } from './asset.response.ts';
import { object, upTo, uuid, uuidsUpTo } from './common.ts';
import { mapTagV3 } from './tag.ts';

/** POST /duplicates/resolve: at least one group, each with the ids kept and trashed. */
export const DuplicateResolveDto = v.pipe(
  object({
    groups: upTo(
      limits.bulkGroups,
      v.pipe(
        v.array(
          object({ duplicateId: uuid, keepAssetIds: uuidsUpTo(limits.bulkAssets), trashAssetIds: uuidsUpTo(limits.bulkAssets) }),
          '$property must be an array',
        ),
        v.minLength(1, '$property must contain at least 1 element'),
      ),
    ),
  }),
  v.transform(({ groups }): ResolveGroup[] => groups),
);

export interface DuplicateResponseDto {
  duplicateId: string;
  assets: AssetResponseDto[];
  suggestedKeepAssetIds: string[];
}

/** Immich's web client's count of an asset's EXIF values that are set (its tie-break). */
const exifCount = (asset: AssetResponseDto): number => Object.values(asset.exifInfo ?? {}).filter(Boolean).length;

/** Immich's suggestion: the largest file; of equal sizes, the one with the most EXIF values (the last so sorted). */
export const suggestKeep = (assets: readonly AssetResponseDto[]): string[] => {
  const size = (asset: AssetResponseDto) => asset.exifInfo?.fileSizeInByte ?? 0;
  const largest = Math.max(0, ...assets.map(size));
  const best = assets
    .filter((asset) => size(asset) === largest)
    .toSorted((a, b) => exifCount(a) - exifCount(b))
    .at(-1);
  return best ? [best.id] : [];
};

export const mapDuplicate = (view: DuplicateView, callerId: string): DuplicateResponseDto => {
  const assets = view.assets.map((asset) => ({
    ...mapAssetV3(asset, { callerId, withExif: true }),
    tags: (view.tags.get(asset.id) ?? []).map(mapTagV3),
  }));
  return { duplicateId: view.duplicateId, assets, suggestedKeepAssetIds: suggestKeep(assets) };
};
