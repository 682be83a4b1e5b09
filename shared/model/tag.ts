import * as v from 'valibot';
import { id, instant, nullable } from './fields.ts';

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
