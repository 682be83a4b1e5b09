import { newChangeId } from '../changes.ts';
import * as keys from '../item-keys.ts';
import * as syncScopes from '../sync-scopes.ts';
import { putWrite, type Write } from '../transact.ts';

/**
 * How long a deletion is kept for the sync stream: Immich's audit cleanup keeps 31 days, and a
 * session that last completed a sync longer ago than 30 days is told to start again (SyncResetV1).
 */
const deletionRetentionDays = 31;

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
  asset: (ownerId: string, assetId: string): Write => record(syncScopes.assets(ownerId), { assetId }),
  /**
   * An asset moved into its owner's locked folder: gone for their partners and for the users of
   * the albums it was in (`albumIds`, comma-separated), not for the owner (docs/data-model.md).
   */
  assetLocked: (ownerId: string, assetId: string, albumIds: readonly string[]): Write =>
    record(syncScopes.lockedAssets(ownerId), { assetId, albumIds: albumIds.join(',') }),
  /** A user no longer has an album: deleted, or they were removed from it. */
  albumGone: (userId: string, albumId: string): Write => record(syncScopes.albums(userId), { albumId }),
  /** A user removed from an album (sent to the album's remaining users). */
  albumUser: (albumId: string, userId: string): Write => record(syncScopes.albumUsers(albumId), { albumId, userId }),
  albumAsset: (albumId: string, assetId: string): Write => record(syncScopes.albumAssets(albumId), { albumId, assetId }),
  /** A partner share ended: recorded for both users. */
  partner: (sharedById: string, sharedWithId: string): Write[] =>
    [sharedById, sharedWithId].map((userId) => record(syncScopes.partners(userId), { sharedById, sharedWithId })),
  person: (ownerId: string, personId: string): Write => record(syncScopes.people(ownerId), { personId }),
  face: (ownerId: string, assetFaceId: string): Write => record(syncScopes.faces(ownerId), { assetFaceId }),
  memory: (ownerId: string, memoryId: string): Write => record(syncScopes.memories(ownerId), { memoryId }),
  /** An asset taken out of a memory (not one that went with its memory or its asset). */
  memoryAsset: (ownerId: string, memoryId: string, assetId: string): Write =>
    record(syncScopes.memoryAssets(ownerId), { memoryId, assetId }),
  stack: (ownerId: string, stackId: string): Write => record(syncScopes.stacks(ownerId), { stackId }),
  /** A user's metadata row gone (Immich's `user_metadata_audit`): `key` is v3's `license`. */
  userMetadata: (userId: string, key: string): Write => record(syncScopes.userMetadata(userId), { userId, key }),
  /** A user deleted for good (UserDeleteV1, sent to every user: the apps' own cascade drops the rest). */
  user: (userId: string): Write => record(syncScopes.users(), { userId }),
  /** A photo edit replaced, removed or gone with its asset (AssetEditDeleteV1). */
  assetEdit: (ownerId: string, editId: string): Write => record(syncScopes.assetEdits(ownerId), { editId }),
  /**
   * The OCR lines a run replaced (AssetOcrDeleteV1, one line each): their ids, comma-separated, in
   * one record, so that replacing a page of text is one write however many lines it had.
   */
  assetOcr: (ownerId: string, assetId: string, lineIds: readonly string[]): Write =>
    record(syncScopes.assetOcr(ownerId), { assetId, lineIds: lineIds.join(',') }),
  /** An asset's metadata key deleted (AssetMetadataDeleteV1); not one that went with its asset (Immich's audit trigger skips a cascade). */
  assetMetadata: (ownerId: string, assetId: string, key: string): Write =>
    record(syncScopes.assetMetadata(ownerId, assetId), { assetId, key }),
};
