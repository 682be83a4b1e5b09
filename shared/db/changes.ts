import { randomBytes } from 'node:crypto';
import { changesPartition, type Key } from './keys.ts';
import * as syncScopes from './sync-scopes.ts';

/**
 * Change ids: the `updateId` every item the mobile app syncs carries (docs/data-model.md, "Change
 * ids and the sync stream"). A UUIDv7, as Immich's: 48 bits of milliseconds, then randomness, so
 * ids order by time as strings do. Within one process they also strictly increase (a counter in
 * the random bits when two fall in one millisecond), so two changes of one request keep their order.
 */
let lastMs = 0;
let sequence = 0;

const hex = (value: number, digits: number): string => value.toString(16).padStart(digits, '0');

const format = (ms: number, seq: number, random: Buffer): string => {
  const time = hex(ms, 12);
  // version 7 and 12 bits of sequence; variant 10 and 62 random bits.
  const a = `7${hex(seq & 0xfff, 3)}`;
  const b = hex((0x8000 | (random.readUInt16BE(0) & 0x3fff)) >>> 0, 4);
  return `${time.slice(0, 8)}-${time.slice(8)}-${a}-${b}-${random.subarray(2, 8).toString('hex')}`;
};

/** A new change id, greater than every one this process made before. */
export const newChangeId = (): string => {
  let ms = Date.now();
  if (ms <= lastMs) {
    ms = lastMs;
    sequence++;
    if (sequence > 0xfff) {
      ms = ++lastMs;
      sequence = 0;
    }
  } else {
    lastMs = ms;
    sequence = Math.floor(Math.random() * 0x400);
  }
  return format(ms, sequence, randomBytes(8));
};

/** The smallest change id of a millisecond: every change made from then on sorts after it. */
export const changeIdAt = (ms: number): string => {
  const time = hex(Math.max(0, Math.floor(ms)), 12);
  return `${time.slice(0, 8)}-${time.slice(8)}-7000-8000-000000000000`;
};

/** The millisecond a change id was made in. */
export const changeIdTime = (id: string): number => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);

/** The entities the sync stream sends, by the keys of their items. */
export type SyncedEntity =
  | 'asset'
  | 'face'
  | 'person'
  | 'user'
  | 'album'
  | 'albumUser'
  | 'albumAsset'
  | 'partner'
  | 'memory'
  | 'memoryAsset'
  | 'stack'
  | 'assetEdits'
  | 'assetMetadata'
  | 'assetOcr';

/** Which synced entity an item is, from its key (shared/db/keys.ts), or undefined for the rest. */
export const syncedEntityOf = ({ pk, sk }: Key): SyncedEntity | undefined => {
  if (pk.startsWith('ASSET#'))
    return sk === 'ASSET' ? 'asset' : sk.startsWith('FACE#') ? 'face' : sk === 'EDITS' ? 'assetEdits' : undefined;
  if (pk.startsWith('USER#')) {
    if (sk === 'USER') return 'user';
    if (sk.startsWith('PERSON#')) return 'person';
    if (sk.startsWith('ALBUM#')) return 'album';
    if (sk.startsWith('MEMORY#')) return 'memory';
    if (sk.startsWith('STACK#')) return 'stack';
    return undefined;
  }
  if (pk.startsWith('ASSETMETADATA#')) return 'assetMetadata';
  if (pk.startsWith('ASSETOCR#')) return 'assetOcr';
  if (pk.startsWith('MEMORY#')) return sk.startsWith('ASSET#') ? 'memoryAsset' : undefined;
  if (pk.startsWith('ALBUM#')) return sk.startsWith('USER#') ? 'albumUser' : sk.startsWith('ASSET#') ? 'albumAsset' : undefined;
  if (pk.startsWith('PARTNER#')) return 'partner';
  return undefined;
};

/**
 * An owner's asset metadata is listed in 16 scopes (change partitions and deletions), by the first
 * hex digit of its asset's id: the iOS app writes 20,000 keys in one request, and one partition
 * takes 1,000 writes a second (docs/data-model.md, "Change ids and the sync stream"). The stream
 * reads the 16 merged in change order. `shard`: an asset id, or one of `assetMetadataShards`.
 */
export const assetMetadataShards: readonly string[] = [...'0123456789abcdef'];

/** The entities whose creation the stream's backfills start from (Immich's `createId`). */
const created: ReadonlySet<SyncedEntity> = new Set(['album', 'albumUser', 'partner']);

/**
 * The change partition (index `gsi3`) an item is listed in, by its change id: an owner's assets,
 * faces, people, memories and memories' assets, stacks, assets' photo edits and metadata, an album's entries, every user. Albums, their users and partners are read
 * from their own partitions (a user has few), so they carry the id without a listing.
 */
