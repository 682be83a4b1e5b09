import * as v from 'valibot';

/** The stored configuration: only the values that differ from the defaults, by dot path. */
export const StoredConfigSchema = v.object({
  overrides: v.optional(v.record(v.string(), v.unknown()), {}),
  /** 0 when nothing was ever stored; each write adds one. */
  version: v.number(),
});
export type StoredConfig = v.InferOutput<typeof StoredConfigSchema>;

/**
 * The one system configuration both API generations read and write (docs/immich-compatibility.md,
 * "System configuration"): Immich v3.2's settings (server/src/config.ts) with v1.100's beside them.
 * Only differences from these defaults are stored; reads merge them back (Immich's model).
 *
 * Where v1.100 named a setting v3 keeps elsewhere, v1.100's name is a view of v3's
 * (`configViews` in shared/domain/system-config.ts): `thumbnail.webpSize` is
 * `image.thumbnail.size`, `machineLearning.url` the first of `machineLearning.urls`. Views are
 * answered, never stored. Settings only v1.100 has (`ffmpeg.npl`) are kept as before.
 */
type Colorspace = 'srgb' | 'p3';

export const configDefaults = {
  backup: { database: { enabled: true, cronExpression: '0 02 * * *', keepLastAmount: 14 } },
  ffmpeg: {
    crf: 23,
    threads: 0,
    preset: 'ultrafast',
    targetVideoCodec: 'h264',
    acceptedVideoCodecs: ['h264'],
    targetAudioCodec: 'aac',
    // v1.100's spelling of Opus (v3 says `opus`): the field is both generations', and v1.100's rule holds on it.
    acceptedAudioCodecs: ['aac', 'mp3', 'libopus'],
    acceptedContainers: ['mov', 'ogg', 'webm'],
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
    accelDecode: true,
    realtime: { enabled: false, videoCodecs: ['h264', 'hevc'], resolutions: [480, 720, 1080] },
  },
  integrityChecks: {
    missingFiles: { enabled: true, cronExpression: '0 03 * * *' },
    untrackedFiles: { enabled: true, cronExpression: '0 03 * * *' },
    checksumFiles: { enabled: true, cronExpression: '0 03 * * *', timeLimit: 3_600_000, percentageLimit: 1 },
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
    thumbnailGeneration: { concurrency: 3 },
    videoConversion: { concurrency: 1 },
    notifications: { concurrency: 5 },
    ocr: { concurrency: 1 },
    workflow: { concurrency: 5 },
    integrityCheck: { concurrency: 1 },
    editor: { concurrency: 2 },
  },
  logging: { enabled: true, level: 'log' },
  machineLearning: {
    enabled: true,
    urls: ['http://immich-machine-learning:3003'],
    url: 'http://immich-machine-learning:3003',
    availabilityChecks: { enabled: true, timeout: 2000, interval: 30_000 },
    clip: { enabled: true, modelName: 'ViT-B-32__openai' },
    duplicateDetection: { enabled: true, maxDistance: 0.01 },
    // minScore is this detector's (SSD-MobileNetV1's), not buffalo_l's 0.7: real faces it scores
    // 0.54 to 0.68 (a portrait re-saved or resized, two of 22 faces in six group photos) were lost at
    // 0.7, and nothing that is not a face scored between 0.5 and 0.7 (docs/faces.md, "Real photos").
    facialRecognition: { enabled: true, modelName: 'buffalo_l', minScore: 0.5, maxDistance: 0.5, minFaces: 3 },
    ocr: { enabled: true, modelName: 'PP-OCRv5_mobile', minDetectionScore: 0.5, minRecognitionScore: 0.8, maxResolution: 736 },
  },
  map: {
    enabled: true,
    lightStyle: 'https://tiles.immich.cloud/v1/style/light.json',
    darkStyle: 'https://tiles.immich.cloud/v1/style/dark.json',
  },
  reverseGeocoding: { enabled: true },
  metadata: { faces: { import: false } },
  oauth: {
    autoLaunch: false,
    autoRegister: true,
    buttonText: 'Login with OAuth',
    clientId: '',
    clientSecret: '',
    defaultStorageQuota: null as number | null,
    enabled: false,
    issuerUrl: '',
    endSessionEndpoint: '',
    mobileOverrideEnabled: false,
    mobileRedirectUri: '',
    prompt: '',
    scope: 'openid email profile',
    signingAlgorithm: 'RS256',
    profileSigningAlgorithm: 'none',
    storageLabelClaim: 'preferred_username',
    storageQuotaClaim: 'immich_quota',
    roleClaim: 'immich_role',
    tokenEndpointAuthMethod: 'client_secret_post',
    accountManagementUrl: '',
    timeout: 30_000,
    allowInsecureRequests: false,
  },
  passwordLogin: { enabled: true },
  storageTemplate: { enabled: false, hashVerificationEnabled: true, template: '{{y}}/{{y}}-{{MM}}-{{dd}}/{{filename}}' },
  image: {
    thumbnail: { format: 'webp', size: 250, quality: 80, progressive: false },
    preview: { format: 'jpeg', size: 1440, quality: 80, progressive: false },
    colorspace: 'p3' as Colorspace,
    extractEmbedded: false,
    fullsize: { enabled: false, format: 'jpeg', quality: 80, progressive: false },
  },
  thumbnail: { webpSize: 250, jpegSize: 1440, quality: 80, colorspace: 'p3' as Colorspace },
  newVersionCheck: { enabled: true, channel: 'stable' },
  nightlyTasks: {
    startTime: '00:00',
    databaseCleanup: true,
    generateMemories: true,
    syncQuotaUsage: true,
    missingThumbnails: true,
    clusterNewFaces: true,
  },
  trash: { enabled: true, days: 30 },
  theme: { customCss: '' },
  library: { scan: { enabled: true, cronExpression: '0 0 * * *' }, watch: { enabled: false } },
  server: { externalDomain: '', loginPageMessage: '', publicUsers: true },
  notifications: {
    smtp: {
      enabled: false,
      from: '',
      replyTo: '',
      transport: { ignoreCert: false, host: '', port: 587, secure: false, username: '', password: '' },
    },
  },
  templates: { email: { welcomeTemplate: '', albumInviteTemplate: '', albumUpdateTemplate: '' } },
  user: { deleteDelay: 7 },
};

/** The configuration as read: every setting of both generations, views included. */
export type SystemConfig = typeof configDefaults;

/**
 * v1.100's view of `oauth.defaultStorageQuota`: v3 has null for "no quota", where v1.100's number
 * is 0 for it (its OAuth sign-up gives a user `quota × GiB || null`); a v1.100 client is shown this
 * (shared/dto/v1/system-config.response.ts) and its body read back through it.
 */
export const storageQuotaV1 = (quota: number | null): number => quota ?? 0;

/** The server's configuration and whether it has its admin and finished onboarding (GET server config). */
export interface ServerState {
  config: SystemConfig;
  initialized: boolean;
  onboarded: boolean;
}

/** A section or setting a body leaves out is `undefined`: it keeps its value. */
type Update<T> = { [K in keyof T]?: (T[K] extends readonly unknown[] ? T[K] : T[K] extends object ? Update<T[K]> : T[K]) | undefined };

/**
 * A checked PUT /system-config body of either generation (shared/dto/common/system-config.ts reads both):
 * shared/services/system-config.service.ts fills what it leaves out from the stored config.
 */
export type SystemConfigUpdate = Update<SystemConfig>;
