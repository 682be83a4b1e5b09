import { inBatches } from '../core/concurrency.ts';
import { Inaccessible } from '../core/errors.ts';
import { hasAdmin, isOnboarded, setOnboarded } from '../db/system.repository.ts';
import { listCounters } from '../db/timeline.repository.ts';
import { getUser, listUsers } from '../db/user.repository.ts';
import {
  type ServerConfigDto,
  type ServerFeaturesDto,
  type ServerInfoResponseDto,
  type ServerThemeDto,
  storageInfo,
} from '../domain/server-info.ts';
import type { Auth } from '../model/user.ts';
import { readConfig } from './config.reader.ts';

/** GET /server-info/config (public), as Immich's getConfig. */
export const getServerConfig = async (): Promise<ServerConfigDto> => {
  const [config, initialized, onboarded] = await Promise.all([readConfig(), hasAdmin(), isOnboarded()]);
  return {
    loginPageMessage: config.server.loginPageMessage,
    trashDays: config.trash.days,
    userDeleteDelay: config.user.deleteDelay,
    oauthButtonText: config.oauth.buttonText,
    isInitialized: initialized,
    isOnboarded: onboarded,
    externalDomain: config.server.externalDomain,
  };
};

/**
 * GET /server-info/features (public). Immich derives them from the configuration; here a feature
 * is true only where it works: there is no machine learning (smart search, facial recognition),
 * no map tiles or reverse geocoder, no OAuth and no config file, whatever the configuration says.
 */
export const getServerFeatures = async (): Promise<ServerFeaturesDto> => {
  const config = await readConfig();
  return {
    smartSearch: false,
    configFile: false,
    facialRecognition: false,
    map: false,
    trash: config.trash.enabled,
    reverseGeocoding: false,
    oauth: false,
    oauthAutoLaunch: false,
    passwordLogin: config.passwordLogin.enabled,
    sidecar: true,
    search: true,
  };
};

/** GET /server-info/theme (public): the custom CSS of the configuration. */
export const getTheme = async (): Promise<ServerThemeDto> => ({ customCss: (await readConfig()).theme.customCss });

/**
 * GET /server-info: Immich reports the disk of its library folder; a bucket has no disk, so this
 * reports the caller's own storage: their usage against their quota (docs/immich-compatibility.md).
 */
export const getServerInfo = async (auth: Auth): Promise<ServerInfoResponseDto> => {
  const user = await getUser(auth.user.id);
  if (!user) throw new Inaccessible('User not found');
  return storageInfo(user.quotaUsageInBytes, user.quotaSizeInBytes);
};

/** POST /server-info/admin-onboarding (admin): 204. */
export const setAdminOnboarding = async (): Promise<void> => {
  await setOnboarded();
};

export interface UsageByUserDto {
  userId: string;
  userName: string;
  photos: number;
  videos: number;
  usage: number;
  quotaSizeInBytes: number | null;
}

export interface ServerStatsResponseDto {
  photos: number;
  videos: number;
  usage: number;
  usageByUser: UsageByUserDto[];
}

/**
 * GET /server-info/statistics (admin): each user's visible, untrashed photos and videos (their
 * timeline counters: one Query a user, 8 at a time) and usage (the bytes stored for them, trash
 * included), oldest user first; deleted users left out, as Immich's query does.
 */
export const getServerStatistics = async (): Promise<ServerStatsResponseDto> => {
  const users = (await listUsers()).filter((user) => user.deletedAt === null);
  const usageByUser: UsageByUserDto[] = new Array(users.length);
  await inBatches(users, 8, async (user, index) => {
    let [photos, videos] = [0, 0];
    for (const counter of await listCounters(user.id)) {
      if (counter.size !== 'MONTH' || counter.state.isTrashed) continue;
      if (counter.state.type === 'IMAGE') photos += counter.count;
      if (counter.state.type === 'VIDEO') videos += counter.count;
    }
    usageByUser[index] = {
      userId: user.id,
      userName: user.name,
      photos,
      videos,
      usage: user.quotaUsageInBytes,
      quotaSizeInBytes: user.quotaSizeInBytes,
    };
  });
  return {
    photos: usageByUser.reduce((sum, each) => sum + each.photos, 0),
    videos: usageByUser.reduce((sum, each) => sum + each.videos, 0),
    usage: usageByUser.reduce((sum, each) => sum + each.usage, 0),
    usageByUser,
  };
};
