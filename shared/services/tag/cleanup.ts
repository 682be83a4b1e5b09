import * as tagRepo from '../../db/tag.repository.ts';
import * as userRepo from '../../db/user.repository.ts';
import { isAtOrBelow, type TagRecord } from '../../model/tag.ts';

/**
 * Immich's `TagCleanup` (a nightly task with `databaseCleanup`): each user's tags that no asset
 * has, neither the tag nor any tag below it, are deleted. One Query of a user's tags, one of
 * each tag's assets (the first item only).
 */
export const deleteEmptyTags = async (): Promise<{ removed: number }> => {
  let removed = 0;
  for (const user of await userRepo.list()) {
    const tags = await tagRepo.list(user.id);
    const used: TagRecord[] = [];
    for (const tag of tags) if (await tagRepo.tagHasAssets(tag.id)) used.push(tag);
    // A tag stays when it, or a tag below it, has an asset.
    const empty = tags.filter((tag) => !used.some((each) => isAtOrBelow(each, tag)));
    await tagRepo.deleteMany(empty);
    removed += empty.length;
  }
  return { removed };
};
