import { randomUUID } from 'node:crypto';
import { allowedAssets } from '../access/asset-access.ts';
import { requireMemory } from '../access/memory-access.ts';
import { accessLost, Permission } from '../access/permission.ts';
import { inBatches } from '../core/concurrency.ts';
import { derivedUuid } from '../core/crypto.ts';
import { log } from '../core/log.ts';
import * as assetRepo from '../db/asset.repository.ts';
import * as memoryRepo from '../db/memory.repository.ts';
import * as personRepo from '../db/person.repository.ts';
import * as userRepo from '../db/user.repository.ts';
import { addOutcomes, removeOutcomes } from '../domain/bulk-ids.ts';
import type { BulkIdResult } from '../model/album.ts';
import { type AssetRecord, inTimeline } from '../model/asset.ts';
import type { MemoryChange, MemoryFilter, MemoryRecord, MemoryView, NewMemory } from '../model/memory.ts';
import type { Auth } from '../model/user.ts';
import { takenOnThisDay } from './on-this-day.ts';
import type { WorkBudget } from './work-budget.ts';

/**
 * Memories, as Immich v3's `MemoryService` (docs/immich-compatibility.md, "Memories"): the
 * routes of `/memories`, and the nightly job that makes "on this day" memories and removes the
 * unsaved ones after 30 days (shared/services/nightly-tasks.service.ts runs both).
 */

const dayMs = 86_400_000;
/** Immich's window: memories are made for the days from 3 before today to 3 after. */
const DAYS = 3;
/** Immich's job keeps 20 photos of a year's day. */
const PER_YEAR = 20;
/** Unsaved memories go this long after they were made (Immich's `MemoryCleanup`). */
const KEEP_DAYS = 30;

const byTakenAt = (a: AssetRecord, b: AssetRecord): number => a.fileCreatedAt.localeCompare(b.fileCreatedAt) || a.id.localeCompare(b.id);

/** A memory's assets still in the timeline (not archived, hidden, locked or trashed), oldest first. */
const assetsOf = async (memory: MemoryRecord): Promise<AssetRecord[]> =>
  (await assetRepo.getMany(await memoryRepo.listAssetIds(memory.id))).filter(inTimeline).sort(byTakenAt);

const viewOf = async (memory: MemoryRecord): Promise<MemoryView> => ({ memory, assets: await assetsOf(memory) });

/** Immich's `MemorySearchDto` filter, on one owner's memories. */
const matches = (memory: MemoryRecord, filter: MemoryFilter, now: string): boolean =>
  // No memory is ever soft-deleted (Immich's delete removes it), so `isTrashed` finds none.
  filter.isTrashed !== true &&
  (filter.id === undefined || memory.id === filter.id) &&
  (filter.isUpcoming === undefined || (memory.showAt !== null && memory.showAt > now) === filter.isUpcoming) &&
  (filter.isSaved === undefined || memory.isSaved === filter.isSaved) &&
  (filter.type === undefined || memory.type === filter.type) &&
  (filter.for === undefined ||
    ((memory.showAt === null || memory.showAt <= filter.for) && (memory.hideAt === null || memory.hideAt >= filter.for)));

const shuffled = <T>(items: T[]): T[] => {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
};

const ordered = (memories: MemoryRecord[], order: MemoryFilter['order']): MemoryRecord[] =>
  order === 'random'
    ? shuffled(memories)
    : memories.sort((a, b) => (order === 'asc' ? 1 : -1) * (a.memoryAt.localeCompare(b.memoryAt) || a.id.localeCompare(b.id)));

/**
 * GET /memories: the caller's memories the filter matches, by `memoryAt` (newest first unless
 * asked), at most `size` (its `page`), each with its assets; those left with none are not answered (Immich's),
 * nor are assets showing a person the owner hid.
 */
