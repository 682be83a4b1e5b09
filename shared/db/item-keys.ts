/**
 * Every item key in the table (docs/data-model.md): one function a key, each its own export, so
 * that a function's bundle carries only those it uses (a namespace import: `import * as keys`).
 */
import { faceIndexSk, type Key } from './keys.ts';

/** A user's profile. Its partition also holds the user's sessions, API keys, people, albums and links. */
export const user = (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'USER' });
/** A user's count of wrong PIN codes (and passwords) on the PIN routes, and the lock it set (shared/db/pin-guard.repository.ts). */
export const pinGuard = (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'PINGUARD' });
/** Uniqueness of an email (lower-cased); holds the userId, so login finds the user by email. */
export const email = (email: string): Key => ({ pk: `EMAIL#${email}`, sk: 'EMAIL' });
/** Uniqueness of an OAuth account (the provider's `sub`); holds the userId, so an OAuth sign-in finds its user. */
export const oauth = (oauthId: string): Key => ({ pk: `OAUTH#${oauthId}`, sk: 'OAUTH' });
/** Uniqueness of a storage label. */
export const storageLabel = (label: string): Key => ({ pk: `LABEL#${label}`, sk: 'LABEL' });
/** Exists once the admin exists: only one admin can ever sign up. */
export const admin = (): Key => ({ pk: 'ADMIN', sk: 'ADMIN' });
/** A session, by SHA-256 of its token: the one GetItem of each session-authenticated request. */
export const session = (tokenHash: string): Key => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' });
/** The same session listed under its user, so all of a user's sessions can be found and ended. */
export const userSession = (userId: string, tokenHash: string): Key => ({ pk: `USER#${userId}`, sk: `SESSION#${tokenHash}` });
/** An API key, by SHA-256 of its secret: the one GetItem of each key-authenticated request. */
export const apiKey = (keyHash: string): Key => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' });
/** The same key listed under its user, by its public id. */
export const userApiKey = (userId: string, apiKeyId: string): Key => ({ pk: `USER#${userId}`, sk: `APIKEY#${apiKeyId}` });
/** The system configuration: one item holding the differences from the defaults. */
export const config = (): Key => ({ pk: 'CONFIG', sk: 'CONFIG' });
/** Immich's system metadata `admin-onboarding`: exists once the admin finished onboarding. */
export const adminOnboarding = (): Key => ({ pk: 'SYSTEM', sk: 'ADMIN_ONBOARDING' });
export const serverLicense = (): Key => ({ pk: 'SYSTEM', sk: 'LICENSE' });
/** An asset. Its partition also holds the asset's faces. */
export const asset = (assetId: string): Key => ({ pk: `ASSET#${assetId}`, sk: 'ASSET' });
/** One face on an asset (a named XMP face region), in the asset's partition. */
export const assetFace = (assetId: string, faceId: string): Key => ({ pk: `ASSET#${assetId}`, sk: `FACE#${faceId}` });
/** An asset's photo edits as the sync stream sends them (AssetEditsV1), beside the asset. */
export const assetEdits = (assetId: string): Key => ({ pk: `ASSET#${assetId}`, sk: 'EDITS' });
/**
 * One metadata key of an asset (v3's asset metadata), in a partition of the asset's own beside
 * it: reading an asset never reads its metadata. `KEY#`: a key may be empty, a sort key may not.
 */
export const assetMetadata = (assetId: string, key: string): Key => ({ pk: `ASSETMETADATA#${assetId}`, sk: `KEY#${key}` });
/**
 * An asset's OCR lines (docs/immich-compatibility.md, "OCR"), one item replaced whole per run, in
 * a partition of the asset's own beside it: reading an asset never reads its text.
 */
