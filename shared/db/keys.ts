import type { SearchableExifField } from '../model/asset.ts';
import type { IndexName } from './table.ts';

/**
 * Every key shape in the table, as pure functions: item keys (`keys`), the secondary-index
 * attributes items carry (`indexKeys`), and the partitions requests query (`partitions`).
 * docs/data-model.md lists the same shapes, and test/unit/keys.test.ts checks that they agree.
 */
export interface Key {
  pk: string;
  sk: string;
}

/**
 * A partition a Query reads: of the table (`index` absent) or of a secondary index, optionally
 * narrowed to the sort keys that begin with `prefix`.
 */
export interface Partition {
  index?: IndexName;
  value: string;
  prefix?: string;
}

export const keys = {
  /** A user's profile. Its partition also holds the user's sessions, API keys, people, albums and links. */
  user: (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'USER' }),
  /** A user's count of wrong PIN codes (and passwords) on the PIN routes, and the lock it set (shared/db/pin-guard.repository.ts). */
  pinGuard: (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'PINGUARD' }),
  /** Uniqueness of an email (lower-cased); holds the userId, so login finds the user by email. */
  email: (email: string): Key => ({ pk: `EMAIL#${email}`, sk: 'EMAIL' }),
  /** Uniqueness of an OAuth account (the provider's `sub`); holds the userId, so an OAuth sign-in finds its user. */
  oauth: (oauthId: string): Key => ({ pk: `OAUTH#${oauthId}`, sk: 'OAUTH' }),
  /** Uniqueness of a storage label. */
  storageLabel: (label: string): Key => ({ pk: `LABEL#${label}`, sk: 'LABEL' }),
  /** Exists once the admin exists: only one admin can ever sign up. */
  admin: (): Key => ({ pk: 'ADMIN', sk: 'ADMIN' }),
  /** A session, by SHA-256 of its token: the one GetItem of each session-authenticated request. */
  session: (tokenHash: string): Key => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' }),
  /** The same session listed under its user, so all of a user's sessions can be found and ended. */
  userSession: (userId: string, tokenHash: string): Key => ({ pk: `USER#${userId}`, sk: `SESSION#${tokenHash}` }),
  /** An API key, by SHA-256 of its secret: the one GetItem of each key-authenticated request. */
  apiKey: (keyHash: string): Key => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  /** The same key listed under its user, by its public id. */
  userApiKey: (userId: string, apiKeyId: string): Key => ({ pk: `USER#${userId}`, sk: `APIKEY#${apiKeyId}` }),
  /** The system configuration: one item holding the differences from the defaults. */
  config: (): Key => ({ pk: 'CONFIG', sk: 'CONFIG' }),
  /** Immich's system metadata `admin-onboarding`: exists once the admin finished onboarding. */
  adminOnboarding: (): Key => ({ pk: 'SYSTEM', sk: 'ADMIN_ONBOARDING' }),
  serverLicense: (): Key => ({ pk: 'SYSTEM', sk: 'LICENSE' }),
  /** An asset. Its partition also holds the asset's faces. */
  asset: (assetId: string): Key => ({ pk: `ASSET#${assetId}`, sk: 'ASSET' }),
  /** One face on an asset (a named XMP face region), in the asset's partition. */
  assetFace: (assetId: string, faceId: string): Key => ({ pk: `ASSET#${assetId}`, sk: `FACE#${faceId}` }),
  /** An asset's photo edits as the sync stream sends them (AssetEditsV1), beside the asset. */
  assetEdits: (assetId: string): Key => ({ pk: `ASSET#${assetId}`, sk: 'EDITS' }),
  /**
   * One metadata key of an asset (v3's asset metadata), in a partition of the asset's own beside
   * it: reading an asset never reads its metadata. `KEY#`: a key may be empty, a sort key may not.
   */
  assetMetadata: (assetId: string, key: string): Key => ({ pk: `ASSETMETADATA#${assetId}`, sk: `KEY#${key}` }),
  /**
   * An asset's OCR lines (docs/immich-compatibility.md, "OCR"), one item replaced whole per run, in
   * a partition of the asset's own beside it: reading an asset never reads its text.
   */
  assetOcr: (assetId: string): Key => ({ pk: `ASSETOCR#${assetId}`, sk: 'OCR' }),
  /** Uniqueness of a file per owner: SHA-1 (hex) → assetId. Bulk upload checks read these. */
  checksum: (ownerId: string, sha1Hex: string): Key => ({ pk: `CHECKSUM#${ownerId}#${sha1Hex}`, sk: 'CHECKSUM' }),
  /** An asset under the device that uploaded it (`deviceAssetId`, `isVisible`): the mobile app's backup checks. */
  deviceAsset: (ownerId: string, deviceId: string, assetId: string): Key => ({
    pk: `DEVICE#${ownerId}#${deviceId}`,
    sk: `ASSET#${assetId}`,
  }),
  /** The owner's face index (docs/faces.md): the last entry's number, which every new entry moves on by one. */
  faceIndexHead: (ownerId: string): Key => ({ pk: `FACES#${ownerId}`, sk: 'HEAD' }),
  /** One photo's detected faces in the owner's face index: their ids, boxes and descriptors, in the order they were added. */
  faceIndexEntry: (ownerId: string, seq: number): Key => ({ pk: `FACES#${ownerId}`, sk: faceIndexSk(seq) }),
  /** The head of an owner's embedding index of one kind and model (docs/search.md, "The embedding index"): last number, snapshot. */
  vectorIndexHead: (ownerId: string, kind: string, model: string): Key => ({ pk: `VECTORS#${ownerId}#${kind}#${model}`, sk: 'HEAD' }),
  /** One numbered entry of an owner's embedding index: several assets' vectors. */
  vectorIndexEntry: (ownerId: string, kind: string, model: string, seq: number): Key => ({
    pk: `VECTORS#${ownerId}#${kind}#${model}`,
    sk: faceIndexSk(seq),
  }),
  /** A person, under its owner: reading it by the caller's id is also the access check. */
  person: (ownerId: string, personId: string): Key => ({ pk: `USER#${ownerId}`, sk: `PERSON#${personId}` }),
  /** Uniqueness of a person's name per owner (case-insensitive), by hash of the folded name → personId. */
  personName: (ownerId: string, nameHash: string): Key => ({ pk: `USER#${ownerId}`, sk: `PERSONNAME#${nameHash}` }),
  /** An album, under its owner: reading it by the caller's id is also the ownership check. */
  album: (ownerId: string, albumId: string): Key => ({ pk: `USER#${ownerId}`, sk: `ALBUM#${albumId}` }),
  /** A user an album is shared with, in the album's partition. */
  albumUser: (albumId: string, userId: string): Key => ({ pk: `ALBUM#${albumId}`, sk: `USER#${userId}` }),
  /** An asset in an album, in the album's partition. */
  albumAsset: (albumId: string, assetId: string): Key => ({ pk: `ALBUM#${albumId}`, sk: `ASSET#${assetId}` }),
  /**
   * An album's summary (its assets' count and dates, as its answers show them) and the change
   * marker every write of its entries and users moves, in the album's partition (docs/data-model.md, "Album summaries").
   */
  albumSummary: (albumId: string): Key => ({ pk: `ALBUM#${albumId}`, sk: 'SUMMARY' }),
  /** A user's album sync marker: the latest change to any album they have (docs/data-model.md, "Album summaries"). */
  albumSyncMark: (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'ALBUMSYNC' }),
  /** A shared link, under its creator. */
  sharedLink: (ownerId: string, linkId: string): Key => ({ pk: `USER#${ownerId}`, sk: `SHAREDLINK#${linkId}` }),
  /** A shared link by SHA-256 of its key: the one GetItem of a visitor's request. */
  sharedLinkKey: (keyHash: string): Key => ({ pk: `SHAREDLINKKEY#${keyHash}`, sk: 'SHAREDLINKKEY' }),
  /** A shared link's custom URL (Immich v3's slug): makes slugs unique and finds a link by its slug. */
  sharedLinkSlug: (slug: string): Key => ({ pk: `SHAREDLINKSLUG#${slug}`, sk: 'SHAREDLINKSLUG' }),
  /** An asset of an INDIVIDUAL shared link, in the link's partition. */
  sharedLinkAsset: (linkId: string, assetId: string): Key => ({ pk: `SHAREDLINK#${linkId}`, sk: `ASSET#${assetId}` }),
  /** A deletion an owner's apps sync (Immich's audit table): `ASSET` or `ALBUM`, kept 100 days (`ttl`). */
  audit: (ownerId: string, entityType: string, createdAt: string, entityId: string): Key => ({
    pk: `AUDIT#${ownerId}#${entityType}`,
    sk: `${createdAt}#${entityId}`,
  }),
  /** A like or comment on an album or one of its assets (Immich's activity). */
  activity: (activityId: string): Key => ({ pk: `ACTIVITY#${activityId}`, sk: 'ACTIVITY' }),
  /** One like per user per album (`ALBUM`) or per asset of it: names the like's activity. */
  activityLike: (albumId: string, target: string, userId: string): Key => ({ pk: `LIKE#${albumId}#${target}#${userId}`, sk: 'LIKE' }),
  /** A memory, under its owner: reading it by the caller's id is also the ownership check. */
  memory: (ownerId: string, memoryId: string): Key => ({ pk: `USER#${ownerId}`, sk: `MEMORY#${memoryId}` }),
  /** An asset of a memory, in the memory's partition. */
  memoryAsset: (memoryId: string, assetId: string): Key => ({ pk: `MEMORY#${memoryId}`, sk: `ASSET#${assetId}` }),
  /** A stack, under its owner: reading it by the caller's id is also the ownership check. */
  stack: (ownerId: string, stackId: string): Key => ({ pk: `USER#${ownerId}`, sk: `STACK#${stackId}` }),
  workflow: (ownerId: string, workflowId: string): Key => ({ pk: `USER#${ownerId}`, sk: `WORKFLOW#${workflowId}` }),
  /** A notification, under its user: reading it by the caller's id is also the ownership check. */
  notification: (userId: string, notificationId: string): Key => ({ pk: `USER#${userId}`, sk: `NOTIFICATION#${notificationId}` }),
  /** A tag, under its owner: reading it by the caller's id is also the ownership check. */
  tag: (ownerId: string, tagId: string): Key => ({ pk: `USER#${ownerId}`, sk: `TAG#${tagId}` }),
  /** Uniqueness of a tag's value (its full path) per owner, by hash of the value → tagId. */
  tagValue: (ownerId: string, valueHash: string): Key => ({ pk: `USER#${ownerId}`, sk: `TAGVALUE#${valueHash}` }),
  /** An asset with a tag, in the tag's partition. */
  tagAsset: (tagId: string, assetId: string): Key => ({ pk: `TAG#${tagId}`, sk: `ASSET#${assetId}` }),
  /** Immich's system metadata `memories-state`: the last day "on this day" memories were made for. */
  memoriesState: (): Key => ({ pk: 'SYSTEM', sk: 'MEMORIES_STATE' }),
  /** The nightly tasks' last run (shared/services/nightly-tasks.service.ts): one run per nightly slot. */
  nightlyTasks: (): Key => ({ pk: 'SYSTEM', sk: 'NIGHTLY_TASKS' }),
  /**
   * The stack's functions' generation, written by the deploy once every function is updated
   * (infra/cdk/deployment-mark.ts): album sync markers learnt under another are not trusted.
   */
  deployment: (): Key => ({ pk: 'SYSTEM', sk: 'DEPLOYMENT' }),
  /** The table's one-time data migrations done (shared/services/sync/migration.ts): each its own attribute. */
  migrations: (): Key => ({ pk: 'SYSTEM', sk: 'MIGRATIONS' }),
  /** A queue's runs started in one five-minute slot, on one of four shards (their counts). */
  queueSlot: (queue: string, slot: string, shard: number): Key => ({ pk: `QUEUE#${queue}`, sk: `${slot}#${shard}` }),
  /** A queue's state: when its failures were last cleared. */
  queueState: (queue: string): Key => ({ pk: `QUEUE#${queue}`, sk: 'STATE' }),
  /** A deletion the sync stream sends (shared/db/items/deletion.ts), in its scope's partition, by its change id. */
  deletion: (scope: string, deleteId: string): Key => ({ pk: `DELETED#${scope}`, sk: deleteId }),
  /** A session's sync checkpoint of one entity type (the last ack the app sent for it). */
  syncCheckpoint: (tokenHash: string, type: string): Key => ({ pk: `SESSION#${tokenHash}`, sk: `SYNC#${type}` }),
  /** An owner's timeline counters of one month (`YYYY-MM` of `localDateTime`): shared/domain/time-buckets.ts. */
  timeBuckets: (ownerId: string, month: string): Key => ({ pk: `BUCKETS#${ownerId}`, sk: month }),
  /** A partner share, under the user it is shared with (so their access checks are one GetItem). */
  partner: (sharedWithId: string, sharedById: string): Key => ({ pk: `PARTNER#${sharedWithId}`, sk: `SHAREDBY#${sharedById}` }),
  /** An open realtime connection, by API Gateway's id of it (its `$disconnect` names nothing else). */
  connection: (connectionId: string): Key => ({ pk: `CONNECTION#${connectionId}`, sk: 'CONNECTION' }),
  /** A large file's upload session (docs/large-uploads.md), by its id; the owner is an attribute, checked on every read. */
  uploadSession: (sessionId: string): Key => ({ pk: `UPLOADSESSION#${sessionId}`, sk: 'UPLOADSESSION' }),
  /**
   * An asset in its owner's trash, by when it was trashed (its `deletedAt`): what the nightly
   * clean-up finds the trash's expired assets by (docs/data-model.md, pattern 88).
   */
  trashEntry: (ownerId: string, deletedAt: string, assetId: string): Key => ({ pk: `TRASH#${ownerId}`, sk: `${deletedAt}#${assetId}` }),
  /**
   * An owner's duplicate group (docs/immich-compatibility.md, "Duplicates"): `count`, the members
   * it has; every change of its members moves it in the same transaction, so a change conditioned
   * on the count as read cannot miss a member added meanwhile.
   */
  duplicateGroup: (ownerId: string, duplicateId: string): Key => ({ pk: `DUPLICATES#${ownerId}`, sk: `GROUP#${duplicateId}` }),
  /** An asset in a duplicate group (its `duplicateId`), after its group's item: one Query lists the groups with their members. */
  duplicateMember: (ownerId: string, duplicateId: string, assetId: string): Key => ({
    pk: `DUPLICATES#${ownerId}`,
    sk: `GROUP#${duplicateId}#${assetId}`,
  }),
  /** A text-search posting: an owner's asset having a word, in date order. */
  term: (ownerId: string, word: string, fileCreatedAt: string, assetId: string): Key => ({
    pk: `TERM#${ownerId}#${word}`,
    sk: `${fileCreatedAt}#${assetId}`,
  }),
  /** An OCR search posting: an owner's asset whose text has a token (search's `ocr`), apart from the text search's words. */
  ocrTerm: (ownerId: string, token: string, assetId: string): Key => ({ pk: `OCRTERM#${ownerId}#${token}`, sk: assetId }),
} as const;

