/**
 * The sync stream's scopes (docs/data-model.md, "Change ids and the sync stream"): a change listing
 * (gsi3 `CHANGES#<scope>`, `changesPartition` in shared/db/keys.ts) and a deletion partition
 * (`DELETED#<scope>`, `keys.deletion`) are each one scope's. Writers and the stream's reads build them
 * here alone, imported as a namespace (`import * as syncScopes from './sync-scopes.ts'`): a function
 * bundles only the scopes it names.
 */

/** An owner's assets (their changes and deletions). */
export const assets = (ownerId: string): string => `${ownerId}#ASSET`;
/** An owner's assets moved into the locked folder: their partners' and album members' deletions (PartnerAssetDeleteV1). */
export const lockedAssets = (ownerId: string): string => `${ownerId}#LOCKED`;
/** The albums a user lost (deletions). */
export const albums = (userId: string): string => `${userId}#ALBUM`;
/** An album's entries (changes: the entries added). */
export const albumEntries = (albumId: string): string => `ALBUM#${albumId}`;
/** An album's users (deletions). */
export const albumUsers = (albumId: string): string => `ALBUM#${albumId}#USER`;
/** An album's entries (deletions). */
export const albumAssets = (albumId: string): string => `ALBUM#${albumId}#ASSET`;
/** A user's partner shares, of either direction (deletions). */
export const partners = (userId: string): string => `${userId}#PARTNER`;
export const people = (ownerId: string): string => `${ownerId}#PERSON`;
export const faces = (ownerId: string): string => `${ownerId}#FACE`;
export const memories = (ownerId: string): string => `${ownerId}#MEMORY`;
export const memoryAssets = (ownerId: string): string => `${ownerId}#MEMORYASSET`;
export const stacks = (ownerId: string): string => `${ownerId}#STACK`;
/** A user's metadata rows (deletions). */
export const userMetadata = (userId: string): string => `${userId}#USERMETADATA`;
export const assetEdits = (ownerId: string): string => `${ownerId}#ASSETEDIT`;
/** An owner's assets' OCR lines (changes: an asset's lines replaced; deletions: the lines a run replaced). */
export const assetOcr = (ownerId: string): string => `${ownerId}#ASSETOCR`;
/** An owner's asset metadata, in 16 scopes by the asset id's first hex digit (`shard`: that digit, or the asset id). */
export const assetMetadata = (ownerId: string, shard: string): string => `${ownerId}#ASSETMETADATA#${shard.charAt(0)}`;
/** Every user (changes, and deletions of users deleted for good). */
export const users = (): string => 'USERS';
