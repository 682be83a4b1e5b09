import { isDeepStrictEqual } from 'node:util';
import { Invalid } from '../core/errors.ts';
import { getStoredConfig, replaceStoredConfig } from '../db/config.repository.ts';
import { configKeys } from '../domain/system-config.ts';
import { isCron, type SystemConfig } from '../dto/v1/system-config.ts';
import { clearConfigCache, defaultConfig, mergeConfig } from './config.reader.ts';

// Immich renders a candidate template with a sample asset; strict mode makes unknown variables fail.
const sampleTemplateData: Record<string, string> = {
  filename: 'IMG_123',
  ext: 'jpg',
  filetype: 'IMG',
  filetypefull: 'IMAGE',
  assetId: 'd587e44b-f8c0-4832-9ba3-43268bbf5d4e',
  album: 'album',
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
};

const valueAt = (config: SystemConfig, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], config);

/** What Immich stores: each key whose value is set and differs from its default; `null` or `""` resets. */
const differences = (config: SystemConfig): Record<string, unknown> => {
  const defaults = defaultConfig();
  const overrides: Record<string, unknown> = {};
  for (const path of configKeys) {
    const value = valueAt(config, path);
    if (value === undefined || value === null || value === '' || isDeepStrictEqual(value, valueAt(defaults, path))) continue;
    overrides[path] = value;
  }
  return overrides;
};

/**
 * PUT /system-config: validate, store the differences from the defaults, answer the merged
 * result. The write is conditional on the version read here, so concurrent updates cannot both
 * land: one gets 409 and nothing is silently lost.
 */
export const updateConfig = async (config: SystemConfig): Promise<SystemConfig> => {
  const { overrides, version } = await getStoredConfig();
  await validate(config, mergeConfig(overrides));
  const stored = await replaceStoredConfig(differences(config), version);
  clearConfigCache();
  return mergeConfig(stored.overrides);
};