const changePartition = (entity: SyncedEntity, item: Record<string, unknown>): string | undefined => {
  switch (entity) {
    case 'asset':
      return changesPartition(syncScopes.assets(String(item.ownerId))).value;
    case 'face':
      return changesPartition(syncScopes.faces(String(item.ownerId))).value;
    case 'person':
      return changesPartition(syncScopes.people(String(item.ownerId))).value;
    case 'memory':
      return changesPartition(syncScopes.memories(String(item.ownerId))).value;
    case 'memoryAsset':
      return changesPartition(syncScopes.memoryAssets(String(item.ownerId))).value;
    case 'stack':
      return changesPartition(syncScopes.stacks(String(item.ownerId))).value;
    case 'assetEdits':
      return changesPartition(syncScopes.assetEdits(String(item.ownerId))).value;
    case 'assetMetadata':
      return changesPartition(syncScopes.assetMetadata(String(item.ownerId), String(item.assetId))).value;
    case 'assetOcr':
      return changesPartition(syncScopes.assetOcr(String(item.ownerId))).value;
    case 'albumAsset':
      return changesPartition(syncScopes.albumEntries(String(item.albumId))).value;
    case 'user':
      return changesPartition(syncScopes.users()).value;
    default:
      return undefined;
  }
};

/**
 * Parts of an item the stream sends as a type of their own (Immich keeps them in tables of their
 * own, each row with its own change id): an asset's EXIF (`AssetExifV1`) and a user's metadata
 * (`UserMetadataV1`: preferences, onboarding, product key). Each part's id moves, with the item's
 * `updateId`, only when a write sets or removes one of its attributes: favouriting a photo sends
 * its asset again, not its EXIF (docs/data-model.md, "Change ids and the sync stream"). An asset's
 * move out of the locked folder (`unlockedAt`) has one too: a partner's app, whose copy of the
 * asset and its EXIF went when it moved in, gets its EXIF again then.
 */
const parts: Partial<Record<SyncedEntity, Record<string, readonly string[]>>> = {
  asset: { exifUpdateId: ['exif'], unlockUpdateId: ['unlockedAt'] },
  user: { metadataUpdateId: ['preferences', 'memoriesEnabled', 'isOnboarded', 'license'] },
};

/**
 * What a Put of an item adds to it: a new change id, its change partition, and for entities the
 * backfills start from, its creation id. Every Put the write builders make goes through this
 * (shared/db/transact.ts), so no write path can leave a synced item without its change. Its parts
 * are new with it.
 */
export const stampPut = (item: Record<string, unknown>): Record<string, unknown> => {
  const entity = syncedEntityOf({ pk: String(item.pk), sk: String(item.sk) });
  if (!entity) return item;
  const updateId = newChangeId();
  const partition = changePartition(entity, item);
  return {
    ...item,
    updateId,
    ...Object.fromEntries(Object.keys(parts[entity] ?? {}).map((part) => [part, updateId])),
    ...(partition ? { gsi3pk: partition } : {}),
    ...(created.has(entity) ? { createId: item.createId ?? updateId } : {}),
  };
};

/** `a, f(b, c), d` split at the commas outside parentheses. */
const splitTopLevel = (text: string): string[] => {
  const pieces: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === ',' && depth === 0) {
      pieces.push(text.slice(start, i));
      start = i + 1;
    }
  }
  pieces.push(text.slice(start));
  return pieces.map((piece) => piece.trim()).filter(Boolean);
};

/**
 * The top-level attributes an update expression writes (`SET #exif.#city = :c, updatedAt = :u`
 * writes `exif` and `updatedAt`), its placeholders resolved through `names`.
 */
const writtenAttributes = (expression: string, names: Record<string, string> = {}): Set<string> => {
  const written = new Set<string>();
  const clauses = expression.split(/\b(SET|REMOVE|ADD|DELETE)\s+/i).slice(1);
  for (let i = 0; i + 1 < clauses.length; i += 2) {
    const action = (clauses[i] ?? '').toUpperCase();
    for (const piece of splitTopLevel(clauses[i + 1] ?? '')) {
      const path = action === 'SET' ? (piece.split('=')[0] ?? '') : action === 'REMOVE' ? piece : (piece.split(/\s+/)[0] ?? '');
      const head = (path.trim().split(/[.[]/)[0] ?? '').trim();
      if (head) written.add(names[head] ?? head);
    }
  }
  return written;
};

/**
 * What an Update of an item adds to its expression: `SET updateId = :updateId`, in its SET clause
 * if it has one, and the same id on each part (`parts`) whose attributes it writes.
 */
export const stampUpdate = (
  key: Key,
  expression: string,
  names?: Record<string, string>,
): { expression: string; values: Record<string, unknown> } | undefined => {
  const entity = syncedEntityOf(key);
  if (!entity) return undefined;
  const values = { ':updateId': newChangeId() };
  const written = writtenAttributes(expression, names);
  const moved = Object.entries(parts[entity] ?? {})
    .filter(([, attributes]) => attributes.some((attribute) => written.has(attribute)))
    .map(([part]) => part);
  const assignments = ['updateId', ...moved].map((attribute) => `${attribute} = :updateId`).join(', ');
  const set = /\bSET\s+/i.exec(expression);
  return set
    ? { expression: `${expression.slice(0, set.index)}SET ${assignments}, ${expression.slice(set.index + set[0].length)}`, values }
    : { expression: `SET ${assignments} ${expression}`, values };
};
