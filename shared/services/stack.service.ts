import { randomUUID } from 'node:crypto';
import { requireAssets } from '../access/asset-access.ts';
import { Permission } from '../access/permission.ts';
import { requireStack, requireStacks } from '../access/stack-access.ts';
import { Conflict, Invalid } from '../core/errors.ts';
import * as assetRepo from '../db/asset.repository.ts';
import { done, doneWith, type Outcome, refused } from '../db/outcome.ts';
import type { StackChange } from '../db/stack.repository.ts';
import * as stackRepo from '../db/stack.repository.ts';
import { type AssetRecord, isListed, type StackRef } from '../model/asset.ts';
import { maxStackSize, type StackRecord, type StackView } from '../model/stack.ts';
import type { Auth } from '../model/user.ts';
import { raise } from '../realtime/outbox.ts';

/**
 * Immich v3's stacks (its StackService): an owner's assets shown as one, led by the primary asset.
 * Every change writes the stacks it touches and every member's copy of its stack in one
 * transaction (shared/db/stack.repository.ts; docs/immich-compatibility.md, "Stacks").
 */

const refOf = (stack: StackRecord): StackRef => ({ id: stack.id, primaryAssetId: stack.primaryAssetId, assetCount: stack.assetIds.length });

/** The members a stack shows, as Immich loads them: untrashed, in the timeline or the archive; the primary first. */
const shown = (stack: StackRecord, assets: readonly AssetRecord[]): AssetRecord[] => {
  const byId = new Map(assets.map((asset) => [asset.id, asset]));
  return stack.assetIds.flatMap((id) => {
    const asset = byId.get(id);
    return asset && asset.deletedAt === null && isListed(asset.visibility) ? [asset] : [];
  });
};

const viewOf = async (stack: StackRecord): Promise<StackView<AssetRecord>> => ({
  stack,
  assets: shown(stack, await assetRepo.getMany(stack.assetIds)),
});

/** Runs a change prepared from fresh reads, again while a concurrent one wins the race (`changed`); then 409. */
const retrying = async <T>(change: () => Promise<Outcome<'changed', T>>): Promise<T> => {
  for (let attempt = 0; ; attempt++) {
    const outcome = await change();
    if (outcome.ok) return outcome.value;
    if (attempt >= 4) throw new Conflict('The stack was changed by another request; try again');
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * (attempt + 1)));
  }
};

/**
 * The caller's apps are told their stacks changed (`on_asset_stack_update`, no payload), as
 * Immich tells them after any of its stack operations (never for an asset deleted for good).
 */
const stacksChanged = <T>(auth: Auth, result: T): T => {
  raise({ kind: 'stacks-changed', userId: auth.user.id });
  return result;
};

/** Writes a change, refused first when it is larger than one transaction holds; `changed` when it met a concurrent one. */
const write = async (change: StackChange): Promise<Outcome<'changed'>> => {
  const outcome = await stackRepo.writeChange(change);
  if (outcome.ok) return done();
  if (outcome.reason === 'too-large') throw new Invalid('Too many assets or stacks in one change of stacks');
  return refused(outcome.reason);
};

/** The owner's stacks of these assets (each read once), by id. */
const stacksOf = async (ownerId: string, assets: readonly AssetRecord[]): Promise<StackRecord[]> => {
  const ids = [...new Set(assets.flatMap((asset) => (asset.stack ? [asset.stack.id] : [])))];
  return stackRepo.getMany(ownerId, ids);
};

/**
 * POST /stacks: a stack of the caller's assets, the first one its primary (Immich's `create`).
 * A stack whose primary is among them joins whole (its stack is deleted); a stack that only
 * loses some of them keeps the rest (deleted once fewer than two are left).
 */
