import type { ServerState, SystemConfig } from '../../model/config.ts';
import type { UserStatistics } from '../../model/user.ts';
import type { MlFeatures } from '../common/server-info.ts';

/** The Immich server version whose API this project implements (the CLI and SDK check it). */
export const serverVersion = { major: 1, minor: 100, patch: 0 } as const;

/** Where Immich clients find the API, answered at /.well-known/immich. */
export const wellKnown = { api: { endpoint: '/api' } } as const;

export type ServerVersionResponseDto = typeof serverVersion;
export type WellKnownResponseDto = typeof wellKnown;
export interface ServerPingResponse {
  res: string;
}

/** GET /server-info/config: what the web app's login page and settings read first. */
export interface ServerConfigDto {
  oauthButtonText: string;
  loginPageMessage: string;
  trashDays: number;
  userDeleteDelay: number;
  isInitialized: boolean;
  isOnboarded: boolean;
  externalDomain: string;
}

/** GET /server-info/features: which parts of Immich the clients may show. */
export interface ServerFeaturesDto {
  smartSearch: boolean;
  configFile: boolean;
  facialRecognition: boolean;
  map: boolean;
  trash: boolean;
  reverseGeocoding: boolean;
  oauth: boolean;
  oauthAutoLaunch: boolean;
  passwordLogin: boolean;
  sidecar: boolean;
  search: boolean;
}

export interface ServerThemeDto {
  customCss: string;
}

/** What the server's public settings are read from: the configuration, whether an admin exists, whether onboarding is done. */
export const mapServerConfig = ({ config, initialized, onboarded }: ServerState): ServerConfigDto => ({
  loginPageMessage: config.server.loginPageMessage,
  trashDays: config.trash.days,
  userDeleteDelay: config.user.deleteDelay,
  oauthButtonText: config.oauth.buttonText,
  isInitialized: initialized,
  isOnboarded: onboarded,
  externalDomain: config.server.externalDomain,
});

/**
 * Immich derives the features from the configuration; here a feature is true only where it
 * works: smart search where a CLIP back end is (`ml`, from shared/ml/ml.ts: the user's Immich ML
 * service or a local model; docs/machine-learning.md), no config file whatever the configuration
 * says. OAuth follows its settings (docs/immich-compatibility.md, "OAuth"). The map and reverse
 * geocoding follow it (docs/places.md), and so does facial recognition, which the media function
 * does itself (docs/faces.md).
 */
export const mapServerFeatures = (config: SystemConfig, ml: MlFeatures): ServerFeaturesDto => ({
  smartSearch: ml.smartSearch,
  configFile: false,
  facialRecognition: config.machineLearning.enabled && config.machineLearning.facialRecognition.enabled,
  map: config.map.enabled,
  trash: config.trash.enabled,
  reverseGeocoding: config.reverseGeocoding.enabled,
  oauth: config.oauth.enabled,
  oauthAutoLaunch: config.oauth.autoLaunch,
  passwordLogin: config.passwordLogin.enabled,
  sidecar: true,
  search: true,
});

export const mapTheme = (config: SystemConfig): ServerThemeDto => ({ customCss: config.theme.customCss });

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

export const mapServerStatistics = (statistics: readonly UserStatistics[]): ServerStatsResponseDto => {
  const usageByUser = statistics.map(
    ({ user, photos, videos }): UsageByUserDto => ({
      userId: user.id,
      userName: user.name,
      photos,
      videos,
      usage: user.quotaUsageInBytes,
      quotaSizeInBytes: user.quotaSizeInBytes,
    }),
  );
  return {
    photos: usageByUser.reduce((sum, each) => sum + each.photos, 0),
    videos: usageByUser.reduce((sum, each) => sum + each.videos, 0),
    usage: usageByUser.reduce((sum, each) => sum + each.usage, 0),
    usageByUser,
  };
};
