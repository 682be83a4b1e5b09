import { isCron } from '../core/cron.ts';
import { Conflict, Invalid } from '../core/errors.ts';
import * as configRepo from '../db/config.repository.ts';
import { clipDimensions, unknownClipModelMessage } from '../domain/clip-models.ts';
import { configKeys, configViews, type SystemConfig, storageQuotaV1, storageTemplateOptions } from '../domain/system-config.ts';
import type { SystemConfigUpdate } from '../model/config.ts';

import { raise } from '../realtime/outbox.ts';
import { deployedOAuth } from '../storage/oauth-settings.ts';
import { clearConfigCache, defaultConfig, mergeConfig, refreshViews, setAt, valueAt, writeView } from './config.reader.ts';
import { deployedOAuthKeys, withDeployedOAuth } from './oauth-config.ts';

// Immich renders a candidate template with a sample asset; strict mode makes unknown variables fail.
// v3's tokens are in it too (`make`, `album-startDate-y`…), so v3's presets pass on both generations.
const sampleTemplateData: Record<string, string> = {
  filename: 'IMG_123',
  ext: 'jpg',
  filetype: 'IMG',
  filetypefull: 'IMAGE',
  assetId: 'd587e44b-f8c0-4832-9ba3-43268bbf5d4e',
  assetIdShort: '43268bbf5d4e',
  album: 'album',
  make: 'FUJIFILM',
  model: 'X-T50',
  lensModel: 'XF27mm F2.8 R WR',
  y: '2022',
  yy: '22',
  M: '2',
  MM: '02',
  MMM: 'Feb',
  MMMM: 'February',
  W: '9',
  WW: '09',
  d: '6',
  dd: '06',
  h: '3',
  hh: '03',
  H: '15',
  HH: '15',
  m: '4',
  mm: '04',
  s: '5',
  ss: '05',
  SSS: '006',
};
const { presetOptions: _presets, ...dateTokens } = storageTemplateOptions;
for (const token of Object.values(dateTokens).flat()) {
  sampleTemplateData[`album-startDate-${token}`] = sampleTemplateData[token] as string;
  sampleTemplateData[`album-endDate-${token}`] = sampleTemplateData[token] as string;
}

/**
 * Immich's service-level checks, run on every update whatever is enabled; each a plain 400. A
 * template that is the current one (the default, or one stored after passing this check) passes
 * again without rendering, so Handlebars (90 KB, its one-file build) is loaded only when a template
 * changes: most updates send the whole config back with the template untouched (docs/benchmarks.md).
 */
const validate = async (config: SystemConfig, current: SystemConfig): Promise<void> => {
  const { template } = config.storageTemplate;
  if (template !== current.storageTemplate.template) {
    const { default: Handlebars } = await import('handlebars/dist/handlebars.min.js');
    try {
      Handlebars.compile(template, { knownHelpers: undefined, strict: true })(sampleTemplateData);
    } catch (error) {
      throw new Invalid(`Invalid storage template: ${String(error)}`);
    }
  }
  if (!isCron(config.library.scan.cronExpression)) {
    throw new Invalid(`Invalid cron expression ${config.library.scan.cronExpression}`);
  }
  // Immich 3.1's check (smart-info.service.ts): a CLIP model it does not know is refused, whatever is enabled.
  if (clipDimensions(config.machineLearning.clip.modelName) === undefined) {
    throw new Invalid(unknownClipModelMessage(config.machineLearning.clip.modelName));
  }
};

/**
 * Whether two values of one setting are the same. A setting is a leaf of the configuration: a
 * string, number, boolean or null, or a list of them, so their JSON is the same exactly when they
 * are (without node:util, whose import costs this function about 1 ms of cold start).
 */
const sameSetting = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** What Immich stores: each key whose value is set and differs from its default; `null` or `""` resets. */
const differences = (config: SystemConfig): Record<string, unknown> => {
  const defaults = defaultConfig();
  const overrides: Record<string, unknown> = {};
  for (const path of configKeys) {
    const value = valueAt(config, path);
    if (value === undefined || value === null || value === '' || sameSetting(value, valueAt(defaults, path))) continue;
    overrides[path] = value;
  }
  return overrides;
};

/**
 * The configuration a body asks for: what it leaves out keeps its current value; a view sent
 * changed (v1.100's `thumbnail.quality`) writes the settings it names, unless the body also
 * changed those (v3's `image.preview.quality`: the newer generation's setting wins).
 */
const requested = (body: SystemConfigUpdate, current: SystemConfig, from: 'v1' | undefined): SystemConfig => {
  const next = structuredClone(current);
  for (const path of configKeys) {
    const value = valueAt(body, path);
    if (value !== undefined) setAt(next, path, value);
  }
  if (from === 'v1')
    next.oauth.defaultStorageQuota = storageQuotaFromV1(body.oauth?.defaultStorageQuota, current.oauth.defaultStorageQuota);
  for (const view of configViews) {
    const value = valueAt(body, view.view);
    const changed = value !== undefined && !sameSetting(value, valueAt(current, view.view));
    const changedThere = view.paths.some((path) => !sameSetting(valueAt(next, path), valueAt(current, path)));
    if (changed && !changedThere) writeView(next, view, value);
  }
  return refreshViews(next);
};

/**
 * `oauth.defaultStorageQuota` as a v1.100 client sends it (its view: `storageQuotaV1`): the value it
 * was shown keeps the setting as it is; another 0 is v1.100's "no quota", v3's null; any other
 * number is that many GiB, in both.
 */
const storageQuotaFromV1 = (sent: unknown, current: number | null): number | null => {
  if (sent === undefined || sent === storageQuotaV1(current)) return current;
  return sent === 0 ? null : (sent as number | null);
};

/**
 * PUT /system-config: validate, store the differences from the defaults, answer the merged
 * result. The write is conditional on the version read here, so concurrent updates cannot both
 * land: one gets 409 and nothing is silently lost. `from`: the body is a v1.100 client's
 * (shared/http/generation.ts), whose default storage quota is v1.100's view of v3's.
 */
export const updateConfig = async (body: SystemConfigUpdate, from?: 'v1'): Promise<SystemConfig> => {
  const { overrides, version } = await configRepo.getStoredConfig();
  const current = await withDeployedOAuth(mergeConfig(overrides), overrides);
  const config = requested(body, current, from);
  await validate(config, current);
  const next = differences(config);
  // The deployment's OAuth provider (OAUTH_SECRET_ARN) is its secret's, whatever the admin page sends back: never stored.
  const deployed = await deployedOAuth().catch(() => undefined);
  if (deployed) {
    for (const key of deployedOAuthKeys(deployed)) delete next[key];
    // Off is kept though it is the default: with the deployment's provider, a setting never stored is on.
    next['oauth.enabled'] = config.oauth.enabled;
  }
  const replaced = await configRepo.replaceStoredConfig(next, version);
  if (!replaced.ok) throw new Conflict('The configuration was changed by another request; read it again and retry');
  const stored = replaced.value;
  clearConfigCache();
  // Every app is told, as Immich tells them (the mobile app reads its features and config again).
  raise({ kind: 'config-changed' });
  return withDeployedOAuth(mergeConfig(stored.overrides), stored.overrides);
};
