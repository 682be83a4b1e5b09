import { createHash } from 'node:crypto';
import { inBatches } from '../core/concurrency.ts';
import { isAtOrBelow, type TagRecord, TagRecordSchema, tagPath } from '../model/tag.ts';
import { batchDelete, batchGet, chunk } from './batch.ts';
import { codec } from './codec.ts';
import { getItem } from './get.ts';
import * as indexKeys from './index-keys.ts';
import * as keys from './item-keys.ts';
import { done, doneWith, type Outcome } from './outcome.ts';
import * as partitions from './partitions.ts';
import { queryAll, queryPages } from './query.ts';
import { checkWrite, deleteWrite, putWrite, setFields, transact, tryTransact, tryWriteOne, updateWrite, type Write } from './transact.ts';

// The tag's v1.100 type is stored as `tagType`: `type` names the entity on every item.
const tagCodec = codec('tag', TagRecordSchema, { tagType: 'type' });

/**
 * The expected outcomes of writing tags (docs/architecture.md, "Expected outcomes"): `taken`, another
 * tag of the owner has this value (its full path); `gone`, the tag was deleted meanwhile.
 */
export type TagRefusal = 'taken' | 'gone';

/** Fixed-size key for a value (a path can be longer than a sort key may be); values are case-sensitive, as Immich's. */
const valueHash = (value: string): string => createHash('sha256').update(value).digest('base64url');

const tagItem = ({ type, ...tag }: TagRecord) => ({ ...keys.tag(tag.ownerId, tag.id), type: 'tag', tagType: type, ...tag });

const guardPut = (tag: Pick<TagRecord, 'ownerId' | 'id'>, value: string): Write<'taken'> =>
  putWrite(
    { ...keys.tagValue(tag.ownerId, valueHash(value)), type: 'tagValue', tagId: tag.id, value },
    { condition: 'absent', refusal: 'taken' },
  );

const guardDelete = (tag: Pick<TagRecord, 'ownerId'>, value: string): Write => deleteWrite(keys.tagValue(tag.ownerId, valueHash(value)));

const tagExists = (tag: Pick<TagRecord, 'ownerId' | 'id'>): Write<'gone'> =>
  checkWrite(keys.tag(tag.ownerId, tag.id), { condition: 'attribute_exists(pk)', refusal: 'gone' });

/** The owner's tag, or undefined (someone else's reads as missing). */
export const get = async (ownerId: string, tagId: string): Promise<TagRecord | undefined> => {
  const item = await getItem(keys.tag(ownerId, tagId));
  return item ? tagCodec.read(item) : undefined;
};

/** Those of `tagIds` that are the owner's tags (BatchGetItem). */
export const getMany = async (ownerId: string, tagIds: readonly string[]): Promise<TagRecord[]> =>
  (await batchGet([...new Set(tagIds)].map((id) => keys.tag(ownerId, id)))).map(tagCodec.read);

/** Every tag of an owner (Query `USER#<id>` TAG#): hundreds, not millions. */
export const list = async (ownerId: string): Promise<TagRecord[]> => (await queryAll(partitions.userTags(ownerId))).map(tagCodec.read);

/** The owner's tag with this value, through its guard. */
export const getByValue = async (ownerId: string, value: string): Promise<TagRecord | undefined> => {
  const guard = await getItem(keys.tagValue(ownerId, valueHash(value)));
  return guard ? get(ownerId, String(guard.tagId)) : undefined;
};

/**
 * The owner's tags of these values (their paths), read through their guards: two BatchGetItem
 * rounds, consistent (a tag made a moment ago by a concurrent upload is seen), whatever their number.
 */
export const getManyByValues = async (ownerId: string, values: readonly string[]): Promise<Map<string, TagRecord>> => {
  const unique = [...new Set(values)];
  if (unique.length === 0) return new Map();
  const guards = await batchGet(
    unique.map((value) => keys.tagValue(ownerId, valueHash(value))),
    { consistent: true },
  );
  const tags = (
    await batchGet(
      guards.map((guard) => keys.tag(ownerId, String(guard.tagId))),
      { consistent: true },
    )
  ).map(tagCodec.read);
  return new Map(tags.map((tag) => [tag.value, tag]));
};

/** Stores a new tag with its value's guard; `taken` if the owner has that value already (also concurrently). */
export const create = (tag: TagRecord): Promise<Outcome<'taken'>> =>
  tryTransact([putWrite(tagItem(tag), { condition: 'absent' }), guardPut(tag, tag.value)]);

/**
 * Stores new tags with their values' guards, in one transaction (at most 50 tags): `taken` if the
 * owner has one of those values already (also concurrently), nothing written then.
 */
