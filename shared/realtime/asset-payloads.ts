import { mapAssetDetail } from '../dto/v1/asset.response.ts';
import { mapAssetDetailV3 } from '../dto/v3/asset.response.ts';
import { mapSyncAsset, mapSyncAssetEdit, mapSyncExif } from '../dto/v3/sync.response.ts';
import type { AssetDetail, AssetRecord } from '../model/asset.ts';
import type { Generation } from '../model/realtime.ts';
import { eventPacket } from './engine-io.ts';

/** The asset as the app's sync stream sends it (`SyncAssetV2`): its owner is the one told, so its own favourite. */
const syncAsset = (asset: AssetRecord) => mapSyncAsset(asset, { favorite: true });

/** `on_upload_success` in the generation's AssetResponseDto; for v3 also `AssetUploadReadyV2`, the sync stream's asset and EXIF. */
export const uploaded = (detail: AssetDetail, ownerId: string, generation: Generation): string[] =>
  generation === 'v1'
    ? [eventPacket('on_upload_success', mapAssetDetail(detail, ownerId))]
    : [
        eventPacket('on_upload_success', mapAssetDetailV3(detail, ownerId)),
        eventPacket('AssetUploadReadyV2', { asset: syncAsset(detail.asset), exif: mapSyncExif(detail.asset) }),
      ];

/** `AssetEditReadyV2`: the asset and its edits in order (`[]` once removed). */
export const edited = (asset: AssetRecord): string[] => [
  eventPacket('AssetEditReadyV2', {
    asset: syncAsset(asset),
    edit: asset.edits.map((each, sequence) => mapSyncAssetEdit(asset.id, each, sequence)),
  }),
];

/** `on_asset_update` in the generation's AssetResponseDto. */
export const updated = (detail: AssetDetail, ownerId: string, generation: Generation): string[] => [
  eventPacket('on_asset_update', generation === 'v3' ? mapAssetDetailV3(detail, ownerId) : mapAssetDetail(detail, ownerId)),
];
