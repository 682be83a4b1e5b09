import { type SystemConfig, storageQuotaV1 } from '../../model/config.ts';

/**
 * Immich v1.100's `SystemConfigDto`: the settings it has, each where v1.100 has it (the leaves of
 * this tree). GET and PUT /system-config answer a v1.100 client in this shape exactly
 * (docs/immich-compatibility.md, "Paths both generations share"); every other client gets every
 * setting of both generations.
 */
const leaf = true as const;
const job = { concurrency: leaf };
const v1Settings = {
  ffmpeg: {
    crf: leaf,
    threads: leaf,
    preset: leaf,
    targetVideoCodec: leaf,
    acceptedVideoCodecs: leaf,
    targetAudioCodec: leaf,
    acceptedAudioCodecs: leaf,
    targetResolution: leaf,
    maxBitrate: leaf,
    bframes: leaf,
    refs: leaf,
    gopSize: leaf,
    npl: leaf,
    temporalAQ: leaf,
    cqMode: leaf,
    twoPass: leaf,
    preferredHwDevice: leaf,
    transcode: leaf,
    tonemap: leaf,
    accel: leaf,
  },
  job: {
    backgroundTask: job,
    smartSearch: job,
    metadataExtraction: job,
    faceDetection: job,
    search: job,
    sidecar: job,
    library: job,
    migration: job,
    thumbnailGeneration: job,
    videoConversion: job,
  },
  logging: { enabled: leaf, level: leaf },
  machineLearning: {
    enabled: leaf,
    url: leaf,
    clip: { enabled: leaf, modelName: leaf },
    facialRecognition: { enabled: leaf, modelName: leaf, minScore: leaf, maxDistance: leaf, minFaces: leaf },
  },
  map: { enabled: leaf, lightStyle: leaf, darkStyle: leaf },
  reverseGeocoding: { enabled: leaf },
  oauth: {
    autoLaunch: leaf,
    autoRegister: leaf,
    buttonText: leaf,
    clientId: leaf,
    clientSecret: leaf,
    defaultStorageQuota: leaf,
    enabled: leaf,
    issuerUrl: leaf,
    mobileOverrideEnabled: leaf,
    mobileRedirectUri: leaf,
    scope: leaf,
    signingAlgorithm: leaf,
    storageLabelClaim: leaf,
    storageQuotaClaim: leaf,
  },
  passwordLogin: { enabled: leaf },
  storageTemplate: { enabled: leaf, hashVerificationEnabled: leaf, template: leaf },
  thumbnail: { webpSize: leaf, jpegSize: leaf, quality: leaf, colorspace: leaf },
  newVersionCheck: { enabled: leaf },
  trash: { enabled: leaf, days: leaf },
  theme: { customCss: leaf },
  library: { scan: { enabled: leaf, cronExpression: leaf }, watch: { enabled: leaf } },
  server: { externalDomain: leaf, loginPageMessage: leaf },
  user: { deleteDelay: leaf },
} as const;

type Tree = { readonly [key: string]: Tree | true };

/** What a v1.100 body may hold: its settings, and the model choices its DTO takes but never answers. */
const v1Body: Tree = {
  ...v1Settings,
  machineLearning: {
    ...v1Settings.machineLearning,
    clip: { ...v1Settings.machineLearning.clip, mode: leaf, modelType: leaf },
    facialRecognition: { ...v1Settings.machineLearning.facialRecognition, modelType: leaf },
  },
};

const pick = (tree: Tree, value: unknown): Record<string, unknown> => {
  const node: Record<string, unknown> = value && typeof value === 'object' ? { ...value } : {};
  return Object.fromEntries(Object.entries(tree).map(([key, below]) => [key, below === true ? node[key] : pick(below, node[key])]));
};

/** The configuration as v1.100's SystemConfigDto: its settings alone, its default storage quota a number. */
export const mapConfigV1 = (config: SystemConfig): Record<string, unknown> => {
  const v1 = pick(v1Settings, config);
  v1.oauth = { ...pick(v1Settings.oauth, config.oauth), defaultStorageQuota: storageQuotaV1(config.oauth.defaultStorageQuota) };
  return v1;
};

/**
 * A body of v1.100's settings alone (what a v1.100 client sends back of what it was shown), where
 * any of v3's own settings (`image`, `nightlyTasks`, `ffmpeg.realtime`…) says the body is v3's or
 * both generations' (what every other client was shown).
 */
export const isV1ConfigBody = (body: Record<string, unknown>, tree: Tree = v1Body): boolean =>
  Object.entries(body).every(([key, value]) => {
    if (value === undefined) return true;
    const below = tree[key];
    if (below === undefined) return false;
    return (
      below === true ||
      value === null ||
      typeof value !== 'object' ||
      Array.isArray(value) ||
      isV1ConfigBody(value as Record<string, unknown>, below)
    );
  });