export const createMany = async (tags: readonly TagRecord[]): Promise<Outcome<'taken'>> => {
  if (tags.length > 50) throw new Error('At most 50 tags a transaction');
  if (tags.length === 0) return done();
  return tryTransact(tags.flatMap((tag) => [putWrite(tagItem(tag), { condition: 'absent' }), guardPut(tag, tag.value)]));
};

/** Changes a tag's color or parent: the tag as changed, or `gone` if it was deleted meanwhile. */
export const update = async (
  tag: TagRecord,
  change: Partial<Pick<TagRecord, 'color' | 'parentId' | 'updatedAt'>>,
): Promise<Outcome<'gone', TagRecord>> => {
  const { expression, names, values } = setFields(change);
  const written = await tryWriteOne(
    updateWrite(keys.tag(tag.ownerId, tag.id), expression, { condition: 'present', names, values, refusal: 'gone' }),
  );
  return written.ok ? doneWith({ ...tag, ...change }) : written;
};

/**
 * Gives tags new values (a rename moves the tag's descendants' paths with it), their guards moved
 * in the same transaction: `taken` if a new value is taken, `gone` if a tag is gone or was renamed
 * meanwhile, nothing written then.
 */
export const renameTags = (renames: readonly { tag: TagRecord; value: string; updatedAt: string }[]): Promise<Outcome<TagRefusal>> =>
  tryTransact<TagRefusal>(
    renames.flatMap(({ tag, value, updatedAt }) => [
      updateWrite(keys.tag(tag.ownerId, tag.id), 'SET #value = :value, updatedAt = :updatedAt', {
        condition: '#value = :old',
        names: { '#value': 'value' },
        values: { ':value': value, ':old': tag.value, ':updatedAt': updatedAt },
        refusal: 'gone',
      }),
      guardDelete(tag, tag.value),
      guardPut(tag, value),
    ]),
  );

/** The ids of a tag's assets (Query `TAG#<id>` ASSET#). */
export const listAssetIds = async (tagId: string): Promise<string[]> =>
  (await queryAll(partitions.tagAssets(tagId), { attributes: ['assetId'] })).map((item) => String(item.assetId));

/** The ids of an asset's tags (Query gsi2 `ASSETTAGS#<id>`). */
export const listAssetTagIds = async (assetId: string): Promise<string[]> =>
  (await queryAll(partitions.assetTags(assetId), { attributes: ['tagId'] })).map((item) => String(item.tagId));

/** Tags whose entries are read and deleted at once (a Query each, then its BatchWriteItems). */
const entriesInFlight = 16;
/** Transactions of one level's deletes in flight at once. */
const deletesInFlight = 4;

/**
 * Deletes tags (a tag with those below it, or any set closed under "below"), so that a run cut
 * short at any point (a Lambda's timeout) leaves a whole, smaller tree that the same delete asked
 * again finishes (docs/data-model.md, pattern 70): first every tag's asset entries (a Query and
 * BatchWriteItems each, 16 tags at once), then the tags with their guards, deepest level first
 * (50 tags a transaction, a few at once): a tag is only ever deleted after every tag below it, and
 * an entry never outlives its tag.
 */
export const deleteMany = async (tags: readonly TagRecord[]): Promise<void> => {
  await inBatches(tags, entriesInFlight, async (tag) => {
    const assetIds = await listAssetIds(tag.id);
    await batchDelete(assetIds.map((assetId) => keys.tagAsset(tag.id, assetId)));
  });
  const byDepth = new Map<number, TagRecord[]>();
  for (const tag of tags) {
    const depth = tagPath(tag.value).length;
    byDepth.set(depth, [...(byDepth.get(depth) ?? []), tag]);
  }
  for (const depth of [...byDepth.keys()].sort((a, b) => b - a))
    await inBatches(chunk(byDepth.get(depth) ?? [], 50), deletesInFlight, async (part) => {
      await transact(part.flatMap((tag) => [deleteWrite(keys.tag(tag.ownerId, tag.id)), guardDelete(tag, tag.value)]));
    });
};

/** Which of `assetIds` have the tag (BatchGetItem of their entries). */
export const tagAssetsAmong = async (tagId: string, assetIds: readonly string[]): Promise<Set<string>> =>
  new Set((await batchGet([...new Set(assetIds)].map((assetId) => keys.tagAsset(tagId, assetId)))).map((item) => String(item.assetId)));

