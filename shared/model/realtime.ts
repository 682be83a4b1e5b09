import * as v from 'valibot';
import type { AssetDetail, AssetRecord } from './asset.ts';
import { id, instant, nullable } from './fields.ts';
import type { NotificationRecord } from './notification.ts';

/**
 * Immich's realtime channel (docs/web-app.md, "Realtime"): the socket.io connections Immich's apps
 * keep open, and the events the server tells them of. Deployed, each connection is one of an API
 * Gateway WebSocket API's; locally, one of its stand-in's (infra/local/websocket-api.ts).
 */

/**
 * Which generation's shapes a connection is answered in: v3's for Immich's 3.x apps (their
 * User-Agent) and when the web app served is v3's, v1.100's otherwise
 * (docs/immich-compatibility.md, "Realtime").
 */
export type Generation = 'v1' | 'v3';

/** An open connection, kept while it lasts (docs/data-model.md, "Connections"). */
export const ConnectionRecordSchema = v.object({
  /** API Gateway's id of the connection (what the management API posts to). */
  connectionId: v.pipe(v.string(), v.minLength(1)),
  userId: id(),
  /** The session it signed in with (SHA-256 of its token); null for an API key, which has no session room. */
  sessionHash: nullable(v.string()),
  generation: v.picklist(['v1', 'v3']),
  connectedAt: instant(),
  /** Epoch seconds: API Gateway ends a connection after 2 hours; a missed `$disconnect` leaves nothing for longer. */
  ttl: v.number(),
});
export type ConnectionRecord = v.InferOutput<typeof ConnectionRecordSchema>;

/**
 * How long a connection item is kept: API Gateway closes every connection after 2 hours (its
 * `$disconnect` deletes the item); five minutes more covers a `$disconnect` that never came.
 */
export const connectionLifetimeSeconds = 2 * 3600 + 5 * 60;

/**
 * The heartbeat: Engine.IO's client closes its socket when no ping comes within `pingInterval +
 * pingTimeout` of the last, and API Gateway closes a connection idle for 10 minutes. A scheduled
 * function pings every connection every `pingEveryMinutes` (infra/cdk/realtime.ts), and the open
 * packet advertises that interval, with as much again for a late tick: 10 minutes between pings
 * before a client gives up, never more than 5 of silence for API Gateway (docs/deployment.md,
 * "Realtime").
 */
export const heartbeat = { pingEveryMinutes: 5, pingIntervalMs: 300_000, pingTimeoutMs: 300_000 } as const;

/**
 * Loads the views of many assets at once (by id; those it does not find are gone and left out):
 * what an event whose payload is a view of an asset carries. A publication calls each loader once,
 * with the ids of all the events that carry it, so that 1,000 events of one request cost a few
 * batched reads, not 1,000 rounds of them (shared/realtime/payloads.ts).
 */
export type AssetViews<T extends AssetDetail | AssetRecord> = (assetIds: readonly string[]) => Promise<ReadonlyMap<string, T>>;

/**
 * What the server tells Immich's apps, as domain events: raised by the operation that made the
 * change (a service, into the request's outbox: shared/realtime/outbox.ts), and sent, once it has
 * succeeded, to the connections of the users concerned, each in its generation's shape
 * (shared/realtime/publisher.ts). An event whose payload is a view of an asset carries a loader,
 * which runs only when someone is connected to be told.
 */
export type LiveEvent =
  /** An upload's previews were made (Immich's `on_upload_success` and `AssetUploadReadyV2`), to its owner. */
  | { kind: 'asset-uploaded'; ownerId: string; assetId: string; load: AssetViews<AssetDetail> }
  /** An asset's edited files were made (or removed) for its photo edits (`AssetEditReadyV2`), to its owner. */
  | { kind: 'asset-edited'; ownerId: string; assetId: string; load: AssetViews<AssetRecord> }
  /** An asset's metadata was changed by its owner (`on_asset_update`), to its owner. */
  | { kind: 'asset-updated'; ownerId: string; assetId: string; load: AssetViews<AssetDetail> }
  /** Assets moved to the trash (`on_asset_trash`), to the user who did it. */
  | { kind: 'assets-trashed'; userId: string; assetIds: readonly string[] }
  /** An asset deleted for good (`on_asset_delete`, one event an asset), to its owner. */
  | { kind: 'asset-deleted'; ownerId: string; assetId: string }
  /** Assets restored from the trash (`on_asset_restore`), to the user who did it. */
  | { kind: 'assets-restored'; userId: string; assetIds: readonly string[] }
  /** A stack made, changed or removed (`on_asset_stack_update`, no payload), to the user who did it. */
  | { kind: 'stacks-changed'; userId: string }
  /** An album's assets changed (`on_album_update`), to every member, its owner included. */
  | { kind: 'album-changed'; albumId: string; userIds: readonly string[] }
  /** A person's thumbnail was made (`on_person_thumbnail`), to its owner. */
  | { kind: 'person-thumbnail'; ownerId: string; personId: string }
  /** The system configuration changed (`on_config_update`, no payload), to everyone. */
  | { kind: 'config-changed' }
  /** A session ended by its logout (`on_session_delete`), to that session's own connections. */
  | { kind: 'session-ended'; userId: string; sessionHash: string; sessionId: string }
  /** A user deleted for good (`on_user_delete`), to everyone. */
  | { kind: 'user-deleted'; userId: string }
  /** A notification made for a user (v3's `on_notification`, its NotificationDto), to that user. */
  | { kind: 'notification'; notification: NotificationRecord };
