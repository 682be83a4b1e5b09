/**
 * Who may do what to which ids, as Immich's `AccessCore.requirePermission`: every service asks
 * shared/access/, and nothing else decides. One module a resource (album-access.ts,
 * asset-access.ts, …), so that a function's bundle keeps only the repositories its checks need
 * (docs/benchmarks.md); this one holds what they all share. A resource that is missing and one
 * that is someone else's get the same answer (Immich's 400 `Not found or no <permission>
 * access`), so an id never reveals whether it exists.
 *
 * Each check also returns what it read to decide (the album, the asset with its faces…), so that
 * the service does not read it again.
 */
import { Inaccessible } from '../core/errors.ts';
import type { Auth } from '../model/user.ts';

/** Immich's permissions, by the names its messages use (`Not found or no asset.read access`). */
export const Permission = {
  AssetRead: 'asset.read',
  AssetView: 'asset.view',
  AssetDownload: 'asset.download',
  AssetUpdate: 'asset.update',
  AssetDelete: 'asset.delete',
  AssetRestore: 'asset.restore',
  AssetShare: 'asset.share',
  AssetUpload: 'asset.upload',
  /** The photo editor's (v3): the owner's alone, as Immich's. */
  AssetEditCreate: 'asset.edit.create',
  AssetEditDelete: 'asset.edit.delete',
  AlbumRead: 'album.read',
  AlbumUpdate: 'album.update',
  AlbumDelete: 'album.delete',
  AlbumShare: 'album.share',
  AlbumDownload: 'album.download',
  AlbumAssetCreate: 'albumAsset.create',
  AlbumAssetDelete: 'albumAsset.delete',
  TimelineRead: 'timeline.read',
  TimelineDownload: 'timeline.download',
  ArchiveRead: 'archive.read',
  PartnerUpdate: 'partner.update',
  PersonRead: 'person.read',
  PersonWrite: 'person.write',
  /** A face of the caller's (Immich's face access for reassigning one). */
  PersonCreate: 'person.create',
  FaceDelete: 'face.delete',
  AuthDeviceDelete: 'authDevice.delete',
  ActivityCreate: 'activity.create',
  ActivityDelete: 'activity.delete',
  NotificationRead: 'notification.read',
  NotificationUpdate: 'notification.update',
  NotificationDelete: 'notification.delete',
  MemoryRead: 'memory.read',
  MemoryUpdate: 'memory.update',
  MemoryDelete: 'memory.delete',
  TagRead: 'tag.read',
  TagUpdate: 'tag.update',
  TagDelete: 'tag.delete',
  TagAsset: 'tag.asset',
  StackRead: 'stack.read',
  StackUpdate: 'stack.update',
  StackDelete: 'stack.delete',
  WorkflowRead: 'workflow.read',
  WorkflowUpdate: 'workflow.update',
  WorkflowDelete: 'workflow.delete',
  WorkflowLogs: 'workflow.logs',
  DuplicateDelete: 'duplicate.delete',
} as const;
export type Permission = (typeof Permission)[keyof typeof Permission];

/** Immich's answer to a caller without the permission (or to an id that does not exist). */
export const noAccess = (permission: Permission): Inaccessible => new Inaccessible(`Not found or no ${permission} access`);

/** Owners may do everything to their own resources. */
export const owns = (auth: Auth, ownerId: string): boolean => ownerId === auth.user.id;

/**
 * A resource that passed its check and was then deleted (or changed away) by a concurrent request
 * before the write landed: answered as if it had never been the caller's, the check's own answer.
 */
export const accessLost = (permission: Permission): Inaccessible => noAccess(permission);