/** Tags assets (99 a transaction, each checking the tag still exists: `gone` if not, the transactions after it not written). */
export const addAssets = async (tag: Pick<TagRecord, 'ownerId' | 'id'>, assetIds: readonly string[]): Promise<Outcome<'gone'>> => {
  for (const part of chunk(assetIds, 99)) {
    const written = await tryTransact([
      tagExists(tag),
      ...part.map((assetId) =>
        putWrite({
          ...keys.tagAsset(tag.id, assetId),
          ...indexKeys.assetTags(assetId, tag.id),
          type: 'tagAsset',
          tagId: tag.id,
          assetId,
          ownerId: tag.ownerId,
        }),
      ),
    ]);
    if (!written.ok) return written;
  }
  return done();
};

/**
 * Puts tags on one asset (Immich's `replaceAssetTags` adding what is missing; an entry already
 * there is written again, unchanged): 50 tags a transaction, each checking its tag still exists
 * (`gone` if one was deleted meanwhile: that transaction and those after it write nothing).
 */
export const addAssetTags = async (ownerId: string, assetId: string, tagIds: readonly string[]): Promise<Outcome<'gone'>> => {
  for (const part of chunk([...new Set(tagIds)], 50)) {
    const written = await tryTransact(
      part.flatMap((tagId) => [
        tagExists({ ownerId, id: tagId }),
        putWrite({
          ...keys.tagAsset(tagId, assetId),
          ...indexKeys.assetTags(assetId, tagId),
          type: 'tagAsset',
          tagId,
          assetId,
          ownerId,
        }),
      ]),
    );
    if (!written.ok) return written;
  }
  return done();
};

/** Takes tags off one asset (those entries only, by key: what a failed upload had put on its asset). */
export const removeAssetTags = async (assetId: string, tagIds: readonly string[]): Promise<void> => {
  await batchDelete([...new Set(tagIds)].map((tagId) => keys.tagAsset(tagId, assetId)));
};

/** Untags assets. */
export const removeAssets = async (tagId: string, assetIds: readonly string[]): Promise<void> => {
  await batchDelete(assetIds.map((assetId) => keys.tagAsset(tagId, assetId)));
};

/** What goes with an asset deleted for good: its tags' entries (Query gsi2). */
export const deleteAssetTagEntries = async (assetId: string): Promise<void> => {
  const tagIds = await listAssetTagIds(assetId);
  await batchDelete(tagIds.map((tagId) => keys.tagAsset(tagId, assetId)));
};

/** Whether the owner has any tag (Query `USER#<id>` TAG#, one item at most). */
const hasTags = async (ownerId: string): Promise<boolean> => {
  for await (const page of queryPages(partitions.userTags(ownerId), { pageSize: 1, attributes: ['id'] })) return page.length > 0;
  return false;
};

const byValue = (a: TagRecord, b: TagRecord): number => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

/**
 * The owner's tags on each of these assets (their detail view, as Immich loads them), by value:
 * one Query an asset (gsi2 `ASSETTAGS#<id>`), eight at a time, then every tag named in one
 * BatchGetItem per 100. For more than one asset of an owner without any tag (most libraries), one
 * Query in all.
 */
export const listAssetsTags = async (ownerId: string, assetIds: readonly string[]): Promise<Map<string, TagRecord[]>> => {
  const unique = [...new Set(assetIds)];
  if (unique.length > 1 && !(await hasTags(ownerId))) return new Map(unique.map((id) => [id, []]));
  const tagIds = new Map<string, string[]>();
  await inBatches(unique, 8, async (assetId) => {
    tagIds.set(assetId, await listAssetTagIds(assetId));
  });
  const tags = new Map((await getMany(ownerId, [...tagIds.values()].flat())).map((tag) => [tag.id, tag]));
  return new Map(unique.map((id) => [id, (tagIds.get(id) ?? []).flatMap((tagId) => tags.get(tagId) ?? []).sort(byValue)]));
};

/**
 * The assets with a tag or one below it (Immich's tag closure), of the owner's tag: what v3's
 * timeline `tagId` and search `tagIds` match. A tag that is not the owner's matches nothing.
 */
export const assetIdsTagged = async (ownerId: string, tagId: string): Promise<Set<string>> => {
  const tag = await get(ownerId, tagId);
  if (!tag) return new Set();
  const below = (await list(ownerId)).filter((each) => isAtOrBelow(each, tag));
  const lists = await Promise.all(below.map((each) => listAssetIds(each.id)));
  return new Set(lists.flat());
};

/** Whether any asset has this tag itself (Query `TAG#<id>` ASSET#, one item at most). */
export const tagHasAssets = async (tagId: string): Promise<boolean> => {
  for await (const page of queryPages(partitions.tagAssets(tagId), { pageSize: 1, attributes: ['assetId'] })) return page.length > 0;
  return false;
};
