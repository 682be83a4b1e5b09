import { syncSettleMs } from '../core/env.ts';
import type { AlbumRecord } from '../model/album.ts';
import type { AssetRecord } from '../model/asset.ts';
import type { UserRecord } from '../model/user.ts';
import { changeIdTime } from './changes.ts';
import type { AlbumMarkerScope, AlbumMarkers } from './items/album-mark.ts';

export type { AlbumMarkerScope };

import * as syncRepo from './sync.repository.ts';

/**
 * The sync stream's reads of what a user is related to, decoded (docs/data-model.md, pattern 64),
 * as Immich's sync repository names them per entity: the albums they have, their partners, an
 * album's users, the albums an asset is in, the assets and users by id.
 */

/** An album the user has (theirs or shared with them), and since when (Immich's album_user `createId`). */
export interface Membership {
  albumId: string;
  ownerId: string;
  /** When the user gained the album: its creation for their own, the share's for another's. */
  createId: string;
  /** The album's own creation (the owner's album user row) and last change. */
  albumCreateId: string;
  updateId: string;
  /** The users it is shared with. */
  sharedUserIds: string[];
  /**
   * The change id of its latest change per scope the stream reads of it (its entries, its users and
   * their deletions; `''` none ever; absent: not known, then it is read): docs/data-model.md, "Album summaries".
   */
  markers: AlbumMarkers;
  /** Whether its summary item names its owner (album-sync.repository.ts, `usersOfAlbum`). */
  ownerKnown: boolean;
  /**
   * The owners of its entries' assets, as its summary item gathers them (shared/db/items/album-mark.ts):
   * whose asset changes its users' apps get besides its users' (a partner's photo an editor added,
   * a departed member's). An album from before they were kept has those of its later entries until
   * it learns them all (shared/services/sync/entry-owners.ts).
   */
  entryOwners: readonly string[];
  /** The album as the stream sends it (decoded when asked: most types need only the ids). */
  album: () => AlbumRecord;
}

/** A partner share and since when: `sharedById` shares their library with `sharedWithId`. */
export interface PartnerShare {
  sharedById: string;
  sharedWithId: string;
  inTimeline: boolean;
  createId: string;
  updateId: string;
}

const byCreateId = <T extends { createId: string }>(a: T, b: T): number => (a.createId < b.createId ? -1 : a.createId > b.createId ? 1 : 0);

const sharedUserIdsOf = (item: Record<string, unknown>): string[] => (item.sharedUserIds as string[] | undefined) ?? [];

/** The user's albums (their own, then those shared with them: Query, Query gsi2, BatchGetItem), in the order they gained them. */
export const albumMemberships = async (userId: string): Promise<Membership[]> => {
  const [own, shared] = await Promise.all([syncRepo.ownAlbumItems(userId), syncRepo.sharedAlbumUserItems(userId)]);
  const [sharedAlbums, markers] = await Promise.all([
    syncRepo.albumItems(shared.map((item) => ({ ownerId: String(item.ownerId), albumId: String(item.albumId) }))),
    syncRepo.albumMarkers([...own.map((item) => String(item.albumId ?? item.id)), ...shared.map((item) => String(item.albumId))]),
  ]);
  const sharedById = new Map(shared.map((item) => [String(item.albumId), item]));
  const membership = (item: Record<string, unknown>, albumId: string, ownerId: string, createId: string): Membership => {
    return {
      albumId,
      ownerId,
      createId,
      albumCreateId: syncRepo.createIdOf(item),
      updateId: syncRepo.updateIdOf(item),
      sharedUserIds: sharedUserIdsOf(item),
      markers: markers.get(albumId)?.markers ?? {},
      ownerKnown: markers.get(albumId)?.ownerKnown ?? false,
      entryOwners: markers.get(albumId)?.entryOwners ?? [],
      album: () => syncRepo.readAlbum(item),
    };
  };
  return [
    ...own.map((item) => membership(item, String(item.albumId ?? item.id), userId, syncRepo.createIdOf(item))),
    ...sharedAlbums.map((item) =>
      membership(item, String(item.id), String(item.ownerId), syncRepo.createIdOf(sharedById.get(String(item.id)) ?? item)),
    ),
  ].sort(byCreateId);
};

