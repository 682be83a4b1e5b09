import type { AssetDetail, AssetRecord } from '../model/asset.ts';
import type { Generation, LiveEvent } from '../model/realtime.ts';
import { eventPacket } from './engine-io.ts';

/**
 * The asset mappers of both generations, loaded for the first event that carries an asset: a
 * route whose events carry ids alone (a logout, a trash, a configuration change) never
 * evaluates them at its cold start (docs/benchmarks.md, "Realtime").
 */
const assetShapes = () => import('./asset-payloads.ts');

/**
 * Each event as Immich's apps receive it, in a connection's generation (docs/immich-compatibility.md,
 * "Realtime"): the edge's own mappers, as the routes' handlers use them (a service returns domain
 * results and knows no shape). An event whose payload is an asset's view loads it once, however
 * many connections are told.
 */
export type Payloads = (event: LiveEvent, generation: Generation) => Promise<string[]>;

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
        const [detail, shapes] = await Promise.all([load(event, event.load), assetShapes()]);
        return detail ? shapes.uploaded(detail, event.ownerId, generation) : [];
      }
      case 'asset-edited': {
        // v1.100 has no photo editor: only v3's apps wait for this.
        if (generation === 'v1') return [];
        const [asset, shapes] = await Promise.all([load(event, event.load), assetShapes()]);
        return asset ? shapes.edited(asset) : [];
      }
      case 'asset-updated': {
        const [detail, shapes] = await Promise.all([load(event, event.load), assetShapes()]);
        return detail ? shapes.updated(detail, event.ownerId, generation) : [];
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
