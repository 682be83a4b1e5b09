import * as v from 'valibot';
import { id, instant, nullable } from './fields.ts';
import { limits } from './limits.ts';

/** v1.100's tag types (`TagTypeEnum`); v3 has none, and a tag made there is `CUSTOM`. */
export const tagTypes = ['OBJECT', 'FACE', 'CUSTOM'] as const;
export type TagType = (typeof tagTypes)[number];

/**
 * A tag, one model for both generations (docs/immich-compatibility.md, "Tags"): v3's tags are
 * hierarchical, `value` being the full path (`Holidays/2024/Rome`) and `parentId` the tag of
 * the path above; v1.100's are flat, named by that same `value` (a name with `/` in it is a
 * path there too). `type` is v1.100's, `color` v3's.
 */
export const TagRecordSchema = v.object({
  id: id(),
  ownerId: id(),
  value: v.string(),
  parentId: nullable(id()),
  color: nullable(v.string()),
  type: v.optional(v.picklist(tagTypes), 'CUSTOM'),
  createdAt: instant(),
  updatedAt: instant(),
});
export type TagRecord = v.InferOutput<typeof TagRecordSchema>;

/** A tag's own name: the last part of its path (v3's `name`). */
export const tagName = (tag: Pick<TagRecord, 'value'>): string => tag.value.split('/').at(-1) ?? tag.value;

/** Whether a tag is `root` or one below it (Immich's tag closure): its path is the root's or starts with it. */
export const isAtOrBelow = (tag: Pick<TagRecord, 'value'>, root: Pick<TagRecord, 'value'>): boolean =>
  tag.value === root.value || tag.value.startsWith(`${root.value}/`);

/** The parts of a path as Immich splits it: empty parts (`a//b`, a leading or trailing `/`) dropped. */
export const tagPath = (value: string): string[] => value.split('/').filter(Boolean);

/**
 * The limits of a tag's path (docs/immich-compatibility.md, "Tags"). Immich has none (its
 * `value` is an unbounded text column); here every tag of a path is an item and a transaction's
 * write, so a path has at most 20 levels, each name at most 255 characters (a file name's
 * limit on most file systems, and far above any photo manager's keyword), the whole path at most
 * `limits.name` characters (1,000, the limit of a file's keywords already).
 */
export const tagLimits = { levels: 20, name: 255, value: limits.name } as const;

/** Why a path (its parts, as `tagPath` splits it) cannot be a tag's, or undefined when it can. */
export const tagPathProblem = (parts: readonly string[]): string | undefined => {
  if (parts.length === 0) return 'A tag name must not be empty';
  if (parts.some((part) => part.length > tagLimits.name)) return `A tag name has at most ${tagLimits.name} characters`;
  if (parts.join('/').length > tagLimits.value) return `A tag path has at most ${tagLimits.value} characters`;
  if (parts.length > tagLimits.levels) return `A tag path has at most ${tagLimits.levels} levels`;
  return undefined;
};

/** Whether a path can be a tag's: what a file's keywords keep (the others are left out, the upload kept). */
export const isTagPath = (value: string): boolean => tagPathProblem(tagPath(value)) === undefined;
