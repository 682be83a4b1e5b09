import { log } from '../core/log.ts';
import { mapNotification } from '../dto/v3/notification.ts';
import type { AssetDetail, AssetRecord } from '../model/asset.ts';
import type { AssetViews, Generation, LiveEvent } from '../model/realtime.ts';
import { eventPacket } from './engine-io.ts';

/**
 * The asset mappers of both generations, loaded for the first event that carries an asset: a
 * route whose events carry ids alone (a logout, a trash, a configuration change) never
 * evaluates them at its cold start (docs/benchmarks.md, "Realtime").
 */
const assetShapes = () => import('./asset-payloads.ts');
type AssetShapes = Awaited<ReturnType<typeof assetShapes>>;

type AssetEvent = Extract<LiveEvent, { load: unknown }>;
type View = AssetDetail | AssetRecord;

const carriesAsset = (event: LiveEvent): event is AssetEvent => 'load' in event;

/** Each event as Immich's apps receive it, in a connection's generation: its frames, none for an asset gone meanwhile. */
export type Payloads = (event: LiveEvent, generation: Generation) => string[];

/**
 * Loads what a publication's events need, then builds each event as Immich's apps receive it, in a
 * connection's generation (docs/immich-compatibility.md, "Realtime"): the edge's own mappers, as
 * the routes' handlers use them (a service returns domain results and knows no shape). The views
 * of assets are loaded first, all at once: each loader once, with the ids of every event that
 * carries it (shared/model/realtime.ts, `AssetViews`), so 1,000 events cost a few batched reads.
 * A loader that fails is logged and its events send nothing. Each event's frames in a generation
 * are built once, however many connections are told.
 */
export const loadPayloads = async (events: readonly LiveEvent[]): Promise<Payloads> => {
  const byLoader = Map.groupBy(events.filter(carriesAsset), (event) => event.load as AssetViews<View>);
  const views = new Map<AssetViews<View>, ReadonlyMap<string, View>>();
  const [shapes] = await Promise.all([
    byLoader.size > 0 ? assetShapes() : undefined,
    ...[...byLoader].map(async ([load, each]) => {
      try {
        views.set(load, await load([...new Set(each.map((event) => event.assetId))]));
      } catch (error) {
        log.warn('Realtime events of assets were not loaded', { events: each.length, error: String(error) });
      }
    }),
  ]);
  const built = new Map<LiveEvent, Partial<Record<Generation, string[]>>>();
  return (event, generation) => {
    const cached = built.get(event)?.[generation];
    if (cached) return cached;
    const frames = framesOf(
      event,
      generation,
      shapes,
      carriesAsset(event) ? views.get(event.load as AssetViews<View>)?.get(event.assetId) : undefined,
    );
    built.set(event, { ...built.get(event), [generation]: frames });
    return frames;
  };
};

const framesOf = (event: LiveEvent, generation: Generation, shapes: AssetShapes | undefined, view: View | undefined): string[] => {
  switch (event.kind) {
    case 'asset-uploaded':
      return shapes && view && 'asset' in view ? shapes.uploaded(view, event.ownerId, generation) : [];
    case 'asset-edited':
      // v1.100 has no photo editor: only v3's apps wait for this.
      return generation === 'v3' && shapes && view && !('asset' in view) ? shapes.edited(view) : [];
    case 'asset-updated':
      return shapes && view && 'asset' in view ? shapes.updated(view, event.ownerId, generation) : [];
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
    case 'notification':
      // v1.100 has no notifications: only v3's apps wait for this.
      return generation === 'v3' ? [eventPacket('on_notification', mapNotification(event.notification))] : [];
  }
};