/**
 * Whether nothing of one of an album's scopes (its entries, its users, their deletions) changed
 * after `after` (a type's checkpoint; none: from the start), so the stream need not read it: its
 * marker says the latest change there is at or before it, or that there was none
 * (docs/data-model.md, "Album summaries"). An album's users also hold its owner's row, as old as the album.
 */
export const albumUnchangedSince = (album: Membership, scope: AlbumMarkerScope, after: string | undefined): boolean => {
  const latest = album.markers[scope];
  if (latest === undefined) return false;
  if (scope === 'users' && (after === undefined || album.albumCreateId > after)) return false;
  if (latest === '') return true;
  return settledBefore(latest, after);
};

/**
 * Whether a marker (the change id of a scope's latest change) is at or before `after`, by at least
 * the settling time. A marker is the change id its last write carried: two writes of one scope
 * committing in the opposite order of their ids (milliseconds apart) leave the earlier one. A
 * stream that ended between them (at its deadline) would then skip the later one for good; within
 * the settling time before the checkpoint the scope is read (docs/data-model.md, "Album summaries").
 */
export const settledBefore = (latest: string, after: string | undefined): boolean =>
  after !== undefined && latest <= after && changeIdTime(after) - changeIdTime(latest) >= syncSettleMs();

const partnerShare = (item: Record<string, unknown>): PartnerShare => ({
  sharedById: String(item.sharedById),
  sharedWithId: String(item.sharedWithId),
  inTimeline: item.inTimeline === true,
  createId: syncRepo.createIdOf(item),
  updateId: syncRepo.updateIdOf(item),
});

/** The user's partner shares: those sharing with them and those they share (one Query each), without a deleted user's. */
export const partnerShares = async (userId: string): Promise<{ sharingWith: PartnerShare[]; sharedBy: PartnerShare[] }> => {
  const { sharingWith, sharedBy } = await syncRepo.partnerItems(userId);
  return { sharingWith: sharingWith.map(partnerShare), sharedBy: sharedBy.map(partnerShare) };
};

/** An album's users (Query `ALBUM#<id>` USER#): who, with what role, since when and last changed. */
export const albumUsers = async (albumId: string): Promise<{ userId: string; role: string; createId: string; updateId: string }[]> =>
  (await syncRepo.albumUserItems(albumId)).map((item) => ({
    userId: String(item.userId),
    role: String(item.role ?? 'editor'),
    createId: syncRepo.createIdOf(item),
    updateId: syncRepo.updateIdOf(item),
  }));

/** The albums an asset is in, and when it entered each (Query gsi2 `ASSETALBUMS#<id>`). */
export const assetAlbums = async (assetId: string): Promise<{ albumId: string; updateId: string }[]> =>
  (await syncRepo.assetAlbumEntries(assetId)).map((item) => ({ albumId: String(item.albumId), updateId: syncRepo.updateIdOf(item) }));

/** Assets by id (BatchGetItem), those that exist. */
export const assetsById = async (assetIds: readonly string[]): Promise<AssetRecord[]> =>
  (await syncRepo.assetItems(assetIds)).map(syncRepo.readAsset);

/** The owners of assets by id (BatchGetItem): asset id → owner id, those that exist. */
export const assetOwners = async (assetIds: readonly string[]): Promise<Map<string, string>> =>
  new Map((await syncRepo.assetItems(assetIds)).map((item) => [String(item.id), String(item.ownerId)]));

/** Of these user ids, those whose user item is gone (BatchGetItem): purged for good (a deleted user's item stays until then). */
export const usersGone = async (userIds: readonly string[]): Promise<string[]> => {
  const found = new Set((await syncRepo.userItems(userIds)).map((item) => String(item.id)));
  return userIds.filter((userId) => !found.has(userId));
};

/** Users by id (BatchGetItem), those that exist. */
export const usersById = async (userIds: readonly string[]): Promise<UserRecord[]> =>
  (await syncRepo.userItems(userIds)).map(syncRepo.readUser);

/**
 * A user as the stream sends them, with their change id and their metadata's (the metadata's own:
 * a change of their usage or name does not send it again; absent on a user stored before it).
 */
export const syncedUser = async (userId: string): Promise<{ user: UserRecord; updateId: string; metadataId: string } | undefined> => {
  const item = await syncRepo.userItem(userId);
  if (!item) return undefined;
  const updateId = syncRepo.updateIdOf(item);
  return { user: syncRepo.readUser(item), updateId, metadataId: syncRepo.partIdsOf(item)?.metadata ?? updateId };
};