export const searchMemories = async (auth: Auth, filter: MemoryFilter): Promise<MemoryView[]> => {
  const now = new Date().toISOString();
  const found = ordered(
    (await memoryRepo.list(auth.user.id)).filter((memory) => matches(memory, filter, now)),
    filter.order,
  );
  const skip = filter.size === undefined ? 0 : ((filter.page ?? 1) - 1) * filter.size;
  const chosen = filter.size === undefined ? found : found.slice(skip, skip + filter.size);
  const views: MemoryView[] = new Array(chosen.length);
  await inBatches(chosen, 8, async (memory, index) => {
    views[index] = await viewOf(memory);
  });
  // Only the people these assets show are read (docs/large-libraries.md): not every person of the owner's.
  const shown = [...new Set(views.flatMap((view) => view.assets.flatMap((asset) => asset.personIds)))];
  const hidden = new Set(
    (shown.length > 0 ? await personRepo.getMany(auth.user.id, shown) : []).filter((person) => person.isHidden).map((person) => person.id),
  );
  return views
    .map((view) => ({ ...view, assets: view.assets.filter((asset) => !asset.personIds.some((id) => hidden.has(id))) }))
    .filter((view) => view.assets.length > 0);
};

/** GET /memories/statistics: how many of the caller's memories the filter matches. */
export const memoryStatistics = async (auth: Auth, filter: MemoryFilter): Promise<{ total: number }> => ({
  total: (await memoryRepo.list(auth.user.id)).filter((memory) => matches(memory, filter, new Date().toISOString())).length,
});

/** GET /memories/:id. */
export const getMemory = async (auth: Auth, memoryId: string): Promise<MemoryView> =>
  viewOf(await requireMemory(auth, Permission.MemoryRead, memoryId));

/** POST /memories: with those of `assetIds` the caller may share (their own and partners'); the rest are left out. */
export const createMemory = async (auth: Auth, dto: NewMemory): Promise<MemoryView> => {
  const now = new Date().toISOString();
  const memory: MemoryRecord = {
    id: randomUUID(),
    ownerId: auth.user.id,
    type: dto.type,
    data: { year: dto.data.year },
    isSaved: dto.isSaved ?? false,
    memoryAt: dto.memoryAt,
    seenAt: dto.seenAt ?? null,
    showAt: dto.showAt ?? null,
    hideAt: dto.hideAt ?? null,
    createdAt: now,
    updatedAt: now,
  };
  const allowed = await allowedAssets(auth, Permission.AssetShare, [...new Set(dto.assetIds ?? [])]);
  await memoryRepo.create(
    memory,
    allowed.map((asset) => asset.id),
  );
  return { memory, assets: allowed.filter(inTimeline).sort(byTakenAt) };
};

/** PUT /memories/:id: saved, seen, or its date. */
export const updateMemory = async (auth: Auth, memoryId: string, change: MemoryChange): Promise<MemoryView> => {
  const memory = await requireMemory(auth, Permission.MemoryUpdate, memoryId);
  const fields = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
  const updated = await memoryRepo.update(memory, { ...fields, updatedAt: new Date().toISOString() });
  if (!updated.ok) throw accessLost(Permission.MemoryUpdate);
  return viewOf(updated.value);
};

/** DELETE /memories/:id. */
export const deleteMemory = async (auth: Auth, memoryId: string): Promise<void> => {
  await memoryRepo.remove(await requireMemory(auth, Permission.MemoryDelete, memoryId));
};

/** PUT /memories/:id/assets: per id `success`, `duplicate` (already in it) or `no_permission` (Immich's `addAssets`). */
export const addMemoryAssets = async (auth: Auth, memoryId: string, assetIds: readonly string[]): Promise<BulkIdResult[]> => {
  const memory = await requireMemory(auth, Permission.MemoryRead, memoryId);
  const present = await memoryRepo.memoryAssetsAmong(memory.id, [...new Set(assetIds)]);
  const candidates = [...new Set(assetIds.filter((id) => !present.has(id)))];
  const allowed = new Set((await allowedAssets(auth, Permission.AssetShare, candidates)).map((asset) => asset.id));
  const { results, changed } = addOutcomes(assetIds, present, allowed);
  if (changed.length > 0 && !(await memoryRepo.addAssets(memory, changed, new Date().toISOString())).ok)
    throw accessLost(Permission.MemoryRead);
  return results;
};

