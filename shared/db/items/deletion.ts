import { assetMetadataScope, newChangeId } from '../changes.ts';
import { keys } from '../keys.ts';
import { putWrite, type Write } from '../transact.ts';

/**
 * How long a deletion is kept for the sync stream: Immich's audit cleanup keeps 31 days, and a
 * session that last completed a sync longer ago than 30 days is told to start again (SyncResetV1).
 */
const deletionRetentionDays = 31;

/** The scopes deletions are kept in, each queried as one partition (docs/data-model.md). */
const deletionScopes = {
  assets: (ownerId: string) => `${ownerId}#ASSET`,
  /** An owner's assets moved into the locked folder: their partners' and album members' deletions (PartnerAssetDeleteV1). */
  lockedAssets: (ownerId: string) => `${ownerId}#LOCKED`,
  albums: (userId: string) => `${userId}#ALBUM`,
  albumUsers: (albumId: string) => `ALBUM#${albumId}#USER`,
  albumAssets: (albumId: string) => `ALBUM#${albumId}#ASSET`,
  partners: (userId: string) => `${userId}#PARTNER`,
  people: (ownerId: string) => `${ownerId}#PERSON`,
  faces: (ownerId: string) => `${ownerId}#FACE`,
  memories: (ownerId: string) => `${ownerId}#MEMORY`,
  memoryAssets: (ownerId: string) => `${ownerId}#MEMORYASSET`,
  stacks: (ownerId: string) => `${ownerId}#STACK`,
  userMetadata: (userId: string) => `${userId}#USERMETADATA`,
  assetEdits: (ownerId: string) => `${ownerId}#ASSETEDIT`,
  /** By the asset id's first hex digit (shared/db/changes.ts, `assetMetadataScope`). */
  assetMetadata: (ownerId: string, assetId: string) => assetMetadataScope(ownerId, assetId),
  users: () => 'USERS',
} as const;

const record = (scope: string, data: Record<string, string>): Write => {
  const deleteId = newChangeId();
  return putWrite({
    ...keys.deletion(scope, deleteId),
    type: 'deletion',
    deleteId,
    ...data,
    // DynamoDB's TTL removes it after the retention (the stream's reads skip an expired one meanwhile).
    ttl: Math.ceil(Date.now() / 1000) + deletionRetentionDays * 86_400,
  });
};

/** The deletion records, each written in the transaction that deletes (Immich's audit tables). */
export const deletionWrites = {
  asset: (ownerId: string, assetId: string): Write => record(deletionScopes.assets(ownerId), { assetId }),
  /**
   * An asset moved into its owner's locked folder: gone for their partners and for the users of
   * the albums it was in (`albumIds`, comma-separated), not for the owner (docs/data-model.md).
   */
  assetLocked: (ownerId: string, assetId: string, albumIds: readonly string[]): Write =>
    record(deletionScopes.lockedAssets(ownerId), { assetId, albumIds: albumIds.join(',') }),
  /** A user no longer has an album: deleted, or they were removed from it. */
  albumGone: (userId: string, albumId: string): Write => record(deletionScopes.albums(userId), { albumId }),
  /** A user removed from an album (sent to the album's remaining users). */
  albumUser: (albumId: string, userId: string): Write => record(deletionScopes.albumUsers(albumId), { albumId, userId }),
  albumAsset: (albumId: string, assetId: string): Write => record(deletionScopes.albumAssets(albumId), { albumId, assetId }),
  /** A partner share ended: recorded for both users. */
  partner: (sharedById: string, sharedWithId: string): Write[] =>
    [sharedById, sharedWithId].map((userId) => record(deletionScopes.partners(userId), { sharedById, sharedWithId })),
  person: (ownerId: string, personId: string): Write => record(deletionScopes.people(ownerId), { personId }),
  face: (ownerId: string, assetFaceId: string): Write => record(deletionScopes.faces(ownerId), { assetFaceId }),
  memory: (ownerId: string, memoryId: string): Write => record(deletionScopes.memories(ownerId), { memoryId }),
  /** An asset taken out of a memory (not one that went with its memory or its asset). */
  memoryAsset: (ownerId: string, memoryId: string, assetId: string): Write =>
    record(deletionScopes.memoryAssets(ownerId), { memoryId, assetId }),
  stack: (ownerId: string, stackId: string): Write => record(deletionScopes.stacks(ownerId), { stackId }),
  /** A user's metadata row gone (Immich's `user_metadata_audit`): `key` is v3's `license`. */
  userMetadata: (userId: string, key: string): Write => record(deletionScopes.userMetadata(userId), { userId, key }),
  /** A user deleted for good (UserDeleteV1, sent to every user: the apps' own cascade drops the rest). */
  user: (userId: string): Write => record(deletionScopes.users(), { userId }),
  /** A photo edit replaced, removed or gone with its asset (AssetEditDeleteV1). */
  assetEdit: (ownerId: string, editId: string): Write => record(deletionScopes.assetEdits(ownerId), { editId }),
  /** An asset's metadata key deleted (AssetMetadataDeleteV1); not one that went with its asset (Immich's audit trigger skips a cascade). */
  assetMetadata: (ownerId: string, assetId: string, key: string): Write =>
    record(deletionScopes.assetMetadata(ownerId, assetId), { assetId, key }),
};
