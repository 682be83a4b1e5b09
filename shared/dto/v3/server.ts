/**
 * Immich v3.2's `/server/*` answers (`@immich/sdk` 3.2.2: ServerVersionResponseDto,
 * ServerFeaturesDto, ServerConfigDto), over the same state as v1.100's `/server-info/*`
 * (shared/dto/v1/server-info.ts). docs/immich-compatibility.md, "Two generations".
 */
import type { ServerState } from '../v1/server-info.ts';
import type { SystemConfig } from '../v1/system-config.ts';

/**
 * The version v3's routes report: the mobile app picks its sync protocol by it (3.x: the V2
 * types). v1.100's `/server-info/version` keeps answering 1.100.0 for the v1.100 web app.
 */
export const serverVersionV3 = { major: 3, minor: 2, patch: 2, prerelease: null } as const;
export type ServerVersionResponseDto = typeof serverVersionV3;

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
 * works (as v1.100's): no machine learning (smart search, faces, duplicates, OCR), no map or
 * reverse geocoder, no OAuth, e-mail, config file or real-time transcoding. Faces are imported
 * from XMP regions on every upload.
 */
export const mapServerFeaturesV3 = (config: SystemConfig): ServerFeaturesDto => ({
  configFile: false,
  duplicateDetection: false,
  email: false,
  facialRecognition: false,
  importFaces: true,
  map: false,
  oauth: false,
  oauthAutoLaunch: false,
  ocr: false,
  passwordLogin: config.passwordLogin.enabled,
  realtimeTranscoding: false,
  reverseGeocoding: false,
  search: true,
  sidecar: true,
  smartSearch: false,
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
  oauthButtonText: string;
  publicUsers: boolean;
  trashDays: number;
  userDeleteDelay: number;
}

/** v3's public settings; `publicUsers` is v3's default (every user may list the others), as v1.100 behaves. */
export const mapServerConfigV3 = ({ config, initialized, onboarded }: ServerState): ServerConfigDto => ({
  externalDomain: config.server.externalDomain,
  isInitialized: initialized,
  isOnboarded: onboarded,
  loginPageMessage: config.server.loginPageMessage,
  maintenanceMode: false,
  mapDarkStyleUrl: config.map.darkStyle,
  mapLightStyleUrl: config.map.lightStyle,
  minFaces: config.machineLearning.facialRecognition.minFaces,
  oauthButtonText: config.oauth.buttonText,
  publicUsers: true,
  trashDays: config.trash.days,
  userDeleteDelay: config.user.deleteDelay,
});
