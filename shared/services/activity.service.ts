import { requireActivity, requireActivityAlbum } from '../access/activity-access.ts';
import { requireAlbum } from '../access/album-access.ts';
import { Permission } from '../access/permission.ts';
import * as activityRepo from '../db/activity.repository.ts';
import * as userRepo from '../db/user.repository.ts';
import type { ActivityFilter, ActivityRecord, ActivityView, NewActivity } from '../model/activity.ts';
import type { Auth } from '../model/user.ts';

/** Each activity with its author (one BatchGetItem of the users). */
const withUsers = async (activities: readonly ActivityRecord[]): Promise<ActivityView[]> => {
  const users = new Map((await userRepo.getMany(activities.map((activity) => activity.userId))).map((user) => [user.id, user]));
  return activities.flatMap((activity) => {
    const user = users.get(activity.userId);
    return user ? [{ activity, user }] : [];
  });
};

/**
 * An album's likes and comments, oldest first (Immich's ActivityService.getAll): of one asset when
 * `assetId` is given, of the album itself with `level: album`, a user's, likes only with `type: like`.
 */
export const getActivities = async (auth: Auth, filter: ActivityFilter): Promise<ActivityView[]> => {
  await requireAlbum(auth, Permission.AlbumRead, filter.albumId);
  const assetId = filter.level === 'album' ? null : filter.assetId;
  const activities = (await activityRepo.listAlbumActivities(filter.albumId)).filter(
    (activity) =>
      (filter.userId === undefined || activity.userId === filter.userId) &&
      (assetId === undefined || activity.assetId === assetId) &&
      // Immich filters likes only (`isLiked: type === like`); a comment filter is no filter.
      (filter.type !== 'like' || activity.isLiked),
  );
  return withUsers(activities);
};

/** The comments and likes of an album, or of one of its assets. */
export const getActivityStatistics = async (
  auth: Auth,
  albumId: string,
  assetId?: string,
): Promise<{ comments: number; likes: number }> => {
  await requireAlbum(auth, Permission.AlbumRead, albumId);
  const activities = (await activityRepo.listAlbumActivities(albumId)).filter(
    (activity) => assetId === undefined || activity.assetId === assetId,
  );
  return {
    comments: activities.filter((activity) => !activity.isLiked).length,
    likes: activities.filter((activity) => activity.isLiked).length,
  };
};

/** A like (one per user per album or asset: a second is the first, `duplicate`) or a comment. */
export const addActivity = async (auth: Auth, input: NewActivity): Promise<ActivityView & { duplicate: boolean }> => {
  const album = await requireActivityAlbum(auth, input.albumId);
  const isLiked = input.type === 'like';
  const { activity, duplicate } = await activityRepo.create({
    albumId: album.id,
    albumOwnerId: album.ownerId,
    assetId: input.assetId ?? null,
    userId: auth.user.id,
    isLiked,
    comment: isLiked ? null : (input.comment ?? null),
  });
  const [view] = await withUsers([activity]);
  if (!view) throw new Error(`The author of activity ${activity.id} is not stored`);
  return { ...view, duplicate };
};

/** Deletes the caller's like or comment, or any on their album. */
export const deleteActivity = async (auth: Auth, activityId: string): Promise<void> => {
  await activityRepo.remove(await requireActivity(auth, activityId));
};