export const assetOcr = (assetId: string): Key => ({ pk: `ASSETOCR#${assetId}`, sk: 'OCR' });
/** Uniqueness of a file per owner: SHA-1 (hex) → assetId. Bulk upload checks read these. */
export const checksum = (ownerId: string, sha1Hex: string): Key => ({ pk: `CHECKSUM#${ownerId}#${sha1Hex}`, sk: 'CHECKSUM' });
/** An asset under the device that uploaded it (`deviceAssetId`, `isVisible`): the mobile app's backup checks. */
export const deviceAsset = (ownerId: string, deviceId: string, assetId: string): Key => ({
  pk: `DEVICE#${ownerId}#${deviceId}`,
  sk: `ASSET#${assetId}`,
});
/** The owner's face index (docs/faces.md): the last entry's number, which every new entry moves on by one. */
export const faceIndexHead = (ownerId: string): Key => ({ pk: `FACES#${ownerId}`, sk: 'HEAD' });
/** One photo's detected faces in the owner's face index: their ids, boxes and descriptors, in the order they were added. */
export const faceIndexEntry = (ownerId: string, seq: number): Key => ({ pk: `FACES#${ownerId}`, sk: faceIndexSk(seq) });
/** The head of an owner's embedding index of one kind and model (docs/search.md, "The embedding index"): last number, snapshot. */
export const vectorIndexHead = (ownerId: string, kind: string, model: string): Key => ({
  pk: `VECTORS#${ownerId}#${kind}#${model}`,
  sk: 'HEAD',
});
/** One numbered entry of an owner's embedding index: several assets' vectors. */
export const vectorIndexEntry = (ownerId: string, kind: string, model: string, seq: number): Key => ({
  pk: `VECTORS#${ownerId}#${kind}#${model}`,
  sk: faceIndexSk(seq),
});
/** A person, under its owner: reading it by the caller's id is also the access check. */
export const person = (ownerId: string, personId: string): Key => ({ pk: `USER#${ownerId}`, sk: `PERSON#${personId}` });
/** Uniqueness of a person's name per owner (case-insensitive), by hash of the folded name → personId. */
export const personName = (ownerId: string, nameHash: string): Key => ({ pk: `USER#${ownerId}`, sk: `PERSONNAME#${nameHash}` });
/** An album, under its owner: reading it by the caller's id is also the ownership check. */
export const album = (ownerId: string, albumId: string): Key => ({ pk: `USER#${ownerId}`, sk: `ALBUM#${albumId}` });
/** A user an album is shared with, in the album's partition. */
export const albumUser = (albumId: string, userId: string): Key => ({ pk: `ALBUM#${albumId}`, sk: `USER#${userId}` });
/** An asset in an album, in the album's partition. */
export const albumAsset = (albumId: string, assetId: string): Key => ({ pk: `ALBUM#${albumId}`, sk: `ASSET#${assetId}` });
/**
 * An album's summary (its assets' count and dates, as its answers show them) and the change
 * marker every write of its entries and users moves, in the album's partition (docs/data-model.md, "Album summaries").
 */
export const albumSummary = (albumId: string): Key => ({ pk: `ALBUM#${albumId}`, sk: 'SUMMARY' });
/** A user's album sync marker: the latest change to any album they have (docs/data-model.md, "Album summaries"). */
export const albumSyncMark = (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'ALBUMSYNC' });
/** A shared link, under its creator. */
export const sharedLink = (ownerId: string, linkId: string): Key => ({ pk: `USER#${ownerId}`, sk: `SHAREDLINK#${linkId}` });
/** A shared link by SHA-256 of its key: the one GetItem of a visitor's request. */
export const sharedLinkKey = (keyHash: string): Key => ({ pk: `SHAREDLINKKEY#${keyHash}`, sk: 'SHAREDLINKKEY' });
/** A shared link's custom URL (Immich v3's slug): makes slugs unique and finds a link by its slug. */
export const sharedLinkSlug = (slug: string): Key => ({ pk: `SHAREDLINKSLUG#${slug}`, sk: 'SHAREDLINKSLUG' });
/** An asset of an INDIVIDUAL shared link, in the link's partition. */
export const sharedLinkAsset = (linkId: string, assetId: string): Key => ({ pk: `SHAREDLINK#${linkId}`, sk: `ASSET#${assetId}` });
/** A deletion an owner's apps sync (Immich's audit table): `ASSET` or `ALBUM`, kept 100 days (`ttl`). */
export const audit = (ownerId: string, entityType: string, createdAt: string, entityId: string): Key => ({
  pk: `AUDIT#${ownerId}#${entityType}`,
  sk: `${createdAt}#${entityId}`,
});
/** A like or comment on an album or one of its assets (Immich's activity). */
export const activity = (activityId: string): Key => ({ pk: `ACTIVITY#${activityId}`, sk: 'ACTIVITY' });
/** One like per user per album (`ALBUM`) or per asset of it: names the like's activity. */
export const activityLike = (albumId: string, target: string, userId: string): Key => ({
  pk: `LIKE#${albumId}#${target}#${userId}`,
  sk: 'LIKE',
});
/** A memory, under its owner: reading it by the caller's id is also the ownership check. */
export const memory = (ownerId: string, memoryId: string): Key => ({ pk: `USER#${ownerId}`, sk: `MEMORY#${memoryId}` });
/** An asset of a memory, in the memory's partition. */
export const memoryAsset = (memoryId: string, assetId: string): Key => ({ pk: `MEMORY#${memoryId}`, sk: `ASSET#${assetId}` });
/** A stack, under its owner: reading it by the caller's id is also the ownership check. */
export const stack = (ownerId: string, stackId: string): Key => ({ pk: `USER#${ownerId}`, sk: `STACK#${stackId}` });
export const workflow = (ownerId: string, workflowId: string): Key => ({ pk: `USER#${ownerId}`, sk: `WORKFLOW#${workflowId}` });
/** A notification, under its user: reading it by the caller's id is also the ownership check. */
export const notification = (userId: string, notificationId: string): Key => ({
  pk: `USER#${userId}`,
  sk: `NOTIFICATION#${notificationId}`,
});
/** A tag, under its owner: reading it by the caller's id is also the ownership check. */
export const tag = (ownerId: string, tagId: string): Key => ({ pk: `USER#${ownerId}`, sk: `TAG#${tagId}` });
/** Uniqueness of a tag's value (its full path) per owner, by hash of the value → tagId. */
export const tagValue = (ownerId: string, valueHash: string): Key => ({ pk: `USER#${ownerId}`, sk: `TAGVALUE#${valueHash}` });
/** An asset with a tag, in the tag's partition. */
export const tagAsset = (tagId: string, assetId: string): Key => ({ pk: `TAG#${tagId}`, sk: `ASSET#${assetId}` });
/** Immich's system metadata `memories-state`: the last day "on this day" memories were made for. */
export const memoriesState = (): Key => ({ pk: 'SYSTEM', sk: 'MEMORIES_STATE' });
/** The nightly tasks' last run (shared/services/nightly-tasks.service.ts): one run per nightly slot. */
export const nightlyTasks = (): Key => ({ pk: 'SYSTEM', sk: 'NIGHTLY_TASKS' });
/**
 * The stack's functions' generation, written by the deploy once every function is updated
 * (infra/cdk/deployment-mark.ts): album sync markers learnt under another are not trusted.
 */
