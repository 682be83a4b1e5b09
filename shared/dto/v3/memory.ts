/**
 * Immich v3.2's memories (`@immich/sdk` 3.2.2: MemorySearchDto, MemoryCreateDto, MemoryUpdateDto,
 * OnThisDayDto, MemoryType, MemorySearchOrder).
 */
import * as v from 'valibot';
import { limits } from '../../model/limits.ts';
import { type MemoryChange, type MemoryFilter, memoryTypes, type NewMemory } from '../../model/memory.ts';
import { boolean, coercedInteger, integer, isoDate, isoDateTime, object, picklist, stringToBool, uuid, uuidsUpTo } from './common.ts';

const type = picklist(memoryTypes);

export const MemorySearchDto = v.pipe(
  object({
    type: v.optional(type),
    for: v.optional(isoDate),
    isTrashed: v.optional(stringToBool),
    isSaved: v.optional(stringToBool),
    size: v.optional(coercedInteger(1)),
    order: v.optional(picklist(['asc', 'desc', 'random'] as const)),
    // 3.2's additions (the 3.2.2 SDK's parameters): one memory, those still to come, a page of `size`.
    id: v.optional(uuid),
    isUpcoming: v.optional(stringToBool),
    page: v.optional(coercedInteger(1)),
  }),
  v.transform((query): MemoryFilter => query),
);

export const MemoryCreateDto = v.pipe(
  object({
    type,
    data: object({ year: integer(1000, 9999) }),
    memoryAt: isoDateTime,
    assetIds: v.optional(uuidsUpTo(limits.bulkAssets)),
    isSaved: v.optional(boolean),
    seenAt: v.optional(isoDateTime),
    showAt: v.optional(isoDateTime),
    hideAt: v.optional(isoDateTime),
  }),
  v.transform((body): NewMemory => body),
);

const updateFields = ['isSaved', 'seenAt', 'memoryAt'] as const;

/** At least one field (Immich's `nonEmptyPartial`, with its message). */
export const MemoryUpdateDto = v.pipe(
  object({ isSaved: v.optional(boolean), seenAt: v.optional(isoDateTime), memoryAt: v.optional(isoDateTime) }),
  v.check(
    (body) => updateFields.some((field) => body[field] !== undefined),
    `At least one of the following fields is required: ${updateFields.join(', ')}`,
  ),
  v.transform((body): MemoryChange => body),
);
