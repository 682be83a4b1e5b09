import * as env from '../core/env.ts';
import { log } from '../core/log.ts';
import * as configRepo from '../db/config.repository.ts';
import { configDefaults, configKeys, configViews, type SystemConfig } from '../domain/system-config.ts';
import { deployedOAuth } from '../storage/oauth-settings.ts';

const clone = <T>(value: T): T => structuredClone(value);

type Node = Record<string, unknown>;

export const valueAt = (config: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (node as Node | undefined)?.[key], config);

export const setAt = (config: unknown, path: string, value: unknown): void => {
  const parts = path.split('.');
  let node = config as Node;
  for (const part of parts.slice(0, -1)) node = node[part] as Node;
  node[parts.at(-1) as string] = value;
};

/** A view's value as the stored paths say (the first path; `index` picks from a list). */
const viewValue = (config: SystemConfig, { paths, index }: (typeof configViews)[number]): unknown => {
  const value = valueAt(config, paths[0] as string);
  return index === undefined ? value : (value as unknown[])[index];
};

/** Writes a view's value into every path it names (into the `index`th item of a list). */
export const writeView = (config: SystemConfig, { paths, index }: (typeof configViews)[number], value: unknown): void => {
  for (const path of paths) {
    if (index === undefined) setAt(config, path, clone(value));
    else {
      const list = [...(valueAt(config, path) as unknown[])];
      list[index] = value;
      setAt(config, path, list);
    }
  }
};

/** Fills every view from the paths it names. */
export const refreshViews = (config: SystemConfig): SystemConfig => {
  for (const view of configViews) setAt(config, view.view, clone(viewValue(config, view)));
  return config;
};

/** The defaults, with Immich's environment overrides for machine learning. */
export const defaultConfig = (): SystemConfig => {
  const config = clone(configDefaults);
  const enabled = env.machineLearningEnabled();
  const url = env.machineLearningUrl();
  if (enabled !== undefined) config.machineLearning.enabled = enabled;
  if (url) config.machineLearning.urls = [url];
  return refreshViews(config);
};

/**
 * Defaults overlaid with the stored differences (Immich's getConfig), then Immich's codec rule:
 * a target codec missing from its accepted list is put at the front of the list. A difference
 * stored under a view's path (as before v3's settings: `thumbnail.quality`) is read into the paths
 * it names, so nothing stored needs migrating; the next update stores it under those paths.
 */
export const mergeConfig = (overrides: Record<string, unknown>): SystemConfig => {
  const config = defaultConfig();
  for (const view of configViews) if (view.view in overrides) writeView(config, view, overrides[view.view]);
  for (const path of configKeys) if (path in overrides) setAt(config, path, clone(overrides[path]));
  const { ffmpeg } = config;
  if (!ffmpeg.acceptedVideoCodecs.includes(ffmpeg.targetVideoCodec)) ffmpeg.acceptedVideoCodecs.unshift(ffmpeg.targetVideoCodec);
  if (!ffmpeg.acceptedAudioCodecs.includes(ffmpeg.targetAudioCodec)) ffmpeg.acceptedAudioCodecs.unshift(ffmpeg.targetAudioCodec);
  return refreshViews(config);
};

/** GET /system-config/defaults */
export const getConfigDefaults = (): SystemConfig => defaultConfig();

/** The settings the deployment's OAuth secret overrides (`OAUTH_SECRET_ARN`): never stored, always the secret's. */
export const deployedOAuthKeys = ['oauth.issuerUrl', 'oauth.clientId', 'oauth.clientSecret'] as const;

/**
 * The deployment's OAuth provider over the stored settings (shared/storage/oauth-settings.ts): its
 * issuer, client id and secret replace the stored ones, and OAuth is on unless an admin turned it
 * off (a stored `oauth.enabled`). Without `OAUTH_SECRET_ARN`, the config as it is.
 */
export const withDeployedOAuth = async (config: SystemConfig, overrides: Record<string, unknown>): Promise<SystemConfig> => {
  let deployed: Awaited<ReturnType<typeof deployedOAuth>>;
  try {
    deployed = await deployedOAuth();
  } catch (error) {
    // The secret unread (throttled, denied): OAuth is off until the next read, every other setting still serves.
    log.error('The OAuth secret could not be read', { reason: error instanceof Error ? error.message : String(error) });
    config.oauth.enabled = false;
    return config;
  }
  if (!deployed) return config;
  config.oauth.issuerUrl = deployed.issuerUrl;
  config.oauth.clientId = deployed.clientId;
  config.oauth.clientSecret = deployed.clientSecret;
  if (!('oauth.enabled' in overrides)) config.oauth.enabled = true;
  return config;
};

const readStoredConfig = async (): Promise<{ config: SystemConfig; version: number }> => {
  const stored = await configRepo.getStoredConfig();
  return { config: await withDeployedOAuth(mergeConfig(stored.overrides), stored.overrides), version: stored.version };
};

/** GET /system-config: always the stored state (no cache), as an admin expects after a PUT. */
export const getConfig = async (): Promise<SystemConfig> => (await readStoredConfig()).config;

// Features that depend on the configuration (password login, later trash and ML) read it through
// this cache: one GetItem per container every few seconds, not one per request. A function that
// writes the configuration clears its own cache; other containers see the change within the TTL.
const ttlMs = env.configCacheMs();
let cached: { config: SystemConfig; expires: number } | undefined;

export const readConfig = async (): Promise<SystemConfig> => {
  if (cached && cached.expires > Date.now()) return cached.config;
  const { config } = await readStoredConfig();
  cached = { config, expires: Date.now() + ttlMs };
  return config;
};

export const clearConfigCache = (): void => {
  cached = undefined;
};
