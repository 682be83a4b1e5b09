import * as env from '../core/env.ts';
import * as configRepo from '../db/config.repository.ts';
import { configDefaults, configKeys, configViews, type SystemConfig } from '../domain/system-config.ts';

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

const readStoredConfig = async (): Promise<{ config: SystemConfig; overrides: Record<string, unknown>; version: number }> => {
  const stored = await configRepo.getStoredConfig();
  return { config: mergeConfig(stored.overrides), overrides: stored.overrides, version: stored.version };
};

/** The stored configuration now (no cache) and the differences it was merged from (shared/services/oauth-config.ts reads both). */
export const getConfigState = async (): Promise<{ config: SystemConfig; overrides: Record<string, unknown> }> => readStoredConfig();

/** GET /system-config: always the stored state (no cache), as an admin expects after a PUT. */
export const getConfig = async (): Promise<SystemConfig> => (await readStoredConfig()).config;

// Features that depend on the configuration (password login, later trash and ML) read it through
// this cache: one GetItem per container every few seconds, not one per request. A function that
// writes the configuration clears its own cache; other containers see the change within the TTL.
const ttlMs = env.configCacheMs();
let cached: { config: SystemConfig; overrides: Record<string, unknown>; expires: number } | undefined;

/** The cached configuration and the stored differences it was merged from. */
export const readConfigState = async (): Promise<{ config: SystemConfig; overrides: Record<string, unknown> }> => {
  if (cached && cached.expires > Date.now()) return cached;
  const { config, overrides } = await readStoredConfig();
  cached = { config, overrides, expires: Date.now() + ttlMs };
  return cached;
};

export const readConfig = async (): Promise<SystemConfig> => (await readConfigState()).config;

export const clearConfigCache = (): void => {
  cached = undefined;
};
