/**
 * Immich v3.2's `/server/*` answers (`@immich/sdk` 3.2.2: ServerVersionResponseDto,
 * ServerFeaturesDto, ServerConfigDto), over the same state as v1.100's `/server-info/*`
 * (shared/dto/v1/server-info.ts). docs/immich-compatibility.md, "Two generations".
 */
import * as v from 'valibot';
import type { ServerState, SystemConfig } from '../../model/config.ts';
import type { UserStatistics } from '../../model/user.ts';
import type { MlFeatures } from '../common/server-info.ts';

/**
 * The version v3's routes report: the mobile app picks its sync protocol by it (3.x: the V2
 * types). v1.100's `/server-info/version` keeps answering 1.100.0 for the v1.100 web app.
 */
export const serverVersionV3 = { major: 3, minor: 2, patch: 2, prerelease: null } as const;
export type ServerVersionResponseDto = typeof serverVersionV3;

export interface ServerAboutResponseDto {
  version: string;
  versionUrl: string;
  licensed: boolean;
  nodejs: string;
}

/** The version Immich's web app shows in its about box; `licensed` is whether the server has a product key (GET /server/about reads it). */
export const aboutV3: ServerAboutResponseDto = {
  version: 'v3.2.2',
  versionUrl: 'https://github.com/immich-app/immich/releases/tag/v3.2.2',
  licensed: false,
  nodejs: process.version,
};

export interface UsageByUserDto {
  userId: string;
  userName: string;
  photos: number;
  videos: number;
  usage: number;
  usagePhotos: number;
  usageVideos: number;
  quotaSizeInBytes: number | null;
}

export interface ServerStatsResponseDto {
  photos: number;
  videos: number;
  usage: number;
  usagePhotos: number;
  usageVideos: number;
  usageByUser: UsageByUserDto[];
}

/** v1.100's statistics with v3's usage by type (the photos' and the videos' bytes). */
export const mapServerStatisticsV3 = (statistics: readonly UserStatistics[]): ServerStatsResponseDto => {
  const usageByUser = statistics.map(
    ({ user, photos, videos, usagePhotos, usageVideos }): UsageByUserDto => ({
      userId: user.id,
      userName: user.name,
      photos,
      videos,
      usage: user.quotaUsageInBytes,
      usagePhotos,
      usageVideos,
      quotaSizeInBytes: user.quotaSizeInBytes,
    }),
  );
  const sum = (pick: (each: UsageByUserDto) => number) => usageByUser.reduce((total, each) => total + pick(each), 0);
  return {
    photos: sum((each) => each.photos),
    videos: sum((each) => each.videos),
    usage: sum((each) => each.usage),
    usagePhotos: sum((each) => each.usagePhotos),
    usageVideos: sum((each) => each.usageVideos),
    usageByUser,
  };
};

export interface ServerVersionHistoryResponseDto {
  id: string;
  createdAt: string;
  version: string;
}

/** One entry per version served, with a stable id (this server keeps no table of them). */
export const versionHistoryV3 = (history: readonly { since: string }[]): ServerVersionHistoryResponseDto[] =>
  history.map(({ since }) => ({ id: '00000000-0000-4000-8000-000000030202', createdAt: since, version: '3.2.2' }));

export interface AdminOnboardingResponseDto {
  isOnboarded: boolean;
}

export const AdminOnboardingUpdateDto = v.object({ isOnboarded: v.boolean('$property must be a boolean') }, '$property must be an object');

export interface ReverseGeocodingStateResponseDto {
  lastUpdate: string | null;
  lastImportFileName: string | null;
}

export interface ServerPingResponse {
  res: 'pong';
}

export interface ServerFeaturesDto {
  configFile: boolean;
  duplicateDetection: boolean;
  email: boolean;
  facialRecognition: boolean;
  importFaces: boolean;
  map: boolean;
  oauth: boolean;
  oauthAutoLaunch: boolean;
  ocr: boolean;
  passwordLogin: boolean;
  realtimeTranscoding: boolean;
  reverseGeocoding: boolean;
  search: boolean;
  sidecar: boolean;
  smartSearch: boolean;
  trash: boolean;
}

/**
 * Immich derives the features from the configuration; here a feature is true only where it
 * works (as v1.100's). Smart search, OCR and duplicates come from `ml` (shared/ml/ml.ts,
 * docs/machine-learning.md): smart search where a CLIP back end is, OCR where it is on (the local
 * back end is always there), duplicates where they are on (a perceptual hash finds them: unlike
 * Immich, not tied to smart search). No e-mail, config file or real-time transcoding. Faces are
 * imported from XMP regions on every upload; facial recognition (docs/faces.md), the map and
 * reverse geocoding follow the configuration, as Immich's (docs/places.md).
 */
export const mapServerFeaturesV3 = (config: SystemConfig, ml: MlFeatures): ServerFeaturesDto => ({
  configFile: false,
  duplicateDetection: ml.duplicateDetection,
  email: false,
  facialRecognition: config.machineLearning.enabled && config.machineLearning.facialRecognition.enabled,
  importFaces: true,
  map: config.map.enabled,
  oauth: config.oauth.enabled,
  oauthAutoLaunch: config.oauth.autoLaunch,
  ocr: ml.ocr,
  passwordLogin: config.passwordLogin.enabled,
  realtimeTranscoding: false,
  reverseGeocoding: config.reverseGeocoding.enabled,
  search: true,
  sidecar: true,
  smartSearch: ml.smartSearch,
  trash: config.trash.enabled,
});

export interface ServerConfigDto {
  externalDomain: string;
  isInitialized: boolean;
  isOnboarded: boolean;
  loginPageMessage: string;
  maintenanceMode: boolean;
  mapDarkStyleUrl: string;
  mapLightStyleUrl: string;
  minFaces: number;
  /** The provider's account page the user settings link to (`oauth.accountManagementUrl`; Immich 3.2). */
  oauthAccountManagementUrl: string;
  oauthButtonText: string;
  publicUsers: boolean;
  trashDays: number;
  userDeleteDelay: number;
}

/** v3's public settings. */
export const mapServerConfigV3 = ({ config, initialized, onboarded }: ServerState): ServerConfigDto => ({
  externalDomain: config.server.externalDomain,
  isInitialized: initialized,
  isOnboarded: onboarded,
  loginPageMessage: config.server.loginPageMessage,
  maintenanceMode: false,
  mapDarkStyleUrl: config.map.darkStyle,
  mapLightStyleUrl: config.map.lightStyle,
  minFaces: config.machineLearning.facialRecognition.minFaces,
  oauthAccountManagementUrl: config.oauth.accountManagementUrl,
  oauthButtonText: config.oauth.buttonText,
  publicUsers: config.server.publicUsers,
  trashDays: config.trash.days,
  userDeleteDelay: config.user.deleteDelay,
});
