import * as v from 'valibot';
import type { AssetRecord } from './asset.ts';
import { id, instant, nullable } from './fields.ts';

/** Immich's memory types: only "on this day" exists (v3.2's `MemoryType`). */
export const memoryTypes = ['on_this_day'] as const;
export type MemoryType = (typeof memoryTypes)[number];

/**
 * A memory (Immich v3's `memory` row): a set of the owner's assets shown together, made each
 * night for "on this day" of earlier years (shared/services/memory.service.ts) or by the apps.
 * Unsaved ones go 30 days after they were made; `showAt`/`hideAt` bound the days it is shown on.
 * Its assets are items of their own (shared/db/memory.repository.ts), so the sync stream sends
 * each addition and removal.
 */
export const MemoryRecordSchema = v.object({
  id: id(),
  ownerId: id(),
  type: v.picklist(memoryTypes),
  /** `{year}` for on this day. */
  data: v.object({ year: v.number() }),
  isSaved: v.boolean(),
  memoryAt: instant(),
  seenAt: nullable(instant()),
  showAt: nullable(instant()),
  hideAt: nullable(instant()),
  createdAt: instant(),
  updatedAt: instant(),
});
export type MemoryRecord = v.InferOutput<typeof MemoryRecordSchema>;

/** A memory with the assets it shows (those still in the timeline), oldest first. */
export interface MemoryView {
  memory: MemoryRecord;
  assets: AssetRecord[];
}

/** GET /memories: Immich's `MemorySearchDto`. */
export interface MemoryFilter {
  type?: MemoryType | undefined;
  /** A day (midnight UTC): memories shown on it. */
  for?: string | undefined;
  isTrashed?: boolean | undefined;
  isSaved?: boolean | undefined;
  size?: number | undefined;
  order?: 'asc' | 'desc' | 'random' | undefined;
  id?: string | undefined;
  /** Only those whose day to be shown is still to come. */
  isUpcoming?: boolean | undefined;
  /** With `size`: the page of that many (from 1). */
  page?: number | undefined;
}

export interface NewMemory {
  type: MemoryType;
  data: { year: number };
  memoryAt: string;
  assetIds?: string[] | undefined;
  isSaved?: boolean | undefined;
  seenAt?: string | undefined;
  showAt?: string | undefined;
  hideAt?: string | undefined;
}

export interface MemoryChange {
  isSaved?: boolean | undefined;
  seenAt?: string | undefined;
  memoryAt?: string | undefined;
}
