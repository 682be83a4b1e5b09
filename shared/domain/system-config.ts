import { configDefaults } from '../model/config.ts';

export { configDefaults, type SystemConfig, storageQuotaV1 } from '../model/config.ts';

/**
 * v1.100's names for settings v3 keeps elsewhere: each view path, the stored path(s) it is, and
 * how it reads. Writing a view writes every path it names (v1.100's one `thumbnail.quality` was
 * the quality of both generated images; its `machineLearning.url` is the first of v3's `urls`).
 */
export const configViews: readonly { view: string; paths: readonly string[]; index?: number }[] = [
  { view: 'thumbnail.webpSize', paths: ['image.thumbnail.size'] },
  { view: 'thumbnail.jpegSize', paths: ['image.preview.size'] },
  { view: 'thumbnail.quality', paths: ['image.preview.quality', 'image.thumbnail.quality'] },
  { view: 'thumbnail.colorspace', paths: ['image.colorspace'] },
  { view: 'machineLearning.url', paths: ['machineLearning.urls'], index: 0 },
];

const leafPaths = (value: unknown, prefix = ''): string[] =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.entries(value).flatMap(([key, child]) => leafPaths(child, prefix ? `${prefix}.${key}` : key))
    : [prefix];

/**
 * The dot paths stored (Immich's SystemConfigKey): every leaf of the defaults but the views. The
 * optional `machineLearning.clip.mode/modelType` and `facialRecognition.modelType` are not in it,
 * so, as in Immich v1.100, they are validated but never stored.
 */
export const configKeys: readonly string[] = leafPaths(configDefaults).filter((path) => !configViews.some(({ view }) => view === path));

/** Immich v3.2's storage-template tokens and presets (GET /system-config/storage-template-options, both generations). */
export const storageTemplateOptions = {
  dayOptions: ['d', 'dd'],
  hourOptions: ['h', 'hh', 'H', 'HH'],
  minuteOptions: ['m', 'mm'],
  monthOptions: ['M', 'MM', 'MMM', 'MMMM'],
  secondOptions: ['s', 'ss', 'SSS'],
  weekOptions: ['W', 'WW'],
  yearOptions: ['y', 'yy'],
  presetOptions: [
    '{{y}}/{{y}}-{{MM}}-{{dd}}/{{filename}}',
    '{{y}}/{{MM}}-{{dd}}/{{filename}}',
    '{{y}}/{{MMMM}}-{{dd}}/{{filename}}',
    '{{y}}/{{MM}}/{{filename}}',
    '{{y}}/{{#if album}}{{album}}{{else}}Other/{{MM}}{{/if}}/{{filename}}',
    '{{#if album}}{{album-startDate-y}}/{{album}}{{else}}{{y}}/Other/{{MM}}{{/if}}/{{filename}}',
    '{{y}}/{{MMM}}/{{filename}}',
    '{{y}}/{{MMMM}}/{{filename}}',
    '{{y}}/{{MM}}/{{dd}}/{{filename}}',
    '{{y}}/{{MMMM}}/{{dd}}/{{filename}}',
    '{{y}}/{{y}}-{{MM}}/{{y}}-{{MM}}-{{dd}}/{{filename}}',
    '{{y}}-{{MM}}-{{dd}}/{{filename}}',
    '{{y}}-{{MMM}}-{{dd}}/{{filename}}',
    '{{y}}-{{MMMM}}-{{dd}}/{{filename}}',
    '{{y}}/{{y}}-{{MM}}/{{filename}}',
    '{{y}}/{{y}}-{{WW}}/{{filename}}',
    '{{y}}/{{y}}-{{MM}}-{{dd}}/{{assetId}}',
    '{{y}}/{{y}}-{{MM}}/{{assetId}}',
    '{{y}}/{{y}}-{{WW}}/{{assetId}}',
    '{{album}}/{{filename}}',
    '{{make}}/{{model}}/{{lensModel}}/{{filename}}',
  ],
};

/** SystemConfigTemplateStorageOptionDto. */
export type SystemConfigTemplateStorageOptionDto = typeof storageTemplateOptions;
