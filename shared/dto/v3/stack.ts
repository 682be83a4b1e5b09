/**
 * Immich v3.2's stacks (`@immich/sdk` 3.2.2: StackCreateDto, StackSearchDto, StackUpdateDto,
 * StackResponseDto), answered with v3's assets.
 */
import * as v from 'valibot';
import type { AssetRecord } from '../../model/asset.ts';
import { limits } from '../../model/limits.ts';
import type { StackView } from '../../model/stack.ts';
import { dto, uuid as uuidParam } from '../common.ts';
import { type AssetResponseDto, mapAssetV3 } from './asset.response.ts';
import { object, uuid, uuidsUpTo } from './common.ts';

/** `assetIds`: at least two (Immich's `@ArrayMinSize(2)`); the first leads the stack. */
export const StackCreateDto = object({
  assetIds: v.pipe(uuidsUpTo(limits.bulkAssets), v.minLength(2, '$property must contain at least 2 elements')),
});

export const StackSearchDto = object({ primaryAssetId: v.optional(uuid) });

export const StackUpdateDto = object({ primaryAssetId: v.optional(uuid) });

/** DELETE /stacks/:id/assets/:assetId. */
export const StackAssetParams = dto({ id: uuidParam(), assetId: uuidParam() });

export interface StackResponseDto {
  id: string;
  primaryAssetId: string;
  assets: AssetResponseDto[];
}

/** Immich's `mapStack`: the stack with its assets as v3's, with EXIF. */
export const mapStack = ({ stack, assets }: StackView<AssetRecord>, callerId: string): StackResponseDto => ({
  id: stack.id,
  primaryAssetId: stack.primaryAssetId,
  assets: assets.map((asset) => mapAssetV3(asset, { callerId, withExif: true })),
});
