import * as syncScopes from '../sync-scopes.ts';
import type { Write } from '../transact.ts';
import { record } from './deletion.ts';

/** The deletion records, each written in the transaction that deletes (Immich's audit tables). */
export const asset = (ownerId: string, assetId: string): Write => record(syncScopes.assets(ownerId), { assetId });
/**
 * An asset moved into its owner's locked folder: gone for their partners and for the users of
 * the albums it was in (`albumIds`, comma-separated), not for the owner (docs/data-model.md).
 */
export const assetLocked = (ownerId: string, assetId: string, albumIds: readonly string[]): Write =>
  record(syncScopes.lockedAssets(ownerId), { assetId, albumIds: albumIds.join(',') });
/** A user no longer has an album: deleted, or they were removed from it. */
export const albumGone = (userId: string, albumId: string): Write => record(syncScopes.albums(userId), { albumId });
/** A user removed from an album (sent to the album's remaining users). */
export const albumUser = (albumId: string, userId: string): Write => record(syncScopes.albumUsers(albumId), { albumId, userId });
export const albumAsset = (albumId: string, assetId: string): Write => record(syncScopes.albumAssets(albumId), { albumId, assetId });
/** A partner share ended: recorded for both users. */
export const partner = (sharedById: string, sharedWithId: string): Write[] =>
  [sharedById, sharedWithId].map((userId) => record(syncScopes.partners(userId), { sharedById, sharedWithId }));
export const person = (ownerId: string, personId: string): Write => record(syncScopes.people(ownerId), { personId });
export const face = (ownerId: string, assetFaceId: string): Write => record(syncScopes.faces(ownerId), { assetFaceId });
export const memory = (ownerId: string, memoryId: string): Write => record(syncScopes.memories(ownerId), { memoryId });
/** An asset taken out of a memory (not one that went with its memory or its asset). */
export const memoryAsset = (ownerId: string, memoryId: string, assetId: string): Write =>
  record(syncScopes.memoryAssets(ownerId), { memoryId, assetId });
export const stack = (ownerId: string, stackId: string): Write => record(syncScopes.stacks(ownerId), { stackId });
/** A user's metadata row gone (Immich's `user_metadata_audit`): `key` is v3's `license`. */
export const userMetadata = (userId: string, key: string): Write => record(syncScopes.userMetadata(userId), { userId, key });
/** A user deleted for good (UserDeleteV1, sent to every user: the apps' own cascade drops the rest). */
export const user = (userId: string): Write => record(syncScopes.users(), { userId });
/** A photo edit replaced, removed or gone with its asset (AssetEditDeleteV1). */
export const assetEdit = (ownerId: string, editId: string): Write => record(syncScopes.assetEdits(ownerId), { editId });
/**
 * The OCR lines a run replaced (AssetOcrDeleteV1, one line each): their ids, comma-separated, in
 * one record, so that replacing a page of text is one write however many lines it had.
 */
export const assetOcr = (ownerId: string, assetId: string, lineIds: readonly string[]): Write =>
  record(syncScopes.assetOcr(ownerId), { assetId, lineIds: lineIds.join(',') });
/** An asset's metadata key deleted (AssetMetadataDeleteV1); not one that went with its asset (Immich's audit trigger skips a cascade). */
export const assetMetadata = (ownerId: string, assetId: string, key: string): Write =>
  record(syncScopes.assetMetadata(ownerId, assetId), { assetId, key });
