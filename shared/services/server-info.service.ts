import { inBatches } from '../core/concurrency.ts';
import { Inaccessible } from '../core/errors.ts';
import * as assetRepo from '../db/asset.repository.ts';
import * as systemRepo from '../db/system.repository.ts';
import * as timelineRepo from '../db/timeline.repository.ts';
import * as userRepo from '../db/user.repository.ts';
import type { SystemConfig } from '../domain/system-config.ts';
import type { ServerState } from '../model/config.ts';
import type { Auth, UserRecord, UserStatistics } from '../model/user.ts';
import { readConfig } from './config.reader.ts';

/** GET /server-info/config (public), as Immich's getConfig. */
export const getServerConfig = async (): Promise<ServerState> => {
  const [config, initialized, onboarded] = await Promise.all([readConfig(), systemRepo.hasAdmin(), systemRepo.isOnboarded()]);
  return { config, initialized, onboarded };
};

/** GET /server-info/features and /server-info/theme (public): the configuration they derive from. */
export const getServerSettings = (): Promise<SystemConfig> => readConfig();

/**
 * GET /server-info, GET /server/storage: Immich reports the disk of its library folder; a bucket
 * has no disk, so this reports the caller's usage, and their quota or, without one, all that the
 * server stores: every user's usage, the caller's as it is now (docs/immich-compatibility.md,
 * "Server info"; pattern 35).
 */
export const getServerInfo = async (auth: Auth): Promise<{ user: UserRecord; stored: number }> => {
  const user = await userRepo.get(auth.user.id);
  if (!user) throw new Inaccessible('User not found');
  if (user.quotaSizeInBytes !== null && user.quotaSizeInBytes > 0) return { user, stored: user.quotaUsageInBytes };
  const others = (await userRepo.list()).filter((each) => each.id !== user.id);
  return { user, stored: others.reduce((total, each) => total + each.quotaUsageInBytes, user.quotaUsageInBytes) };
};

/** POST /server-info/admin-onboarding (admin): done; v3's POST /system-metadata/admin-onboarding: done or not. 204. */
export const setAdminOnboarding = async (isOnboarded = true): Promise<void> => {
  await systemRepo.setOnboarded(isOnboarded);
};

/** GET /system-metadata/admin-onboarding (v3, admin). */
export const getAdminOnboarding = (): Promise<boolean> => systemRepo.isOnboarded();

/**
 * GET /server/version-history (v3, public): the versions this server has run, as Immich records
 * each at start. One API version has been served since it was first used (its admin's sign-up);
 * none before.
 */
export const getVersionHistory = async (): Promise<{ since: string }[]> => {
  const id = await systemRepo.adminId();
  const admin = id ? await userRepo.get(id) : undefined;
  return admin ? [{ since: admin.createdAt }] : [];
};

/**
 * GET /server-info/statistics (admin): each user's visible, untrashed photos and videos (their
 * timeline counters: one Query a user, 8 at a time) and usage (the bytes stored for them, trash
 * included), oldest user first; deleted users left out, as Immich's query does.
 */
export const getServerStatistics = async (): Promise<UserStatistics[]> => {
  const users = (await userRepo.list()).filter((user) => user.deletedAt === null);
  const statistics: UserStatistics[] = new Array(users.length);
  await inBatches(users, 8, async (user, index) => {
    let [photos, videos] = [0, 0];
    for (const counter of await timelineRepo.listCounters(user.id)) {
      if (counter.size !== 'MONTH' || counter.state.isTrashed) continue;
      if (counter.state.type === 'IMAGE') photos += counter.count;
      if (counter.state.type === 'VIDEO') videos += counter.count;
    }
    const usage = user.usageByType ? { photos: user.usagePhotos, videos: user.usageVideos } : await assetRepo.countUsageByType(user);
    statistics[index] = { user, photos, videos, usagePhotos: usage.photos, usageVideos: usage.videos };
  });
  return statistics;
};
