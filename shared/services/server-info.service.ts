import { NotFound } from '../core/errors.ts';
import { hasAdmin, isOnboarded, setOnboarded } from '../db/system.repository.ts';
import { getUser } from '../db/user.repository.ts';
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
  if (!user) throw new NotFound('User not found');
  return storageInfo(user.quotaUsageInBytes, user.quotaSizeInBytes);
};

/** POST /server-info/admin-onboarding (admin): 204. */
export const setAdminOnboarding = async (): Promise<void> => {
  await setOnboarded();
};
