import { mapAssetDetail } from '../dto/v1/asset.response.ts';
import { serverVersion } from '../dto/v1/server-info.ts';
import { mapAssetDetailV3 } from '../dto/v3/asset.response.ts';
import { serverVersionV3 } from '../dto/v3/server.ts';
import { mapSyncAsset, mapSyncAssetEdit, mapSyncExif } from '../dto/v3/sync.response.ts';
import type { AssetDetail, AssetRecord } from '../model/asset.ts';
import type { Generation, LiveEvent } from '../model/realtime.ts';
import { eventPacket } from './engine-io.ts';

/**
 * Each event as Immich's apps receive it, in a connection's generation (docs/immich-compatibility.md,
 * "Realtime"): the edge's own mappers, as the routes' handlers use them (a service returns domain
 * results and knows no shape). An event whose payload is an asset's view loads it once, however
 * many connections are told.
 */
export type Payloads = (event: LiveEvent, generation: Generation) => Promise<string[]>;

/** `on_server_version`, as each generation's `/server…/version` answers. */
export const serverVersionFrame = (generation: Generation): string =>
  eventPacket('on_server_version', generation === 'v3' ? serverVersionV3 : serverVersion);

/** The asset as the app's sync stream sends it (`SyncAssetV2`): its owner is the one told, so its own favourite. */
const syncAsset = (asset: AssetRecord) => mapSyncAsset(asset, { favorite: true });

/** A payload builder for one publication: what each event loads is loaded once. */
export const payloads = (): Payloads => {
  const loaded = new Map<LiveEvent, Promise<AssetDetail | AssetRecord | undefined>>();
  const load = <T extends AssetDetail | AssetRecord>(event: LiveEvent, loader: () => Promise<T | undefined>): Promise<T | undefined> => {
    let found = loaded.get(event);
    if (!found) {
      found = loader();
      loaded.set(event, found);
    }
    return found as Promise<T | undefined>;
  };
  return async (event, generation) => {
    switch (event.kind) {
      case 'asset-uploaded': {
        const detail = await load(event, event.load);
        if (!detail) return [];
        if (generation === 'v1') return [eventPacket('on_upload_success', mapAssetDetail(detail, event.ownerId))];
        return [
          eventPacket('on_upload_success', mapAssetDetailV3(detail, event.ownerId)),
          eventPacket('AssetUploadReadyV2', { asset: syncAsset(detail.asset), exif: mapSyncExif(detail.asset) }),
        ];
      }
      case 'asset-edited': {
        // v1.100 has no photo editor: only v3's apps wait for this.
        if (generation === 'v1') return [];
        const asset = await load(event, event.load);
        if (!asset) return [];
        const edit = asset.edits.map((each, sequence) => mapSyncAssetEdit(asset.id, each, sequence));
        return [eventPacket('AssetEditReadyV2', { asset: syncAsset(asset), edit })];
      }
      case 'asset-updated': {
        const detail = await load(event, event.load);
        if (!detail) return [];
        const asset = generation === 'v3' ? mapAssetDetailV3(detail, event.ownerId) : mapAssetDetail(detail, event.ownerId);
        return [eventPacket('on_asset_update', asset)];
      }
      case 'assets-trashed':
        return [eventPacket('on_asset_trash', event.assetIds)];
      case 'asset-deleted':
        return [eventPacket('on_asset_delete', event.assetId)];
      case 'assets-restored':
        return [eventPacket('on_asset_restore', event.assetIds)];
      case 'stacks-changed':
        return [eventPacket('on_asset_stack_update')];
      case 'album-changed':
        return [eventPacket('on_album_update', event.albumId)];
      case 'person-thumbnail':
        return [eventPacket('on_person_thumbnail', event.personId)];
      case 'config-changed':
        return [eventPacket('on_config_update')];
      case 'session-ended':
        return [eventPacket('on_session_delete', event.sessionId)];
      case 'user-deleted':
        return [eventPacket('on_user_delete', event.userId)];
    }
  };
};
