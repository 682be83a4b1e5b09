import { randomUUID } from 'node:crypto';
import { type ActivityRecord, ActivityRecordSchema } from '../model/activity.ts';
import { batchDelete } from './batch.ts';
import { codec } from './codec.ts';
import { getItem } from './get.ts';
import * as indexKeys from './index-keys.ts';
import * as keys from './item-keys.ts';
import * as partitions from './partitions.ts';
import { queryAll } from './query.ts';
import { deleteWrite, isCancelled, putWrite, transact } from './transact.ts';

const activityCodec = codec('activity', ActivityRecordSchema);

const likeKey = (activity: Pick<ActivityRecord, 'albumId' | 'assetId' | 'userId'>) =>
  keys.activityLike(activity.albumId, activity.assetId ?? 'ALBUM', activity.userId);

/**
 * Records a like or a comment. A like is one per user per album or asset: its guard item is
 * written in the same transaction, so a second (or a concurrent) like finds the first, which is
 * returned with `duplicate` (Immich's 200 instead of 201).
 */
export const create = async (
  fields: Omit<ActivityRecord, 'id' | 'createdAt'>,
): Promise<{ activity: ActivityRecord; duplicate: boolean }> => {
  const activity: ActivityRecord = { ...fields, id: randomUUID(), createdAt: new Date().toISOString() };
  const item = {
    ...keys.activity(activity.id),
    ...indexKeys.albumActivities(activity.albumId, activity.createdAt, activity.id),
    ...(activity.assetId ? indexKeys.assetActivities(activity.assetId, activity.id) : {}),
    type: 'activity',
    ...activity,
  };
  if (!activity.isLiked) {
    await transact([putWrite(item, { condition: 'absent' })]);
    return { activity, duplicate: false };
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await transact([
        putWrite(item, { condition: 'absent' }),
        putWrite({ ...likeKey(activity), type: 'activityLike', activityId: activity.id }, { condition: 'absent' }),
      ]);
      return { activity, duplicate: false };
    } catch (error) {
      if (!isCancelled(error)) throw error;
      const guard = await getItem(likeKey(activity));
      const existing = guard ? await get(String(guard.activityId)) : undefined;
      if (existing) return { activity: existing, duplicate: true };
      // The first like went meanwhile: try again.
    }
  }
  throw new Error('A like kept changing while it was recorded');
};

export const get = async (activityId: string): Promise<ActivityRecord | undefined> => {
  const item = await getItem(keys.activity(activityId));
  return item ? activityCodec.read(item) : undefined;
};

/** An album's likes and comments, oldest first: one Query of its list (gsi1). */
export const listAlbumActivities = async (albumId: string): Promise<ActivityRecord[]> =>
  (await queryAll(partitions.albumActivities(albumId))).map(activityCodec.read);

/** Deletes a like or comment (a like's guard with it). */
export const remove = async (activity: ActivityRecord): Promise<void> => {
  await transact([
    deleteWrite(keys.activity(activity.id), { condition: 'present' }),
    ...(activity.isLiked ? [deleteWrite(likeKey(activity))] : []),
  ]).catch((error: unknown) => {
    // Deleted meanwhile: nothing left to do.
    if (!isCancelled(error)) throw error;
  });
};

const removeAll = async (activities: readonly ActivityRecord[]): Promise<void> => {
  await batchDelete([...activities.map((activity) => keys.activity(activity.id)), ...activities.filter((a) => a.isLiked).map(likeKey)]);
};

/** What goes with a deleted album: its likes and comments. */
export const deleteAlbumActivities = async (albumId: string): Promise<void> => removeAll(await listAlbumActivities(albumId));

/** What goes with an asset deleted for good: the likes and comments on it (Query gsi2). */
export const deleteAssetActivities = async (assetId: string): Promise<void> =>
  removeAll((await queryAll(partitions.assetActivities(assetId))).map(activityCodec.read));