/** DELETE /memories/:id/assets: per id `success` or `not_found` (not in it); the owner may take out any (Immich's `removeAssets`). */
export const removeMemoryAssets = async (auth: Auth, memoryId: string, assetIds: readonly string[]): Promise<BulkIdResult[]> => {
  const memory = await requireMemory(auth, Permission.MemoryUpdate, memoryId);
  const { results, changed } = removeOutcomes(assetIds, await memoryRepo.memoryAssetsAmong(memory.id, [...new Set(assetIds)]));
  if (changed.length > 0 && !(await memoryRepo.removeAssets(memory, changed, new Date().toISOString())).ok)
    throw accessLost(Permission.MemoryUpdate);
  return results;
};

/** `YYYY-MM-DD` of an instant, in UTC. */
const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * A nightly memory's id, from what it is about: a second run (a retry, a concurrent one) makes
 * the same ids, so the conditional put makes each memory once. A version-4 UUID in form.
 */
const onThisDayId = (ownerId: string, day: string, year: number): string => derivedUuid(`on_this_day|${ownerId}|${day}|${year}`);

/** One user's "on this day" memories of one day: one per earlier year with photos of that day. */
const makeOnThisDay = async (ownerId: string, dayStart: number): Promise<number> => {
  const target = new Date(dayStart);
  const day = dayOf(dayStart);
  const byYear = await takenOnThisDay(
    [ownerId],
    { year: target.getUTCFullYear(), month: target.getUTCMonth() + 1, day: target.getUTCDate() },
    PER_YEAR,
  );
  let made = 0;
  for (const [year, assets] of byYear) {
    const now = new Date().toISOString();
    const stored = await memoryRepo.create(
      {
        id: onThisDayId(ownerId, day, year),
        ownerId,
        type: 'on_this_day',
        data: { year },
        isSaved: false,
        memoryAt: new Date(Date.UTC(year, target.getUTCMonth(), target.getUTCDate())).toISOString(),
        seenAt: null,
        showAt: new Date(dayStart).toISOString(),
        hideAt: new Date(dayStart + dayMs - 1).toISOString(),
        createdAt: now,
        updatedAt: now,
      },
      assets.map((asset) => asset.id),
    );
    if (stored.ok) made++;
  }
  return made;
};

/**
 * Immich's `MemoryGenerate` job: for each day from 3 before `now` to 3 after that no run did yet
 * (`memories-state`), every user's "on this day" memories. The state moves on after each day,
 * even if a user's failed (Immich's rule, against duplicates; here the ids also prevent them).
 * With a budget, no user's day starts once its time is up: `done` is false, and a later run
 * makes the days left, from the first not done (the memories of it already made are made once).
 */
export const generateMemories = async (now: Date, budget?: WorkBudget): Promise<{ days: string[]; memories: number; done: boolean }> => {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const start = today - DAYS * dayMs;
  const last = await memoryRepo.getState();
  const lastDone = last ? Date.parse(last) : start;
  const users = (await userRepo.list()).filter((user) => user.deletedAt === null);
  const days: string[] = [];
  let memories = 0;
  for (let target = start; target <= today + DAYS * dayMs; target += dayMs) {
    if (lastDone >= target) continue;
    for (const user of users) {
      if (budget?.timeUp) return { days, memories, done: false };
      try {
        memories += await makeOnThisDay(user.id, target);
      } catch (error) {
        log.error('memories', { day: dayOf(target), userId: user.id, error: error instanceof Error ? error.message : String(error) });
      }
    }
    await memoryRepo.setState(new Date(target).toISOString());
    days.push(dayOf(target));
  }
  return { days, memories, done: true };
};

/** Immich's `MemoryCleanup`: unsaved memories made more than 30 days before `now` go (their deletions recorded for the apps). */
export const cleanupMemories = async (now: Date): Promise<{ removed: number }> => {
  const before = new Date(now.getTime() - KEEP_DAYS * dayMs).toISOString();
  let removed = 0;
  for (const user of await userRepo.list()) {
    const old = (await memoryRepo.list(user.id)).filter((memory) => !memory.isSaved && memory.createdAt < before);
    for (const memory of old) await memoryRepo.remove(memory);
    removed += old.length;
  }
  return { removed };
};
