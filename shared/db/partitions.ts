/**
 * Every partition a request queries (docs/data-model.md, "Partitions"), each its own export: a
 * namespace import (`import * as partitions`) bundles only those used.
 */
import type { SearchableExifField } from '../model/asset.ts';
import * as keys from './item-keys.ts';
import { changesPartition, type Partition } from './keys.ts';

/** A user's sessions (auth devices). */
export const userSessions = (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'SESSION#' });
/** A user's API keys. */
export const userApiKeys = (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'APIKEY#' });
/** An owner's face index: its entries by number, and its head (docs/faces.md). */
export const faceIndex = (ownerId: string): Partition => ({ value: `FACES#${ownerId}` });
/** An owner's embedding index of one kind and model: its entries by number (and its head, after them). */
export const vectorIndex = (ownerId: string, kind: string, model: string): Partition => ({ value: `VECTORS#${ownerId}#${kind}#${model}` });
/** A user's people. */
export const userPeople = (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'PERSON#' });
/** A user's albums. */
export const userAlbums = (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'ALBUM#' });
/** A user's shared links. */
export const userSharedLinks = (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'SHAREDLINK#' });
/** An asset and its faces. */
export const asset = (assetId: string): Partition => ({ value: keys.asset(assetId).pk });
/** An asset's metadata, by key. */
export const assetMetadata = (assetId: string): Partition => ({ value: `ASSETMETADATA#${assetId}` });
/** The assets one device of an owner uploaded. */
export const deviceAssets = (ownerId: string, deviceId: string): Partition => ({
  value: `DEVICE#${ownerId}#${deviceId}`,
  prefix: 'ASSET#',
});
/** An album's entries. */
export const albumAssets = (albumId: string): Partition => ({ value: `ALBUM#${albumId}`, prefix: 'ASSET#' });
/** An INDIVIDUAL shared link's entries. */
export const sharedLinkAssets = (linkId: string): Partition => ({ value: `SHAREDLINK#${linkId}`, prefix: 'ASSET#' });
/** The postings of one word of an owner's (GET /search), newest last. */
export const term = (ownerId: string, word: string): Partition => ({ value: `TERM#${ownerId}#${word}` });
/** The assets of an owner whose text has one OCR token (search's `ocr`), by asset id. */
export const ocrTerm = (ownerId: string, token: string): Partition => ({ value: `OCRTERM#${ownerId}#${token}` });
/** An owner's timeline counters, one item a month, oldest first. */
export const timeBuckets = (ownerId: string): Partition => ({ value: `BUCKETS#${ownerId}` });
/** An owner's duplicate groups, each item followed by its members'. */
export const duplicates = (ownerId: string): Partition => ({ value: `DUPLICATES#${ownerId}`, prefix: 'GROUP#' });
/** One duplicate group: its item and its members'. */
export const duplicateGroup = (ownerId: string, duplicateId: string): Partition => ({
  value: `DUPLICATES#${ownerId}`,
  prefix: `GROUP#${duplicateId}`,
});
/** An owner's trashed assets, longest in the trash first. */
export const trash = (ownerId: string): Partition => ({ value: `TRASH#${ownerId}` });
/** gsi1: every open realtime connection, oldest first (the heartbeat, broadcasts). */
export const connections = (): Partition => ({ index: 'gsi1', value: 'CONNECTIONS' });
/** gsi2: a user's open realtime connections (the events they are told of). */
export const userConnections = (userId: string): Partition => ({ index: 'gsi2', value: `CONNECTIONS#${userId}` });
/** gsi1: every user, oldest first (GET /user, the server statistics). */
export const users = (): Partition => ({ index: 'gsi1', value: 'USERS' });
/** gsi1: an owner's assets ordered by fileCreatedAt (ties by id). */
export const timeline = (ownerId: string): Partition => ({ index: 'gsi1', value: `TIMELINE#${ownerId}` });
/** The deletions of one entity type an owner's apps sync, oldest first. */
export const audit = (ownerId: string, entityType: string): Partition => ({ value: `AUDIT#${ownerId}#${entityType}` });
/** gsi1: an album's likes and comments, oldest first. */
export const albumActivities = (albumId: string): Partition => ({ index: 'gsi1', value: `ACTIVITIES#${albumId}` });
/** gsi2: the likes and comments on one asset (in any album). */
export const assetActivities = (assetId: string): Partition => ({ index: 'gsi2', value: `ASSETACTIVITIES#${assetId}` });
/** gsi1: a face by its id (PUT and DELETE /faces/:id name a face alone). */
export const face = (faceId: string): Partition => ({ index: 'gsi1', value: `FACE#${faceId}` });
/** A user's tags. */
export const userTags = (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'TAG#' });
/** A tag's assets. */
export const tagAssets = (tagId: string): Partition => ({ value: `TAG#${tagId}`, prefix: 'ASSET#' });
/** gsi2: the tags of an asset. */
export const assetTags = (assetId: string): Partition => ({ index: 'gsi2', value: `ASSETTAGS#${assetId}` });
/** A queue's slots (sort key: the slot's start, then the shard). */
export const queueSlots = (queue: string): Partition => ({ value: `QUEUE#${queue}` });
/** A user's stacks. */
export const userStacks = (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'STACK#' });
/** A user's workflows. */
export const userWorkflows = (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'WORKFLOW#' });
/** A user's notifications. */
export const userNotifications = (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'NOTIFICATION#' });
/** A user's memories. */
export const userMemories = (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'MEMORY#' });
/** A memory's assets. */
export const memoryAssets = (memoryId: string): Partition => ({ value: `MEMORY#${memoryId}`, prefix: 'ASSET#' });
/** gsi2: the memories an asset is in. */
export const assetMemories = (assetId: string): Partition => ({ index: 'gsi2', value: `ASSETMEMORIES#${assetId}` });
/** The deletions of one scope the sync stream sends (`<ownerId>#ASSET`, `ALBUM#<albumId>#USER`…), by change id. */
export const deletions = (scope: string): Partition => ({ value: `DELETED#${scope}` });
/** A session's sync checkpoints, one item a type. */
export const syncCheckpoints = (tokenHash: string): Partition => ({ value: `SESSION#${tokenHash}`, prefix: 'SYNC#' });
/** gsi3: what changed in one scope (an owner's assets, faces or people, an album's entries, the users), by change id. */
export const changes = (scope: string): Partition => changesPartition(scope);
/** gsi2: an owner's assets ordered by updatedAt (ties by id): the mobile app's delta sync. */
export const assetsByUpdate = (ownerId: string): Partition => ({ index: 'gsi2', value: `UPDATED#${ownerId}` });
/** gsi2: a person's faces, ordered by their asset's fileCreatedAt. */
export const personFaces = (personId: string): Partition => ({ index: 'gsi2', value: `PERSON#${personId}` });
/** The partners who share their library with a user. */
export const partnersSharingWith = (userId: string): Partition => ({ value: `PARTNER#${userId}`, prefix: 'SHAREDBY#' });
/** gsi2: the users a user shares their library with. */
export const partnersSharedBy = (userId: string): Partition => ({ index: 'gsi2', value: `PARTNERSOF#${userId}` });
/** gsi2: the albums shared with a user. */
export const albumsSharedWith = (userId: string): Partition => ({ index: 'gsi2', value: `SHAREDWITH#${userId}` });
/** gsi2: the albums an asset is in (kept in step when the asset is trashed, archived or deleted). */
export const assetAlbums = (assetId: string): Partition => ({ index: 'gsi2', value: `ASSETALBUMS#${assetId}` });
/** gsi2: the shared links an asset is in. */
export const assetLinks = (assetId: string): Partition => ({ index: 'gsi2', value: `ASSETLINKS#${assetId}` });
/** An EXIF index (`make` … `country`): an owner's assets with one value, exact and case-sensitive, in date order. */
export const exif = (field: SearchableExifField, ownerId: string, value: string): Partition => ({
  index: field,
  value: `${ownerId}#${value}`,
});
/** The map index: an owner's assets with a position, in date order. */
export const geo = (ownerId: string): Partition => ({ index: 'geo', value: ownerId });
/** The folder index: an owner's assets by original path, those under `prefix` if given. */
export const folder = (ownerId: string, prefix?: string): Partition => ({
  index: 'folder',
  value: ownerId,
  ...(prefix === undefined ? {} : { prefix }),
});
