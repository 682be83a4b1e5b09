import * as env from '../core/env.ts';
import { getStoredConfig } from '../db/config.repository.ts';
import { configDefaults, configKeys } from '../domain/system-config.ts';
import type { SystemConfig } from '../dto/v1/system-config.ts';

const clone = <T>(value: T): T => structuredClone(value);

/** The defaults, with Immich's environment overrides for machine learning. */
export const defaultConfig = (): SystemConfig => {
  const config = clone(configDefaults) as SystemConfig;
  const enabled = env.machineLearningEnabled();
  const url = env.machineLearningUrl();
  if (enabled !== undefined) config.machineLearning.enabled = enabled;
  if (url) config.machineLearning.url = url;
  return config;
};

/**
 * Defaults overlaid with the stored differences (Immich's getConfig), then Immich's codec rule:
 * a target codec missing from its accepted list is put at the front of the list.
 */
export const mergeConfig = (overrides: Record<string, unknown>): SystemConfig => {
  const config = defaultConfig();
  for (const path of configKeys) {
    if (!(path in overrides)) continue;
    const parts = path.split('.');
    let node: Record<string, unknown> = config;
    for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
    node[parts.at(-1) as string] = clone(overrides[path]);
  }
  const { ffmpeg } = config;
  if (!ffmpeg.acceptedVideoCodecs.includes(ffmpeg.targetVideoCodec)) ffmpeg.acceptedVideoCodecs.unshift(ffmpeg.targetVideoCodec);
  if (!ffmpeg.acceptedAudioCodecs.includes(ffmpeg.targetAudioCodec)) ffmpeg.acceptedAudioCodecs.unshift(ffmpeg.targetAudioCodec);
  return config;
};

/** GET /system-config/defaults */
export const getConfigDefaults = (): SystemConfig => defaultConfig();

export const readStoredConfig = async (): Promise<{ config: SystemConfig; version: number }> => {
  const stored = await getStoredConfig();
  return { config: mergeConfig(stored.overrides), version: stored.version };
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