export const createStack = (auth: Auth, assetIds: readonly string[]): Promise<StackView<AssetRecord>> =>
  retrying(async () => {
    const ownerId = auth.user.id;
    const unique = [...new Set(assetIds)];
    if (unique.length < 2) throw new Invalid('A stack needs at least two assets');
    const asked = await requireAssets(auth, Permission.AssetUpdate, unique);
    const touched = await stacksOf(ownerId, asked);
    const merged = touched.filter((stack) => unique.includes(stack.primaryAssetId));
    const memberIds = [...new Set([...unique, ...merged.flatMap((stack) => stack.assetIds)])];
    if (memberIds.length > maxStackSize) throw new Invalid(`A stack holds at most ${maxStackSize} assets here`);
    const others = touched.filter((stack) => !merged.includes(stack));
    const read = new Map(asked.map((asset) => [asset.id, asset]));
    const missing = [...memberIds, ...others.flatMap((stack) => stack.assetIds)].filter((id) => !read.has(id));
    for (const asset of await assetRepo.getMany([...new Set(missing)])) if (asset.ownerId === ownerId) read.set(asset.id, asset);

    const now = new Date().toISOString();
    const members = memberIds.flatMap((id) => read.get(id) ?? []);
    const stack: StackRecord = {
      id: randomUUID(),
      ownerId,
      primaryAssetId: unique[0] ?? '',
      assetIds: members.map((asset) => asset.id),
      createdAt: now,
      updatedAt: now,
    };
    const change: StackChange = {
      ownerId,
      put: [{ stack }],
      remove: [...merged],
      members: members.map((asset) => ({ asset, stack: refOf(stack) })),
    };
    for (const other of others) {
      const rest = other.assetIds.filter((id) => !memberIds.includes(id) && read.has(id));
      if (rest.length < 2) {
        change.remove.push(other);
        for (const id of rest) change.members.push({ asset: read.get(id) as AssetRecord, stack: null });
      } else {
        const primaryAssetId = rest.includes(other.primaryAssetId) ? other.primaryAssetId : (rest[0] as string);
        const kept: StackRecord = { ...other, primaryAssetId, assetIds: rest, updatedAt: now };
        change.put.push({ stack: kept, was: other });
        for (const id of rest) change.members.push({ asset: read.get(id) as AssetRecord, stack: refOf(kept) });
      }
    }
    const written = await write(change);
    return written.ok ? doneWith(stacksChanged(auth, { stack, assets: shown(stack, members) })) : written;
  });

/**
 * v1.100's `PUT /asset {ids, stackParentId}`: the assets join the parent's stack, or a new one
 * it leads (Immich v1.100 `updateAll`; here as POST /stacks with the parent first, so a stack
 * one of them leads comes in whole).
 */
export const stackUnderParent = async (auth: Auth, parentId: string, assetIds: readonly string[]): Promise<void> => {
  const [parent] = await requireAssets(auth, Permission.AssetUpdate, [parentId]);
  const parentStack = parent?.stack ? await stackRepo.get(auth.user.id, parent.stack.id) : undefined;
  const members = parentStack && parentStack.primaryAssetId === parentId ? parentStack.assetIds : [parentId];
  await createStack(auth, [...new Set([...members, ...assetIds])]);
};

/**
 * v1.100's `PUT /asset {ids, removeParent: true}` (its web app's Unstack): each asset leaves its
 * stack (a stack's primary stays); a stack left with fewer than two goes, as v1.100's.
 */
export const unstackAssets = async (auth: Auth, assetIds: readonly string[]): Promise<void> => {
  const assets = await requireAssets(auth, Permission.AssetUpdate, assetIds);
  const stackIds = [...new Set(assets.flatMap((asset) => (asset.stack ? [asset.stack.id] : [])))];
  const leaving = new Set(assets.map((asset) => asset.id));
  for (const stackId of stackIds)
    await retrying(async () => {
      const stack = await stackRepo.get(auth.user.id, stackId);
      if (!stack) return done();
      const rest = stack.assetIds.filter((id) => !leaving.has(id) || id === stack.primaryAssetId);
      if (rest.length === stack.assetIds.length) return done();
      const members = await membersOf(stack);
      if (rest.length < 2)
        return write({ ownerId: stack.ownerId, put: [], remove: [stack], members: members.map((asset) => ({ asset, stack: null })) });
      const updated: StackRecord = { ...stack, assetIds: rest, updatedAt: new Date().toISOString() };
      return write({
        ownerId: stack.ownerId,
        put: [{ stack: updated, was: stack }],
        remove: [],
        members: members.map((asset) => ({ asset, stack: rest.includes(asset.id) ? refOf(updated) : null })),
      });
    });
  stacksChanged(auth, undefined);
};