/** The sort key of everything listed in date order: `<fileCreatedAt>#<assetId>`. */
export const dateOrder = (fileCreatedAt: string, assetId: string): string => `${fileCreatedAt}#${assetId}`;

/** A face index entry's sort key: its number, zero-padded so that the keys sort as the numbers do. */
export const faceIndexSk = (seq: number): string => String(seq).padStart(12, '0');

/** An asset's id from its item's partition key (`ASSET#<id>`): what an index projection without `id` gives. */
export const assetIdOfPk = (pk: unknown): string => String(pk).slice(keys.asset('').pk.length);

/**
 * gsi3: what changed in one scope (shared/db/sync-scopes.ts), by change id. Its own function, not only
 * `partitions.changes`, so that a writer (shared/db/changes.ts) bundles it without every partition.
 */
export const changesPartition = (scope: string): Partition => ({ index: 'gsi3', value: `CHANGES#${scope}` });

/** Every partition a request queries. */
export const partitions = {
  /** A user's sessions (auth devices). */
  userSessions: (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'SESSION#' }),
  /** A user's API keys. */
  userApiKeys: (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'APIKEY#' }),
  /** An owner's face index: its entries by number, and its head (docs/faces.md). */
  faceIndex: (ownerId: string): Partition => ({ value: `FACES#${ownerId}` }),
  /** An owner's embedding index of one kind and model: its entries by number (and its head, after them). */
  vectorIndex: (ownerId: string, kind: string, model: string): Partition => ({ value: `VECTORS#${ownerId}#${kind}#${model}` }),
  /** A user's people. */
  userPeople: (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'PERSON#' }),
  /** A user's albums. */
  userAlbums: (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'ALBUM#' }),
  /** A user's shared links. */
  userSharedLinks: (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'SHAREDLINK#' }),
  /** An asset and its faces. */
  asset: (assetId: string): Partition => ({ value: keys.asset(assetId).pk }),
  /** An asset's metadata, by key. */
  assetMetadata: (assetId: string): Partition => ({ value: `ASSETMETADATA#${assetId}` }),
  /** The assets one device of an owner uploaded. */
  deviceAssets: (ownerId: string, deviceId: string): Partition => ({ value: `DEVICE#${ownerId}#${deviceId}`, prefix: 'ASSET#' }),
  /** An album's entries. */
  albumAssets: (albumId: string): Partition => ({ value: `ALBUM#${albumId}`, prefix: 'ASSET#' }),
  /** An INDIVIDUAL shared link's entries. */
  sharedLinkAssets: (linkId: string): Partition => ({ value: `SHAREDLINK#${linkId}`, prefix: 'ASSET#' }),
  /** The postings of one word of an owner's (GET /search), newest last. */
  term: (ownerId: string, word: string): Partition => ({ value: `TERM#${ownerId}#${word}` }),
  /** The assets of an owner whose text has one OCR token (search's `ocr`), by asset id. */
  ocrTerm: (ownerId: string, token: string): Partition => ({ value: `OCRTERM#${ownerId}#${token}` }),
  /** An owner's timeline counters, one item a month, oldest first. */
  timeBuckets: (ownerId: string): Partition => ({ value: `BUCKETS#${ownerId}` }),
  /** An owner's duplicate groups, each item followed by its members'. */
  duplicates: (ownerId: string): Partition => ({ value: `DUPLICATES#${ownerId}`, prefix: 'GROUP#' }),
  /** One duplicate group: its item and its members'. */
  duplicateGroup: (ownerId: string, duplicateId: string): Partition => ({ value: `DUPLICATES#${ownerId}`, prefix: `GROUP#${duplicateId}` }),
  /** An owner's trashed assets, longest in the trash first. */
  trash: (ownerId: string): Partition => ({ value: `TRASH#${ownerId}` }),
  /** gsi1: every open realtime connection, oldest first (the heartbeat, broadcasts). */
  connections: (): Partition => ({ index: 'gsi1', value: 'CONNECTIONS' }),
  /** gsi2: a user's open realtime connections (the events they are told of). */
  userConnections: (userId: string): Partition => ({ index: 'gsi2', value: `CONNECTIONS#${userId}` }),
  /** gsi1: every user, oldest first (GET /user, the server statistics). */
  users: (): Partition => ({ index: 'gsi1', value: 'USERS' }),
  /** gsi1: an owner's assets ordered by fileCreatedAt (ties by id). */
  timeline: (ownerId: string): Partition => ({ index: 'gsi1', value: `TIMELINE#${ownerId}` }),
  /** The deletions of one entity type an owner's apps sync, oldest first. */
  audit: (ownerId: string, entityType: string): Partition => ({ value: `AUDIT#${ownerId}#${entityType}` }),
  /** gsi1: an album's likes and comments, oldest first. */
  albumActivities: (albumId: string): Partition => ({ index: 'gsi1', value: `ACTIVITIES#${albumId}` }),
  /** gsi2: the likes and comments on one asset (in any album). */
  assetActivities: (assetId: string): Partition => ({ index: 'gsi2', value: `ASSETACTIVITIES#${assetId}` }),
  /** gsi1: a face by its id (PUT and DELETE /faces/:id name a face alone). */
  face: (faceId: string): Partition => ({ index: 'gsi1', value: `FACE#${faceId}` }),
  /** A user's tags. */
  userTags: (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'TAG#' }),
  /** A tag's assets. */
  tagAssets: (tagId: string): Partition => ({ value: `TAG#${tagId}`, prefix: 'ASSET#' }),
  /** gsi2: the tags of an asset. */
  assetTags: (assetId: string): Partition => ({ index: 'gsi2', value: `ASSETTAGS#${assetId}` }),
  /** A queue's slots (sort key: the slot's start, then the shard). */
  queueSlots: (queue: string): Partition => ({ value: `QUEUE#${queue}` }),
  /** A user's stacks. */
  userStacks: (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'STACK#' }),
  /** A user's workflows. */
  userWorkflows: (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'WORKFLOW#' }),
  /** A user's notifications. */
  userNotifications: (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'NOTIFICATION#' }),
  /** A user's memories. */
  userMemories: (userId: string): Partition => ({ value: keys.user(userId).pk, prefix: 'MEMORY#' }),
  /** A memory's assets. */
  memoryAssets: (memoryId: string): Partition => ({ value: `MEMORY#${memoryId}`, prefix: 'ASSET#' }),
  /** gsi2: the memories an asset is in. */
  assetMemories: (assetId: string): Partition => ({ index: 'gsi2', value: `ASSETMEMORIES#${assetId}` }),
  /** The deletions of one scope the sync stream sends (`<ownerId>#ASSET`, `ALBUM#<albumId>#USER`…), by change id. */
  deletions: (scope: string): Partition => ({ value: `DELETED#${scope}` }),
  /** A session's sync checkpoints, one item a type. */
  syncCheckpoints: (tokenHash: string): Partition => ({ value: `SESSION#${tokenHash}`, prefix: 'SYNC#' }),
  /** gsi3: what changed in one scope (an owner's assets, faces or people, an album's entries, the users), by change id. */
  changes: (scope: string): Partition => changesPartition(scope),
  /** gsi2: an owner's assets ordered by updatedAt (ties by id): the mobile app's delta sync. */
  assetsByUpdate: (ownerId: string): Partition => ({ index: 'gsi2', value: `UPDATED#${ownerId}` }),
  /** gsi2: a person's faces, ordered by their asset's fileCreatedAt. */
  personFaces: (personId: string): Partition => ({ index: 'gsi2', value: `PERSON#${personId}` }),
  /** The partners who share their library with a user. */
  partnersSharingWith: (userId: string): Partition => ({ value: `PARTNER#${userId}`, prefix: 'SHAREDBY#' }),
  /** gsi2: the users a user shares their library with. */
  partnersSharedBy: (userId: string): Partition => ({ index: 'gsi2', value: `PARTNERSOF#${userId}` }),
  /** gsi2: the albums shared with a user. */
  albumsSharedWith: (userId: string): Partition => ({ index: 'gsi2', value: `SHAREDWITH#${userId}` }),
  /** gsi2: the albums an asset is in (kept in step when the asset is trashed, archived or deleted). */
  assetAlbums: (assetId: string): Partition => ({ index: 'gsi2', value: `ASSETALBUMS#${assetId}` }),
  /** gsi2: the shared links an asset is in. */
  assetLinks: (assetId: string): Partition => ({ index: 'gsi2', value: `ASSETLINKS#${assetId}` }),
  /** An EXIF index (`make` … `country`): an owner's assets with one value, exact and case-sensitive, in date order. */
  exif: (field: SearchableExifField, ownerId: string, value: string): Partition => ({ index: field, value: `${ownerId}#${value}` }),
  /** The map index: an owner's assets with a position, in date order. */
  geo: (ownerId: string): Partition => ({ index: 'geo', value: ownerId }),
  /** The folder index: an owner's assets by original path, those under `prefix` if given. */
  folder: (ownerId: string, prefix?: string): Partition => ({
    index: 'folder',
    value: ownerId,
    ...(prefix === undefined ? {} : { prefix }),
  }),
} as const;

