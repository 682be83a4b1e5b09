/** Access to likes and comments on albums (Immich's activity access). */
import * as activityRepo from '../db/activity.repository.ts';
import type { ActivityRecord } from '../model/activity.ts';
import type { AlbumRecord } from '../model/album.ts';
import type { Auth } from '../model/user.ts';
import { requireAlbum } from './album-access.ts';
import { noAccess, owns, Permission } from './permission.ts';

/** An album to like or comment on: one the caller may read, whose activity is on (Immich's activity.create). */
export const requireActivityAlbum = async (auth: Auth, albumId: string): Promise<AlbumRecord> => {
  const album = await requireAlbum(auth, Permission.AlbumRead, albumId).catch(() => undefined);
  if (!album?.isActivityEnabled) throw noAccess(Permission.ActivityCreate);
  return album;
};

/** A like or comment the caller may delete: their own, or one on their album (Immich's activity.delete). */
export const requireActivity = async (auth: Auth, activityId: string): Promise<ActivityRecord> => {
  const activity = await activityRepo.get(activityId);
  if (!activity || (!owns(auth, activity.userId) && !owns(auth, activity.albumOwnerId))) throw noAccess(Permission.ActivityDelete);
  return activity;
};