/**
 * v1.100's `PUT /asset/stack/parent {oldParentId, newParentId}`: another asset of the old
 * parent's stack leads it (400 when the old parent is in none, where v1.100 failed with a 500).
 */
export const updateStackParent = async (auth: Auth, oldParentId: string, newParentId: string): Promise<void> => {
  const [oldParent] = await requireAssets(auth, Permission.AssetRead, [oldParentId]);
  await requireAssets(auth, Permission.AssetUpdate, [newParentId]);
  if (!oldParent?.stack) throw new Invalid('Asset not found or not in a stack');
  await updateStack(auth, oldParent.stack.id, newParentId);
};

/** A stack's members other than its primary, as v1.100's asset detail lists them (`stack`). */
export const stackChildren = async (asset: AssetRecord): Promise<AssetRecord[]> => {
  if (!asset.stack) return [];
  const stack = await stackRepo.get(asset.ownerId, asset.stack.id);
  return stack ? shown(stack, await assetRepo.getMany(stack.assetIds)).filter((member) => member.id !== stack.primaryAssetId) : [];
};

/** GET /stacks?primaryAssetId=: the caller's stacks (one Query), with their assets. */
export const searchStacks = async (auth: Auth, primaryAssetId?: string): Promise<StackView<AssetRecord>[]> => {
  const stacks = (await stackRepo.list(auth.user.id)).filter((stack) => !primaryAssetId || stack.primaryAssetId === primaryAssetId);
  const assets = await assetRepo.getMany(stacks.flatMap((stack) => stack.assetIds));
  return stacks.map((stack) => ({ stack, assets: shown(stack, assets) }));
};

/** GET /stacks/:id. */
export const getStackView = async (auth: Auth, id: string): Promise<StackView<AssetRecord>> =>
  viewOf(await requireStack(auth, Permission.StackRead, id));

/** The stack's members as stored, for a change that rewrites every copy. */
const membersOf = async (stack: StackRecord): Promise<AssetRecord[]> =>
  (await assetRepo.getMany(stack.assetIds)).filter((asset) => asset.ownerId === stack.ownerId);

/** PUT /stacks/:id `{primaryAssetId}`: another member leads it (Immich's `update`). */
export const updateStack = (auth: Auth, id: string, primaryAssetId: string | undefined): Promise<StackView<AssetRecord>> =>
  retrying(async () => {
    const stack = await requireStack(auth, Permission.StackUpdate, id);
    if (primaryAssetId && !stack.assetIds.includes(primaryAssetId)) throw new Invalid('Primary asset must be in the stack');
    if (!primaryAssetId || primaryAssetId === stack.primaryAssetId) return doneWith(stacksChanged(auth, await viewOf(stack)));
    const updated: StackRecord = { ...stack, primaryAssetId, updatedAt: new Date().toISOString() };
    const members = await membersOf(stack);
    const written = await write({
      ownerId: stack.ownerId,
      put: [{ stack: updated, was: stack }],
      remove: [],
      members: members.map((asset) => ({ asset, stack: refOf(updated) })),
    });
    return written.ok ? doneWith(stacksChanged(auth, { stack: updated, assets: shown(updated, members) })) : written;
  });

const deleteOne = (auth: Auth, id: string): Promise<void> =>
  retrying(async () => {
    const stack = await requireStack(auth, Permission.StackDelete, id);
    const members = await membersOf(stack);
    return write({ ownerId: stack.ownerId, put: [], remove: [stack], members: members.map((asset) => ({ asset, stack: null })) });
  });

/** DELETE /stacks/:id: the stack goes, its assets stay (unstacked), as Immich's. */
export const deleteStack = async (auth: Auth, id: string): Promise<void> => {
  await requireStack(auth, Permission.StackDelete, id);
  await deleteOne(auth, id);
  stacksChanged(auth, undefined);
};

/**
 * DELETE /stacks `{ids}`: every one the caller's, else 400 and none goes. Checked 100 a read; then
 * deleted one after the other (stacks of one month share its timeline counters, so parallel
 * transactions would cancel each other).
 */