/** The index attributes an item carries: built from the same partitions requests query. */
export const indexKeys = {
  /** A connection in the list of every connection (gsi1, by when it opened) and in its user's (gsi2). */
  connection: (userId: string, connectedAt: string, connectionId: string) => ({
    gsi1pk: partitions.connections().value,
    gsi1sk: `${connectedAt}#${connectionId}`,
    gsi2pk: partitions.userConnections(userId).value,
    gsi2sk: connectionId,
  }),
  users: (createdAt: string, userId: string) => ({ gsi1pk: partitions.users().value, gsi1sk: dateOrder(createdAt, userId) }),
  timeline: (ownerId: string, fileCreatedAt: string, assetId: string) => ({
    gsi1pk: partitions.timeline(ownerId).value,
    gsi1sk: dateOrder(fileCreatedAt, assetId),
  }),
  assetsByUpdate: (ownerId: string, updatedAt: string, assetId: string) => ({
    gsi2pk: partitions.assetsByUpdate(ownerId).value,
    gsi2sk: dateOrder(updatedAt, assetId),
  }),
  personFaces: (personId: string, fileCreatedAt: string, assetId: string, faceId: string) => ({
    gsi2pk: partitions.personFaces(personId).value,
    gsi2sk: `${dateOrder(fileCreatedAt, assetId)}#${faceId}`,
  }),
  partnersSharedBy: (sharedById: string, sharedWithId: string) => ({
    gsi2pk: partitions.partnersSharedBy(sharedById).value,
    gsi2sk: sharedWithId,
  }),
  albumsSharedWith: (userId: string, albumId: string) => ({ gsi2pk: partitions.albumsSharedWith(userId).value, gsi2sk: albumId }),
  assetAlbums: (assetId: string, albumId: string) => ({ gsi2pk: partitions.assetAlbums(assetId).value, gsi2sk: albumId }),
  assetLinks: (assetId: string, linkId: string) => ({ gsi2pk: partitions.assetLinks(assetId).value, gsi2sk: linkId }),
  albumActivities: (albumId: string, createdAt: string, activityId: string) => ({
    gsi1pk: partitions.albumActivities(albumId).value,
    gsi1sk: dateOrder(createdAt, activityId),
  }),
  assetActivities: (assetId: string, activityId: string) => ({ gsi2pk: partitions.assetActivities(assetId).value, gsi2sk: activityId }),
  face: (faceId: string, assetId: string) => ({ gsi1pk: partitions.face(faceId).value, gsi1sk: assetId }),
  assetTags: (assetId: string, tagId: string) => ({ gsi2pk: partitions.assetTags(assetId).value, gsi2sk: tagId }),
  assetMemories: (assetId: string, memoryId: string) => ({ gsi2pk: partitions.assetMemories(assetId).value, gsi2sk: memoryId }),
  /** `ix_geo` (the map index) when the asset has a position. */
  geo: (ownerId: string, exif: { latitude: number | null; longitude: number | null }): Record<string, string> =>
    exif.latitude !== null && exif.longitude !== null ? { ix_geo: partitions.geo(ownerId).value } : {},
  /** `ix_<field>` for each searchable EXIF value the asset has. */
  exif: (
    ownerId: string,
    exif: Partial<Record<SearchableExifField, string | null>>,
    fields: readonly SearchableExifField[],
  ): Record<string, string> =>
    Object.fromEntries(
      fields.flatMap((field) => {
        const value = exif[field];
        return typeof value === 'string' && value !== '' ? [[`ix_${field}`, partitions.exif(field, ownerId, value).value]] : [];
      }),
    ),
} as const;
