/**
 * Immich v3.2's tags (`@immich/sdk` 3.2.2: TagCreateDto, TagUpdateDto, TagUpsertDto,
 * TagBulkAssetsDto, TagResponseDto), over the one tag model v1.100's `/tag` shares.
 */
import * as v from 'valibot';
import { limits } from '../../model/limits.ts';
import { type TagRecord, tagName } from '../../model/tag.ts';
import { hexColor, object, uuid, uuidsUpTo } from './common.ts';

export const TagCreateDto = object({ name: v.string('$property must be a string'), parentId: v.nullish(uuid), color: hexColor });

export const TagUpdateDto = object({ color: hexColor });

export const TagUpsertDto = object({ tags: v.array(v.string('$property must be a string'), '$property must be an array') });

export const TagBulkAssetsDto = object({ tagIds: uuidsUpTo(limits.bulkTargets), assetIds: uuidsUpTo(limits.bulkAssets) });

export interface TagResponseDto {
  id: string;
  parentId?: string;
  name: string;
  value: string;
  createdAt: string;
  updatedAt: string;
  color?: string;
}

export const mapTagV3 = (tag: TagRecord): TagResponseDto => ({
  id: tag.id,
  ...(tag.parentId ? { parentId: tag.parentId } : {}),
  name: tagName(tag),
  value: tag.value,
  createdAt: tag.createdAt,
  updatedAt: tag.updatedAt,
  ...(tag.color ? { color: tag.color } : {}),
});

export interface TagBulkAssetsResponseDto {
  count: number;
}
