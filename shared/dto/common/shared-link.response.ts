/** What both generations answer alike of a shared link's assets. */
import type { AssetIdResult } from '../../model/shared-link.ts';

/** `AssetIdsResponseDto`: the per-asset outcome of adding to or removing from a link. */
export type AssetIdsResponseDto = AssetIdResult;
