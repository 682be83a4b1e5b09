/**
 * Immich v1.100's system configuration defaults (server/src/cores/system-config.core.ts).
 * Only differences from these are stored; reads merge them back (Immich's model).
 */
export const configDefaults = {
  ffmpeg: {
    crf: 23,
    threads: 0,
    preset: 'ultrafast',
    targetVideoCodec: 'h264',
    acceptedVideoCodecs: ['h264'],
    targetAudioCodec: 'aac',
    acceptedAudioCodecs: ['aac', 'mp3', 'libopus'],
    targetResolution: '720',
    maxBitrate: '0',
    bframes: -1,
    refs: 0,
    gopSize: 0,
    npl: 0,
    temporalAQ: false,
    cqMode: 'auto',
    twoPass: false,
    preferredHwDevice: 'auto',
    transcode: 'required',
    tonemap: 'hable',
    accel: 'disabled',
  },
  job: {
    backgroundTask: { concurrency: 5 },
    smartSearch: { concurrency: 2 },
    metadataExtraction: { concurrency: 5 },
    faceDetection: { concurrency: 2 },
    search: { concurrency: 5 },
    sidecar: { concurrency: 5 },
    library: { concurrency: 5 },
    migration: { concurrency: 5 },
    thumbnailGeneration: { concurrency: 5 },
    videoConversion: { concurrency: 1 },
  },
  logging: { enabled: true, level: 'log' },
  machineLearning: {
    enabled: true,
    url: 'http://immich-machine-learning:3003',
    clip: { enabled: true, modelName: 'ViT-B-32__openai' },
    facialRecognition: { enabled: true, modelName: 'buffalo_l', minScore: 0.7, maxDistance: 0.5, minFaces: 3 },
  },
  map: { enabled: true, lightStyle: '', darkStyle: '' },
  reverseGeocoding: { enabled: true },
  oauth: {
    autoLaunch: false,
    autoRegister: true,
    buttonText: 'Login with OAuth',
    clientId: '',
    clientSecret: '',
    defaultStorageQuota: 0,
    enabled: false,
    issuerUrl: '',
    mobileOverrideEnabled: false,
    mobileRedirectUri: '',
    scope: 'openid email profile',
    signingAlgorithm: 'RS256',
    storageLabelClaim: 'preferred_username',
    storageQuotaClaim: 'immich_quota',
  },
  passwordLogin: { enabled: true },
  storageTemplate: { enabled: false, hashVerificationEnabled: true, template: '{{y}}/{{y}}-{{MM}}-{{dd}}/{{filename}}' },
  thumbnail: { webpSize: 250, jpegSize: 1440, quality: 80, colorspace: 'p3' },
  newVersionCheck: { enabled: true },
  trash: { enabled: true, days: 30 },
  theme: { customCss: '' },
  library: { scan: { enabled: true, cronExpression: '0 0 * * *' }, watch: { enabled: false } },
  server: { externalDomain: '', loginPageMessage: '' },
  user: { deleteDelay: 7 },
};

/**
 * The dot paths Immich persists (its SystemConfigKey enum): every leaf of the defaults. The
 * optional `machineLearning.clip.mode/modelType` and `facialRecognition.modelType` are not in it,
 * so, as in Immich, they are validated but never stored.
 */
export const configKeys: readonly string[] = (() => {
  const paths: string[] = [];
  const walk = (value: unknown, prefix: string): void => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, child] of Object.entries(value)) walk(child, prefix ? `${prefix}.${key}` : key);
    } else paths.push(prefix);
  };
  walk(configDefaults, '');
  return paths;
})();

/** Immich's storage-template tokens and presets (GET /system-config/storage-template-options). */
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
  ],
};

/** SystemConfigTemplateStorageOptionDto. */
export type SystemConfigTemplateStorageOptionDto = typeof storageTemplateOptions;