export const deleteStacks = async (auth: Auth, ids: readonly string[]): Promise<void> => {
  const stacks = await requireStacks(auth, Permission.StackDelete, ids);
  for (const stack of stacks) await deleteOne(auth, stack.id);
  stacksChanged(auth, undefined);
};

/**
 * DELETE /stacks/:id/assets/:assetId: a member other than the primary leaves the stack (Immich's
 * `removeAsset`; the stack stays, however few are left, as Immich's).
 */
export const removeAssetFromStack = (auth: Auth, id: string, assetId: string): Promise<void> =>
  retrying(async () => {
    const stack = await requireStack(auth, Permission.StackUpdate, id);
    if (!stack.assetIds.includes(assetId)) throw new Invalid('Asset not in stack');
    if (stack.primaryAssetId === assetId) throw new Invalid("Cannot remove stack's primary asset");
    const updated: StackRecord = {
      ...stack,
      assetIds: stack.assetIds.filter((each) => each !== assetId),
      updatedAt: new Date().toISOString(),
    };
    const members = await membersOf(stack);
    const written = await write({
      ownerId: stack.ownerId,
      put: [{ stack: updated, was: stack }],
      remove: [],
      members: members.map((asset) => ({ asset, stack: asset.id === assetId ? null : refOf(updated) })),
    });
    if (written.ok) stacksChanged(auth, undefined);
    return written;
  });

/**
 * An asset deleted for good leaves its stack, as Immich's asset deletion: when fewer than two
 * members remain the stack goes (the last one unstacked); when it led the stack, the next member
 * leads it. Called once the asset is gone, so its own item is not written.
 */
export const leaveStackForGood = (asset: AssetRecord): Promise<void> => leaveStack(asset);

/**
 * An asset moved into the locked folder leaves its stack as one deleted for good does, and is
 * unstacked itself, so no stack shows it or its id to partners (docs/immich-compatibility.md,
 * "Stacks"; Immich leaves it there, its primary too). It stays out once it comes back, as it stays
 * out of its albums. The owner's apps are told their stacks changed.
 */
export const leaveStackWhenLocked = async (asset: AssetRecord): Promise<void> => {
  if (!asset.stack) return;
  await leaveStack(asset);
  raise({ kind: 'stacks-changed', userId: asset.ownerId });
};

/** The asset out of its stack: its own copy unset too while it is there (`leaveStackForGood`'s is gone). */
const leaveStack = async (asset: AssetRecord): Promise<void> => {
  const ref = asset.stack;
  if (!ref) return;
  await retrying(async () => {
    const stack = await stackRepo.get(asset.ownerId, ref.id);
    if (!stack?.assetIds.includes(asset.id)) return done();
    const members = await membersOf(stack);
    const rest = stack.assetIds.filter((id) => id !== asset.id && members.some((member) => member.id === id));
    if (rest.length < 2)
      return write({
        ownerId: stack.ownerId,
        put: [],
        remove: [stack],
        members: members.map((member) => ({ asset: member, stack: null })),
      });
    const primaryAssetId = rest.includes(stack.primaryAssetId) ? stack.primaryAssetId : (rest[0] as string);
    const updated: StackRecord = { ...stack, assetIds: rest, primaryAssetId, updatedAt: new Date().toISOString() };
    return write({
      ownerId: stack.ownerId,
      put: [{ stack: updated, was: stack }],
      remove: [],
      members: members.map((member) => ({ asset: member, stack: member.id === asset.id ? null : refOf(updated) })),
    });
  });
};

/**
 * A purged owner's stacks that are still there once their assets are gone (each asset left its
 * stack as it went, so normally none): deleted as DELETE /stacks/:id deletes one, with its record.
 */
export const deleteStacksOf = async (ownerId: string): Promise<void> => {
  for (const { id } of await stackRepo.list(ownerId))
    await retrying(async () => {
      const stack = await stackRepo.get(ownerId, id);
      if (!stack) return done();
      const members = await membersOf(stack);
      return write({ ownerId, put: [], remove: [stack], members: members.map((asset) => ({ asset, stack: null })) });
    });
};