export const deployment = (): Key => ({ pk: 'SYSTEM', sk: 'DEPLOYMENT' });
/** The table's one-time data migrations done (shared/services/sync/migration.ts): each its own attribute. */
export const migrations = (): Key => ({ pk: 'SYSTEM', sk: 'MIGRATIONS' });
/** A queue's runs started in one five-minute slot, on one of four shards (their counts). */
export const queueSlot = (queue: string, slot: string, shard: number): Key => ({ pk: `QUEUE#${queue}`, sk: `${slot}#${shard}` });
/** A queue's state: when its failures were last cleared. */
export const queueState = (queue: string): Key => ({ pk: `QUEUE#${queue}`, sk: 'STATE' });
/** A deletion the sync stream sends (shared/db/items/deletion.ts), in its scope's partition, by its change id. */
export const deletion = (scope: string, deleteId: string): Key => ({ pk: `DELETED#${scope}`, sk: deleteId });
/** A session's sync checkpoint of one entity type (the last ack the app sent for it). */
export const syncCheckpoint = (tokenHash: string, type: string): Key => ({ pk: `SESSION#${tokenHash}`, sk: `SYNC#${type}` });
/** An owner's timeline counters of one month (`YYYY-MM` of `localDateTime`): shared/domain/time-buckets.ts. */
export const timeBuckets = (ownerId: string, month: string): Key => ({ pk: `BUCKETS#${ownerId}`, sk: month });
/** A partner share, under the user it is shared with (so their access checks are one GetItem). */
export const partner = (sharedWithId: string, sharedById: string): Key => ({ pk: `PARTNER#${sharedWithId}`, sk: `SHAREDBY#${sharedById}` });
/** An open realtime connection, by API Gateway's id of it (its `$disconnect` names nothing else). */
export const connection = (connectionId: string): Key => ({ pk: `CONNECTION#${connectionId}`, sk: 'CONNECTION' });
/** A large file's upload session (docs/large-uploads.md), by its id; the owner is an attribute, checked on every read. */
export const uploadSession = (sessionId: string): Key => ({ pk: `UPLOADSESSION#${sessionId}`, sk: 'UPLOADSESSION' });
/**
 * An asset in its owner's trash, by when it was trashed (its `deletedAt`): what the nightly
 * clean-up finds the trash's expired assets by (docs/data-model.md, pattern 88).
 */
export const trashEntry = (ownerId: string, deletedAt: string, assetId: string): Key => ({
  pk: `TRASH#${ownerId}`,
  sk: `${deletedAt}#${assetId}`,
});
/**
 * An owner's duplicate group (docs/immich-compatibility.md, "Duplicates"): `count`, the members
 * it has; every change of its members moves it in the same transaction, so a change conditioned
 * on the count as read cannot miss a member added meanwhile.
 */
export const duplicateGroup = (ownerId: string, duplicateId: string): Key => ({ pk: `DUPLICATES#${ownerId}`, sk: `GROUP#${duplicateId}` });
/** An asset in a duplicate group (its `duplicateId`), after its group's item: one Query lists the groups with their members. */
export const duplicateMember = (ownerId: string, duplicateId: string, assetId: string): Key => ({
  pk: `DUPLICATES#${ownerId}`,
  sk: `GROUP#${duplicateId}#${assetId}`,
});
/** A text-search posting: an owner's asset having a word, in date order. */
export const term = (ownerId: string, word: string, fileCreatedAt: string, assetId: string): Key => ({
  pk: `TERM#${ownerId}#${word}`,
  sk: `${fileCreatedAt}#${assetId}`,
});
/** An OCR search posting: an owner's asset whose text has a token (search's `ocr`), apart from the text search's words. */
export const ocrTerm = (ownerId: string, token: string, assetId: string): Key => ({ pk: `OCRTERM#${ownerId}#${token}`, sk: assetId });
