/**
 * The one route table. The CDK stack makes one Lambda function and one HTTP API route from each
 * row; the local server serves the same handler modules from the same rows. Adding an operation
 * is one handler file under functions/ plus one row here (and its tests).
 *
 * One row per line, grouped by area in Immich's controller order. A row's handler is
 * `functions/<area>/<operation-id>.ts` unless the row names its `entry`; test/unit/routes.test.ts
 * fails when a row and a file disagree.
 */
/**
 * The groups of modules a function loads on first use (`Route.lazy`). What each group holds and how
 * it ships beside a bundle is `lazyModules` (infra/cdk/bundling.ts), which the compiler holds to
 * exactly these names: the stack reads this table, the table never reads the stack.
 */
export type LazyGroup = 'metadata' | 'templates' | 'cron' | 'places' | 'faces' | 'countries' | 'ml';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';

/** A request's method as routed: a row's, or HEAD on a row that answers it too (`Route.head`). */
export type RoutedMethod = Method | 'HEAD';

export interface Route {
  /** Immich's operationId (the @immich/sdk function name). */
  operationId: string;
  method: Method;
  /** Full path with API Gateway `{param}` placeholders, or `$default` for the fallback route. */
  path: string;
  /** Handler module, relative to the project root; it exports `handler`. */
  entry: string;
  /** What the function may do to the table; the stack grants exactly this. */
  data: 'none' | 'read' | 'write';
  /**
   * What the function may do to the originals store (the S3 bucket), none when absent: `read`
   * objects, `put` new ones (and delete the exact versions it wrote, to undo a failed upload), or
   * `delete` them for good, or `archive`: read originals and write zips under `downloads/`, or
   * `session`: upload sessions' multipart uploads (docs/large-uploads.md).
   */
  store?: 'read' | 'put' | 'delete' | 'archive' | 'session';
  /** Needs the shared-link secret (keys and password tokens are derived from it): read from Secrets Manager deployed. */
  secrets?: boolean;
  /**
   * Reads the deployment's OAuth provider (shared/services/oauth-config.ts: `OAUTH_SECRET_ARN`, a
   * Secrets Manager secret of the issuer, client id and secret): deployed, it gets that variable and
   * may read that one secret. Exactly the routes whose handler imports it (test/unit/architecture.test.ts).
   */
  oauthSecret?: true;
  /** Verifies product keys: given the public keys the deployer set (`LICENSE_PUBLIC_KEY_SERVER`, `_CLIENT`). */
  licenseKeys?: true;
  /**
   * Hands work to the media function (a person's thumbnail after a new feature face,
   * shared/storage/media-jobs.ts): deployed, it may invoke that one function asynchronously.
   */
  mediaJobs?: true;
  /**
   * Queues Immich's video conversion (the jobs page's start, `transcode-video` asset jobs):
   * deployed, it may invoke the transcode function asynchronously (`TRANSCODE_FUNCTION`,
   * infra/cdk/transcode-function.ts), unless the stack leaves transcoding out.
   */
  transcodeJobs?: true;
  /**
   * Tells Immich's apps of what it did (its service raises realtime events: docs/web-app.md,
   * "Realtime"): deployed, it may post to the WebSocket API's connections (its management API,
   * `REALTIME_ENDPOINT`), and carries that API's client beside its bundle.
   */
  realtime?: true;
  /**
   * The groups of modules it loads on first use (`lazyModules`, infra/cdk/bundling.ts: `metadata`,
   * the readers of uploaded files; `templates`, Handlebars): they ship beside its bundle.
   * test/infra/bundle.test.ts fails when a function's bundle loads one and its row does not say so.
   * `ml` (onnxruntime and the OCR weights) also makes it a function that runs models: deployed, it
   * gets at least `mlMemoryMb`, room in /tmp for a model's copy, the models' bucket and the ML
   * service's auth secret (docs/deployment.md, "Smart search and OCR").
   */
  lazy?: readonly LazyGroup[];
  /**
   * Tells whether a local CLIP model is there without running one (smart search's availability in
   * the features routes: shared/ml/features.ts): deployed, it gets `ML_MODELS_BUCKET` and may list
   * `models/` and read (HEAD) the objects under it, nothing else of machine learning: no `ml` group
   * beside its bundle, no more memory or /tmp, no ML service secret (docs/deployment.md, "Smart
   * search and OCR"). A row that names `ml` has this already.
   */
  checksModels?: true;
  /** Lambda memory in MB; password hashing (argon2id, 19 MiB) and CPU want more. */
  memory?: number;
  /**
   * How large a request body may be (`bodyLimitBytes`): `json` (the default) 1 MB; `bulk` what a
   * client sends for a 100,000-asset library (lists of ids, the CLI's checksums), up to what
   * Lambda accepts; `upload` the file limit. Larger is a 413 before parsing or authentication.
   */
  body?: 'json' | 'bulk' | 'upload';
  /**
   * Costly per call (argon2id) and open to guessing: a password open to anyone (sign-in, a shared
   * link's) or a PIN code (the locked folder's, also counted per user: shared/services/pin-code.service.ts).
   * The stack can cap its concurrency (`-c hashingConcurrency=N`), so a flood of attempts cannot
   * run up the bill or run many guesses at once.
   */
  publicHashing?: true;
  /**
   * The API generation whose operation this is (docs/immich-compatibility.md): v1.100's when
   * absent, or `v3` (Immich v3.2, `@immich/sdk` 3.2.2), whose handlers are under `functions/v3/`.
   * Both generations have operations of the same name (`pingServer`): `functionName` tells them apart.
   */
  generation?: 'v3';
  /**
   * A v1.100 row whose method and path Immich v3.2 kept for an operation of its own (named here):
   * one function answers both generations' clients (docs/immich-compatibility.md, "Paths both
   * generations share"), so v3's SDK coverage counts it.
   */
  v3?: string;
  /**
   * A GET that answers HEAD too, with the same function (a second route key): Express answers HEAD
   * on every GET, and the web app's Cast asks a file route's `content-type` with HEAD before it
   * hands the URL to the receiver. Only the routes a client sends HEAD to have it (each route key
   * counts against API Gateway's routes per API).
   */
  head?: true;
  /**
   * Answers with Lambda response streaming (shared/http/stream-handler.ts): its handler takes the
   * response stream as its second argument, and its body may be far larger than API Gateway's 6 MB.
   */
  stream?: true;
}

// argon2id wants 19 MiB per hash, and Lambda gives CPU in proportion to memory.
const hashing = 1024;
// An upload holds the file (up to the request limit) a few times over and reads its metadata.
const media = 1024;
// An upload session's completion: its multipart object, and the media job it hands the upload to.
const completion = { store: 'session', mediaJobs: true, memory: media, lazy: ['metadata'] } as const;

/** `pingServer` → `ping-server`: the handler's file name, and the Lambda function's id and log group. */
export const kebab = (operationId: string): string => operationId.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** A route's function: the Lambda function's name and log group, unique across both generations (`v3-ping-server`). */
export const functionName = (route: Pick<Route, 'operationId' | 'generation'>): string =>
  route.generation ? `${route.generation}-${kebab(route.operationId)}` : kebab(route.operationId);

type Row = readonly [Route['method'], string, string, Route['data'], Partial<Omit<Route, 'method' | 'path' | 'operationId' | 'data'>>?];

/** An area's rows as routes, each handler at `functions/<area>/<operation-id>.ts` unless it names its own. */
const area = (name: string, rows: readonly Row[]): Route[] =>
  rows.map(([method, path, operationId, data, options]) => ({
    operationId,
    method,
    path,
    entry: `functions/${name}/${kebab(operationId)}.ts`,
    data,
    ...options,
  }));

/** A v3 area's rows: handlers at `functions/v3/<area>/<operation-id>.ts`. */
const areaV3 = (name: string, rows: readonly Row[]): Route[] =>
  area(`v3/${name}`, rows).map((route) => ({ ...route, generation: 'v3' as const }));

export const routes: readonly Route[] = [
  ...area('activity', [
    ['GET', '/api/activity', 'getActivities', 'read'],
    ['POST', '/api/activity', 'createActivity', 'write'],
    ['GET', '/api/activity/statistics', 'getActivityStatistics', 'read'],
    ['DELETE', '/api/activity/{id}', 'deleteActivity', 'write'],
  ]),
  ...area('album', [
    ['POST', '/api/album', 'createAlbum', 'write', { body: 'bulk', realtime: true }],
    // Writes: it keeps the summaries it computes (docs/data-model.md, "Album summaries").
    ['GET', '/api/album', 'getAllAlbums', 'write'],
    ['GET', '/api/album/count', 'getAlbumCount', 'read'],
    ['GET', '/api/album/{id}', 'getAlbumInfo', 'read'],
    ['PATCH', '/api/album/{id}', 'updateAlbumInfo', 'write'],
    ['DELETE', '/api/album/{id}', 'deleteAlbum', 'write'],
    ['PUT', '/api/album/{id}/users', 'addUsersToAlbum', 'write', { realtime: true }],
    ['DELETE', '/api/album/{id}/user/{userId}', 'removeUserFromAlbum', 'write'],
    ['PUT', '/api/album/{id}/assets', 'addAssetsToAlbum', 'write', { body: 'bulk', realtime: true }],
    ['DELETE', '/api/album/{id}/assets', 'removeAssetFromAlbum', 'write', { body: 'bulk', realtime: true }],
  ]),
  ...area('api-key', [
    ['POST', '/api/api-key', 'createApiKey', 'write'],
    ['GET', '/api/api-key', 'getApiKeys', 'read'],
    ['GET', '/api/api-key/{id}', 'getApiKey', 'read'],
    ['PUT', '/api/api-key/{id}', 'updateApiKey', 'write'],
    ['DELETE', '/api/api-key/{id}', 'deleteApiKey', 'write'],
  ]),
  ...area('system', [
    ['GET', '/.well-known/immich', 'wellKnown', 'none'],
    ['GET', '/custom.css', 'getCustomCss', 'read', { entry: 'functions/system/custom-css.ts' }],
    ['ANY', '$default', 'notFound', 'none'],
  ]),
  ...area('asset', [
    [
      'POST',
      '/api/asset/upload',
      'uploadFile',
      'write',
      { store: 'put', memory: media, body: 'upload', secrets: true, realtime: true, lazy: ['metadata'] },
    ],
    ['GET', '/api/asset/upload-session/openapi.json', 'getUploadSessionsApi', 'none'],
    ['POST', '/api/asset/upload-session', 'createUploadSession', 'write', { store: 'session' }],
    ['GET', '/api/asset/upload-session/{sessionId}', 'getUploadSession', 'write', { store: 'session' }],
    ['POST', '/api/asset/upload-session/{sessionId}/complete', 'completeUploadSession', 'write', completion],
    ['DELETE', '/api/asset/upload-session/{sessionId}', 'deleteUploadSession', 'write', { store: 'session' }],
    ['POST', '/api/asset/bulk-upload-check', 'checkBulkUpload', 'read', { body: 'bulk' }],
    ['PUT', '/api/asset', 'updateAssets', 'write', { body: 'bulk', lazy: ['places', 'countries'], realtime: true }],
    ['PUT', '/api/asset/stack/parent', 'updateStackParent', 'write', { realtime: true }],
    ['GET', '/api/asset', 'getAllAssets', 'read'],
    ['GET', '/api/asset/time-buckets', 'getTimeBuckets', 'read', { secrets: true }],
    ['GET', '/api/asset/time-bucket', 'getTimeBucket', 'read', { secrets: true }],
    ['GET', '/api/asset/statistics', 'getAssetStatistics', 'read'],
    ['GET', '/api/asset/random', 'getRandom', 'read'],
    ['GET', '/api/asset/memory-lane', 'getMemoryLane', 'read'],
    ['GET', '/api/asset/map-marker', 'getMapMarkers', 'read', { stream: true }],
    ['POST', '/api/asset/exist', 'checkExistingAssets', 'read', { body: 'bulk' }],
    ['GET', '/api/asset/device/{deviceId}', 'getAllUserAssetsByDeviceId', 'read'],
    ['POST', '/api/asset/jobs', 'runAssetJobs', 'write', { mediaJobs: true, transcodeJobs: true, body: 'bulk' }],
    ['GET', '/api/asset/{id}', 'getAssetInfo', 'read', { secrets: true }],
    ['GET', '/api/asset/file/{id}', 'serveFile', 'read', { store: 'read', secrets: true }],
    ['GET', '/api/asset/thumbnail/{id}', 'getAssetThumbnail', 'read', { store: 'read', secrets: true }],
    ['PUT', '/api/asset/{id}', 'updateAsset', 'write', { lazy: ['places', 'countries'], realtime: true }],
    ['DELETE', '/api/asset', 'deleteAssets', 'write', { store: 'delete', body: 'bulk', realtime: true }],
  ]),
  ...area('audit', [['GET', '/api/audit/deletes', 'getAuditDeletes', 'read']]),
  ...area('auth', [
    ['POST', '/api/auth/admin-sign-up', 'signUpAdmin', 'write', { memory: hashing, publicHashing: true, v3: 'signUpAdmin' }],
    ['POST', '/api/auth/login', 'login', 'write', { memory: hashing, publicHashing: true, v3: 'login' }],
    ['POST', '/api/auth/logout', 'logout', 'write', { oauthSecret: true, v3: 'logout', realtime: true }],
    ['POST', '/api/auth/validateToken', 'validateAccessToken', 'read', { v3: 'validateAccessToken' }],
    ['POST', '/api/auth/change-password', 'changePassword', 'write', { memory: hashing, v3: 'changePassword' }],
    ['GET', '/api/auth/devices', 'getAuthDevices', 'read'],
    ['DELETE', '/api/auth/devices', 'logoutAuthDevices', 'write'],
    ['DELETE', '/api/auth/devices/{id}', 'logoutAuthDevice', 'write'],
  ]),
  ...area('download', [
    ['POST', '/api/download/info', 'getDownloadInfo', 'read', { body: 'bulk', secrets: true, v3: 'getDownloadInfo' }],
    ['POST', '/api/download/archive', 'downloadArchive', 'read', { store: 'archive', body: 'bulk', secrets: true, v3: 'downloadArchive' }],
    ['POST', '/api/download/asset/{id}', 'downloadFile', 'read', { store: 'read', secrets: true }],
  ]),
  ...area('face', [
    ['GET', '/api/face', 'getFaces', 'read'],
    ['PUT', '/api/face/{id}', 'reassignFacesById', 'write', { mediaJobs: true }],
  ]),
  ...area('job', [
    ['GET', '/api/jobs', 'getAllJobsStatus', 'read', { v3: 'getQueuesLegacy' }],
    ['PUT', '/api/jobs/{name}', 'sendJobCommand', 'write', { mediaJobs: true, transcodeJobs: true, v3: 'runQueueCommandLegacy' }],
  ]),
  ...area('oauth', [
    ['GET', '/api/oauth/mobile-redirect', 'redirectOAuthToMobile', 'none', { v3: 'redirectOAuthToMobile' }],
    ['POST', '/api/oauth/authorize', 'startOAuth', 'read', { oauthSecret: true, v3: 'startOAuth' }],
    ['POST', '/api/oauth/callback', 'finishOAuth', 'write', { oauthSecret: true, v3: 'finishOAuth' }],
    ['POST', '/api/oauth/link', 'linkOAuthAccount', 'write', { oauthSecret: true, v3: 'linkOAuthAccount' }],
    ['POST', '/api/oauth/unlink', 'unlinkOAuthAccount', 'write', { v3: 'unlinkOAuthAccount' }],
  ]),
  ...area('partner', [
    ['GET', '/api/partner', 'getPartners', 'read'],
    ['POST', '/api/partner/{id}', 'createPartner', 'write'],
    ['PUT', '/api/partner/{id}', 'updatePartner', 'write'],
    ['DELETE', '/api/partner/{id}', 'removePartner', 'write'],
  ]),
  ...area('person', [
    ['GET', '/api/person', 'getAllPeople', 'read'],
    ['GET', '/api/person/{id}', 'getPerson', 'read'],
    ['GET', '/api/person/{id}/statistics', 'getPersonStatistics', 'read'],
    ['GET', '/api/person/{id}/thumbnail', 'getPersonThumbnail', 'read', { store: 'read' }],
    ['POST', '/api/person', 'createPerson', 'write'],
    ['PUT', '/api/person', 'updatePeople', 'write', { mediaJobs: true, body: 'bulk' }],
    ['PUT', '/api/person/{id}/reassign', 'reassignFaces', 'write', { mediaJobs: true, body: 'bulk' }],
    ['POST', '/api/person/{id}/merge', 'mergePerson', 'write', { store: 'delete', body: 'bulk' }],
    ['PUT', '/api/person/{id}', 'updatePerson', 'write', { mediaJobs: true }],
    ['GET', '/api/person/{id}/assets', 'getPersonAssets', 'read'],
  ]),
  ...area('search', [
    ['GET', '/api/assets', 'searchAssets', 'read'],
    ['GET', '/api/search', 'search', 'read', { store: 'read', memory: 1024, lazy: ['ml'] }],
    ['POST', '/api/search/metadata', 'searchMetadata', 'read', { v3: 'searchAssets' }],
    // Reads the owners' embedding snapshots from the store (docs/search.md); asks the CLIP model for the query's embedding.
    ['POST', '/api/search/smart', 'searchSmart', 'read', { v3: 'searchSmart', store: 'read', memory: 1024, lazy: ['ml'] }],
    ['GET', '/api/search/explore', 'getExploreData', 'read', { v3: 'getExploreData' }],
    // A write: a library stored before the lens facets gets them once (docs/data-model.md, pattern 55).
    ['GET', '/api/search/suggestions', 'getSearchSuggestions', 'write', { v3: 'getSearchSuggestions' }],
    ['GET', '/api/search/person', 'searchPerson', 'read', { v3: 'searchPerson' }],
    ['GET', '/api/search/places', 'searchPlaces', 'read', { v3: 'searchPlaces', lazy: ['places'] }],
    ['GET', '/api/search/cities', 'getAssetsByCity', 'read', { v3: 'getAssetsByCity' }],
  ]),
  ...area('server-info', [
    ['GET', '/api/server-info/ping', 'pingServer', 'none'],
    ['GET', '/api/server-info/version', 'getServerVersion', 'none'],
    ['GET', '/api/server-info/media-types', 'getSupportedMediaTypes', 'none'],
    ['GET', '/api/server-info', 'getServerInfo', 'read'],
    ['GET', '/api/server-info/config', 'getServerConfig', 'read'],
    // Smart search's availability: whether a CLIP model is in the bucket (shared/ml/features.ts).
    ['GET', '/api/server-info/features', 'getServerFeatures', 'read', { oauthSecret: true, checksModels: true }],
    ['GET', '/api/server-info/theme', 'getTheme', 'read'],
    // Counts a user stored before usage by type once (shared/db/asset.repository.ts): a write.
    ['GET', '/api/server-info/statistics', 'getServerStatistics', 'write'],
    ['POST', '/api/server-info/admin-onboarding', 'setAdminOnboarding', 'write'],
  ]),
  ...area('shared-link', [
    ['POST', '/api/shared-link', 'createSharedLink', 'write', { memory: hashing, secrets: true, body: 'bulk' }],
    ['GET', '/api/shared-link', 'getAllSharedLinks', 'read', { secrets: true }],
    ['GET', '/api/shared-link/me', 'getMySharedLink', 'read', { secrets: true, memory: hashing, publicHashing: true }],
    ['GET', '/api/shared-link/{id}', 'getSharedLinkById', 'read', { secrets: true }],
    ['PATCH', '/api/shared-link/{id}', 'updateSharedLink', 'write', { memory: hashing, secrets: true }],
    ['DELETE', '/api/shared-link/{id}', 'removeSharedLink', 'write'],
    ['PUT', '/api/shared-link/{id}/assets', 'addSharedLinkAssets', 'write', { body: 'bulk' }],
    ['DELETE', '/api/shared-link/{id}/assets', 'removeSharedLinkAssets', 'write', { body: 'bulk' }],
  ]),
  ...area('system-config', [
    ['GET', '/api/system-config', 'getConfig', 'read', { oauthSecret: true, v3: 'getConfig' }],
    ['GET', '/api/system-config/defaults', 'getConfigDefaults', 'read', { v3: 'getConfigDefaults' }],
    [
      'PUT',
      '/api/system-config',
      'updateConfig',
      'write',
      { oauthSecret: true, lazy: ['templates', 'cron'], v3: 'updateConfig', realtime: true },
    ],
    ['GET', '/api/system-config/storage-template-options', 'getStorageTemplateOptions', 'read', { v3: 'getStorageTemplateOptions' }],
    ['GET', '/api/system-config/map/style.json', 'getMapStyle', 'read'],
  ]),
  ...area('tag', [
    ['POST', '/api/tag', 'createTag', 'write'],
    ['GET', '/api/tag', 'getAllTags', 'read'],
    ['GET', '/api/tag/{id}', 'getTagById', 'read'],
    ['PATCH', '/api/tag/{id}', 'updateTag', 'write'],
    ['DELETE', '/api/tag/{id}', 'deleteTag', 'write'],
    ['GET', '/api/tag/{id}/assets', 'getTagAssets', 'read'],
    ['PUT', '/api/tag/{id}/assets', 'tagAssets', 'write', { body: 'bulk' }],
    ['DELETE', '/api/tag/{id}/assets', 'untagAssets', 'write', { body: 'bulk' }],
  ]),
  ...area('trash', [
    ['POST', '/api/trash/empty', 'emptyTrash', 'write', { store: 'delete', v3: 'emptyTrash', realtime: true }],
    ['POST', '/api/trash/restore', 'restoreTrash', 'write', { v3: 'restoreTrash' }],
    ['POST', '/api/trash/restore/assets', 'restoreAssets', 'write', { body: 'bulk', v3: 'restoreAssets', realtime: true }],
  ]),
  ...area('user', [
    ['GET', '/api/user/me', 'getMyUserInfo', 'read'],
    ['GET', '/api/user', 'getAllUsers', 'read'],
    ['GET', '/api/user/info/{id}', 'getUserById', 'read'],
    ['PUT', '/api/user', 'updateUser', 'write', { memory: hashing }],
    ['DELETE', '/api/user/{id}', 'deleteUser', 'write', { store: 'session' }],
    ['POST', '/api/user/{id}/restore', 'restoreUser', 'write'],
    ['POST', '/api/user/profile-image', 'createProfileImage', 'write', { store: 'put', body: 'upload' }],
    ['DELETE', '/api/user/profile-image', 'deleteProfileImage', 'write', { store: 'delete' }],
    ['GET', '/api/user/profile-image/{id}', 'getProfileImage', 'read', { store: 'read' }],
    ['POST', '/api/user', 'createUser', 'write', { memory: hashing }],
  ]),
  // Immich v3.2's operations (docs/immich-compatibility.md, "Two generations"), by controller.
  ...areaV3('api-key', [
    ['POST', '/api/api-keys', 'createApiKey', 'write'],
    ['GET', '/api/api-keys', 'getApiKeys', 'read'],
    ['GET', '/api/api-keys/me', 'getMyApiKey', 'read'],
    ['GET', '/api/api-keys/{id}', 'getApiKey', 'read'],
    ['PUT', '/api/api-keys/{id}', 'updateApiKey', 'write'],
    ['DELETE', '/api/api-keys/{id}', 'deleteApiKey', 'write'],
  ]),
  ...areaV3('activity', [
    ['GET', '/api/activities', 'getActivities', 'read'],
    ['POST', '/api/activities', 'createActivity', 'write'],
    ['GET', '/api/activities/statistics', 'getActivityStatistics', 'read'],
    ['DELETE', '/api/activities/{id}', 'deleteActivity', 'write'],
  ]),
  ...areaV3('album', [
    // Writes: it keeps the summaries it computes (docs/data-model.md, "Album summaries").
    ['GET', '/api/albums', 'getAllAlbums', 'write'],
    ['POST', '/api/albums', 'createAlbum', 'write', { body: 'bulk', realtime: true }],
    ['GET', '/api/albums/statistics', 'getAlbumStatistics', 'read'],
    ['PUT', '/api/albums/assets', 'addAssetsToAlbums', 'write', { body: 'bulk', realtime: true }],
    ['GET', '/api/albums/{id}', 'getAlbumInfo', 'read'],
    ['GET', '/api/albums/{id}/map-markers', 'getAlbumMapMarkers', 'read', { secrets: true }],
    ['PATCH', '/api/albums/{id}', 'updateAlbumInfo', 'write'],
    ['DELETE', '/api/albums/{id}', 'deleteAlbum', 'write'],
    ['PUT', '/api/albums/{id}/assets', 'addAssetsToAlbum', 'write', { body: 'bulk', realtime: true }],
    ['DELETE', '/api/albums/{id}/assets', 'removeAssetFromAlbum', 'write', { body: 'bulk', realtime: true }],
    ['PUT', '/api/albums/{id}/users', 'addUsersToAlbum', 'write', { realtime: true }],
    ['PUT', '/api/albums/{id}/user/{userId}', 'updateAlbumUser', 'write'],
    ['DELETE', '/api/albums/{id}/user/{userId}', 'removeUserFromAlbum', 'write'],
  ]),
  ...areaV3('asset', [
    [
      'POST',
      '/api/assets',
      'uploadAsset',
      'write',
      { store: 'put', memory: media, body: 'upload', secrets: true, realtime: true, lazy: ['metadata'] },
    ],
    ['POST', '/api/assets/bulk-upload-check', 'checkBulkUpload', 'read', { body: 'bulk' }],
    ['GET', '/api/assets/statistics', 'getAssetStatistics', 'read'],
    ['POST', '/api/assets/jobs', 'runAssetJobs', 'write', { mediaJobs: true, transcodeJobs: true, body: 'bulk' }],
    // The iOS app's cloud ids, up to 20,000 items a request: MBs to parse, check and compress (docs/api.md, "Asset metadata").
    ['PUT', '/api/assets/metadata', 'updateBulkAssetMetadata', 'write', { body: 'bulk', memory: 1024 }],
    ['DELETE', '/api/assets/metadata', 'deleteBulkAssetMetadata', 'write', { body: 'bulk' }],
    ['GET', '/api/assets/{id}/metadata', 'getAssetMetadata', 'read'],
    ['PUT', '/api/assets/{id}/metadata', 'updateAssetMetadata', 'write'],
    ['GET', '/api/assets/{id}/metadata/{key}', 'getAssetMetadataByKey', 'read'],
    ['DELETE', '/api/assets/{id}/metadata/{key}', 'deleteAssetMetadata', 'write'],
    ['GET', '/api/assets/{id}/ocr', 'getAssetOcr', 'read'],
    ['GET', '/api/assets/{id}', 'getAssetInfo', 'read', { secrets: true }],
    ['PUT', '/api/assets/{id}', 'updateAsset', 'write', { lazy: ['places', 'countries'], realtime: true }],
    ['GET', '/api/assets/{id}/edits', 'getAssetEdits', 'read'],
    ['PUT', '/api/assets/{id}/edits', 'editAsset', 'write', { mediaJobs: true }],
    ['DELETE', '/api/assets/{id}/edits', 'removeAssetEdits', 'write', { mediaJobs: true }],
    ['PUT', '/api/assets', 'updateAssets', 'write', { body: 'bulk', lazy: ['places', 'countries'], realtime: true }],
    ['DELETE', '/api/assets', 'deleteAssets', 'write', { store: 'delete', body: 'bulk', realtime: true }],
    ['GET', '/api/assets/{id}/original', 'downloadAsset', 'read', { store: 'read', secrets: true, head: true }],
    ['GET', '/api/assets/{id}/thumbnail', 'viewAsset', 'read', { store: 'read', secrets: true, head: true }],
    ['GET', '/api/assets/{id}/video/playback', 'playAssetVideo', 'read', { store: 'read', secrets: true, head: true }],
  ]),
  ...areaV3('auth', [
    ['POST', '/api/auth/pin-code', 'setupPinCode', 'write', { memory: hashing }],
    ['PUT', '/api/auth/pin-code', 'changePinCode', 'write', { memory: hashing, publicHashing: true }],
    ['DELETE', '/api/auth/pin-code', 'resetPinCode', 'write', { memory: hashing, publicHashing: true }],
    ['POST', '/api/auth/session/unlock', 'unlockAuthSession', 'write', { memory: hashing, publicHashing: true }],
    ['POST', '/api/auth/session/lock', 'lockAuthSession', 'write'],
    ['GET', '/api/auth/status', 'getAuthStatus', 'read'],
  ]),
  ...areaV3('auth-admin', [['POST', '/api/admin/auth/unlink-all', 'unlinkAllOAuthAccountsAdmin', 'write']]),
  ...areaV3('config', [
    ['GET', '/api/admin/config', 'getAdminConfig', 'read', { oauthSecret: true }],
    ['PUT', '/api/admin/config', 'updateAdminConfig', 'write', { oauthSecret: true, lazy: ['templates', 'cron'], realtime: true }],
    ['GET', '/api/admin/config/defaults', 'getAdminConfigDefaults', 'read'],
    ['GET', '/api/config', 'getUserConfig', 'read', { oauthSecret: true }],
    ['GET', '/api/config/defaults', 'getUserConfigDefaults', 'read'],
    ['GET', '/api/public/config', 'getPublicConfig', 'read', { oauthSecret: true }],
    ['GET', '/api/public/config/defaults', 'getPublicConfigDefaults', 'none'],
  ]),
  ...areaV3('database-backup', [
    ['GET', '/api/admin/database-backups', 'listDatabaseBackups', 'read'],
    ['DELETE', '/api/admin/database-backups', 'deleteDatabaseBackup', 'read'],
    ['POST', '/api/admin/database-backups/start-restore', 'startDatabaseRestoreFlow', 'read'],
  ]),
  ...areaV3('duplicate', [
    // A group left with one asset is dissolved as it is listed (Immich's clean-up): a write.
    ['GET', '/api/duplicates', 'getAssetDuplicates', 'write'],
    ['DELETE', '/api/duplicates', 'deleteDuplicates', 'write', { body: 'bulk' }],
    ['DELETE', '/api/duplicates/{id}', 'deleteDuplicate', 'write'],
    [
      'POST',
      '/api/duplicates/resolve',
      'resolveDuplicates',
      'write',
      { store: 'delete', body: 'bulk', realtime: true, lazy: ['places', 'countries'] },
    ],
  ]),
  ...areaV3('face', [
    ['POST', '/api/faces', 'createFace', 'write', { mediaJobs: true }],
    ['GET', '/api/faces', 'getFaces', 'read'],
    ['PUT', '/api/faces/{id}', 'reassignFacesById', 'write', { mediaJobs: true }],
    ['DELETE', '/api/faces/{id}', 'deleteFace', 'write', { mediaJobs: true }],
  ]),
  ...areaV3('integrity', [
    ['GET', '/api/admin/integrity/summary', 'getIntegrityReportSummary', 'read'],
    ['GET', '/api/admin/integrity/report', 'getIntegrityReport', 'read'],
    ['DELETE', '/api/admin/integrity/report/{id}', 'deleteIntegrityReport', 'read'],
  ]),
  ...areaV3('job', [['POST', '/api/jobs', 'createJob', 'write']]),
  // Nothing here writes: there are no libraries, no maintenance mode (absent-features.service.ts).
  ...areaV3('library', [
    ['GET', '/api/libraries', 'getAllLibraries', 'read'],
    ['POST', '/api/libraries', 'createLibrary', 'read'],
    ['GET', '/api/libraries/{id}', 'getLibrary', 'read'],
    ['PUT', '/api/libraries/{id}', 'updateLibrary', 'read'],
    ['DELETE', '/api/libraries/{id}', 'deleteLibrary', 'read'],
    ['POST', '/api/libraries/{id}/validate', 'validate', 'read'],
    ['GET', '/api/libraries/{id}/statistics', 'getLibraryStatistics', 'read'],
    ['POST', '/api/libraries/{id}/scan', 'scanLibrary', 'read'],
  ]),
  ...areaV3('maintenance', [
    ['GET', '/api/admin/maintenance/status', 'getMaintenanceStatus', 'none'],
    ['GET', '/api/admin/maintenance/detect-install', 'detectPriorInstall', 'read'],
    ['POST', '/api/admin/maintenance/login', 'maintenanceLogin', 'none'],
    ['POST', '/api/admin/maintenance', 'setMaintenanceMode', 'read'],
  ]),
  ...areaV3('map', [
    ['GET', '/api/map/markers', 'getMapMarkers', 'read', { stream: true }],
    ['GET', '/api/map/reverse-geocode', 'reverseGeocode', 'read', { lazy: ['places', 'countries'] }],
  ]),
  ...areaV3('memory', [
    ['GET', '/api/memories', 'searchMemories', 'read'],
    ['POST', '/api/memories', 'createMemory', 'write', { body: 'bulk' }],
    ['GET', '/api/memories/statistics', 'memoriesStatistics', 'read'],
    ['GET', '/api/memories/{id}', 'getMemory', 'read'],
    ['PUT', '/api/memories/{id}', 'updateMemory', 'write'],
    ['DELETE', '/api/memories/{id}', 'deleteMemory', 'write'],
    ['PUT', '/api/memories/{id}/assets', 'addMemoryAssets', 'write', { body: 'bulk' }],
    ['DELETE', '/api/memories/{id}/assets', 'removeMemoryAssets', 'write', { body: 'bulk' }],
  ]),
  ...areaV3('notification-admin', [['POST', '/api/admin/notifications', 'createNotification', 'write']]),
  ...areaV3('notification', [
    ['GET', '/api/notifications', 'getNotifications', 'read'],
    ['PUT', '/api/notifications', 'updateNotifications', 'write'],
    ['DELETE', '/api/notifications', 'deleteNotifications', 'write'],
    ['GET', '/api/notifications/{id}', 'getNotification', 'read'],
    ['PUT', '/api/notifications/{id}', 'updateNotification', 'write'],
    ['DELETE', '/api/notifications/{id}', 'deleteNotification', 'write'],
  ]),
  ...areaV3('partner', [
    ['GET', '/api/partners', 'getPartners', 'read'],
    ['POST', '/api/partners', 'createPartner', 'write'],
    ['POST', '/api/partners/{id}', 'createPartnerDeprecated', 'write'],
    ['PUT', '/api/partners/{id}', 'updatePartner', 'write'],
    ['DELETE', '/api/partners/{id}', 'removePartner', 'write'],
  ]),
  ...areaV3('person', [
    ['GET', '/api/people', 'getAllPeople', 'read'],
    ['POST', '/api/people', 'createPerson', 'write'],
    ['PUT', '/api/people', 'updatePeople', 'write', { mediaJobs: true, body: 'bulk' }],
    ['GET', '/api/people/{id}', 'getPerson', 'read'],
    ['PUT', '/api/people/{id}', 'updatePerson', 'write', { mediaJobs: true }],
    ['GET', '/api/people/{id}/statistics', 'getPersonStatistics', 'read'],
    ['GET', '/api/people/{id}/thumbnail', 'getPersonThumbnail', 'read', { store: 'read' }],
    ['PUT', '/api/people/{id}/reassign', 'reassignFaces', 'write', { mediaJobs: true, body: 'bulk' }],
    ['POST', '/api/people/{id}/merge', 'mergePersonLegacy', 'write', { store: 'delete', body: 'bulk' }],
  ]),
  ...areaV3('plugin', [
    ['GET', '/api/plugins/methods', 'searchPluginMethods', 'read'],
    ['GET', '/api/plugins/templates', 'searchPluginTemplates', 'read'],
  ]),
  ...areaV3('queue', [
    ['GET', '/api/queues', 'getQueues', 'read'],
    ['GET', '/api/queues/{name}', 'getQueue', 'read'],
    ['PUT', '/api/queues/{name}', 'updateQueue', 'write'],
    ['GET', '/api/queues/{name}/jobs', 'getQueueJobs', 'read'],
    ['DELETE', '/api/queues/{name}/jobs', 'emptyQueue', 'write'],
  ]),
  ...areaV3('search', [
    ['POST', '/api/search/random', 'searchRandom', 'read'],
    ['POST', '/api/search/large-assets', 'searchLargeAssets', 'read'],
  ]),
  ...areaV3('server', [
    ['GET', '/api/server/ping', 'pingServer', 'none'],
    ['GET', '/api/server/version', 'getServerVersion', 'none'],
    ['GET', '/api/server/features', 'getServerFeatures', 'read', { oauthSecret: true, checksModels: true }],
    ['GET', '/api/server/config', 'getServerConfig', 'read'],
    ['GET', '/api/server/media-types', 'getSupportedMediaTypes', 'none'],
    ['GET', '/api/server/about', 'getAboutInfo', 'read'],
    ['GET', '/api/server/storage', 'getStorage', 'read'],
    ['GET', '/api/server/version-history', 'getVersionHistory', 'read'],
    // Counts a user stored before usage by type once (shared/db/asset.repository.ts): a write.
    ['GET', '/api/server/statistics', 'getServerStatistics', 'write'],
    ['GET', '/api/server/license', 'getServerLicense', 'read'],
    ['PUT', '/api/server/license', 'setServerLicense', 'write', { licenseKeys: true }],
    ['DELETE', '/api/server/license', 'deleteServerLicense', 'write'],
    ['GET', '/api/server/apk-links', 'getApkLinks', 'read'],
  ]),
  ...areaV3('session', [
    ['POST', '/api/sessions', 'createSession', 'write'],
    ['GET', '/api/sessions', 'getSessions', 'read'],
    ['DELETE', '/api/sessions', 'deleteAllSessions', 'write'],
    ['PUT', '/api/sessions/{id}', 'updateSession', 'write'],
    ['DELETE', '/api/sessions/{id}', 'deleteSession', 'write'],
    ['POST', '/api/sessions/{id}/lock', 'lockSession', 'write'],
  ]),
  ...areaV3('shared-link', [
    ['GET', '/api/shared-links', 'getAllSharedLinks', 'read', { secrets: true }],
    ['POST', '/api/shared-links', 'createSharedLink', 'write', { memory: hashing, secrets: true, body: 'bulk' }],
    ['POST', '/api/shared-links/login', 'sharedLinkLogin', 'read', { secrets: true, memory: hashing, publicHashing: true }],
    ['GET', '/api/shared-links/me', 'getMySharedLink', 'read', { secrets: true, memory: hashing, publicHashing: true }],
    ['GET', '/api/shared-links/{id}', 'getSharedLinkById', 'read', { secrets: true }],
    ['PATCH', '/api/shared-links/{id}', 'updateSharedLink', 'write', { memory: hashing, secrets: true }],
    ['DELETE', '/api/shared-links/{id}', 'removeSharedLink', 'write'],
    ['PUT', '/api/shared-links/{id}/assets', 'addSharedLinkAssets', 'write', { body: 'bulk' }],
    ['DELETE', '/api/shared-links/{id}/assets', 'removeSharedLinkAssets', 'write', { body: 'bulk' }],
  ]),
  ...areaV3('stack', [
    ['GET', '/api/stacks', 'searchStacks', 'read'],
    ['POST', '/api/stacks', 'createStack', 'write', { body: 'bulk', realtime: true }],
    ['DELETE', '/api/stacks', 'deleteStacks', 'write', { body: 'bulk', realtime: true }],
    ['GET', '/api/stacks/{id}', 'getStack', 'read'],
    ['PUT', '/api/stacks/{id}', 'updateStack', 'write', { realtime: true }],
    ['DELETE', '/api/stacks/{id}', 'deleteStack', 'write', { realtime: true }],
    ['DELETE', '/api/stacks/{id}/assets/{assetId}', 'removeAssetFromStack', 'write', { realtime: true }],
  ]),
  ...areaV3('sync', [
    // Backfill checkpoints are stored while the stream runs: a write.
    ['POST', '/api/sync/stream', 'getSyncStream', 'write', { stream: true }],
    ['GET', '/api/sync/ack', 'getSyncAck', 'read'],
    ['POST', '/api/sync/ack', 'sendSyncAck', 'write'],
    ['DELETE', '/api/sync/ack', 'deleteSyncAck', 'write'],
  ]),
  ...areaV3('system-metadata', [
    ['GET', '/api/system-metadata/admin-onboarding', 'getAdminOnboarding', 'read'],
    ['POST', '/api/system-metadata/admin-onboarding', 'updateAdminOnboarding', 'write'],
    ['GET', '/api/system-metadata/reverse-geocoding-state', 'getReverseGeocodingState', 'read', { lazy: ['places'] }],
    ['GET', '/api/system-metadata/version-check-state', 'getVersionCheckState', 'read'],
  ]),
  ...areaV3('tag', [
    ['POST', '/api/tags', 'createTag', 'write'],
    ['GET', '/api/tags', 'getAllTags', 'read'],
    ['PUT', '/api/tags', 'upsertTags', 'write', { body: 'bulk' }],
    ['PUT', '/api/tags/assets', 'bulkTagAssets', 'write', { body: 'bulk' }],
    ['GET', '/api/tags/{id}', 'getTagById', 'read'],
    ['PUT', '/api/tags/{id}', 'updateTag', 'write'],
    ['DELETE', '/api/tags/{id}', 'deleteTag', 'write'],
    ['PUT', '/api/tags/{id}/assets', 'tagAssets', 'write', { body: 'bulk' }],
    ['DELETE', '/api/tags/{id}/assets', 'untagAssets', 'write', { body: 'bulk' }],
  ]),
  ...areaV3('timeline', [
    ['GET', '/api/timeline/buckets', 'getTimeBuckets', 'read', { secrets: true }],
    ['GET', '/api/timeline/bucket', 'getTimeBucket', 'read', { secrets: true }],
  ]),
  ...areaV3('user-admin', [
    ['GET', '/api/admin/users', 'searchUsersAdmin', 'read'],
    ['POST', '/api/admin/users', 'createUserAdmin', 'write', { memory: hashing }],
    ['GET', '/api/admin/users/{id}', 'getUserAdmin', 'read'],
    ['PUT', '/api/admin/users/{id}', 'updateUserAdmin', 'write', { memory: hashing }],
    ['DELETE', '/api/admin/users/{id}', 'deleteUserAdmin', 'write', { store: 'session' }],
    ['POST', '/api/admin/users/{id}/restore', 'restoreUserAdmin', 'write'],
    ['GET', '/api/admin/users/{id}/preferences', 'getUserPreferencesAdmin', 'read'],
    ['PUT', '/api/admin/users/{id}/preferences', 'updateUserPreferencesAdmin', 'write'],
    ['GET', '/api/admin/users/{id}/sessions', 'getUserSessionsAdmin', 'read'],
    ['GET', '/api/admin/users/{id}/statistics', 'getUserStatisticsAdmin', 'read'],
    ['GET', '/api/admin/users/{id}/calendar-heatmap', 'getUserCalendarHeatmapAdmin', 'read'],
  ]),
  ...areaV3('user', [
    ['GET', '/api/users', 'searchUsers', 'read'],
    ['GET', '/api/users/{id}', 'getUser', 'read'],
    ['POST', '/api/users/profile-image', 'createProfileImage', 'write', { store: 'put', body: 'upload' }],
    ['DELETE', '/api/users/profile-image', 'deleteProfileImage', 'write', { store: 'delete' }],
    ['GET', '/api/users/{id}/profile-image', 'getProfileImage', 'read', { store: 'read' }],
    ['GET', '/api/users/me', 'getMyUser', 'read'],
    ['GET', '/api/users/me/calendar-heatmap', 'getMyCalendarHeatmap', 'read'],
    ['PUT', '/api/users/me', 'updateMyUser', 'write', { memory: hashing }],
    ['GET', '/api/users/me/preferences', 'getMyPreferences', 'read'],
    ['PUT', '/api/users/me/preferences', 'updateMyPreferences', 'write'],
    ['GET', '/api/users/me/onboarding', 'getUserOnboarding', 'read'],
    ['PUT', '/api/users/me/onboarding', 'setUserOnboarding', 'write'],
    ['DELETE', '/api/users/me/onboarding', 'deleteUserOnboarding', 'write'],
    ['GET', '/api/users/me/license', 'getUserLicense', 'read'],
    ['PUT', '/api/users/me/license', 'setUserLicense', 'write', { licenseKeys: true }],
    ['DELETE', '/api/users/me/license', 'deleteUserLicense', 'write'],
  ]),
  ...areaV3('view', [
    ['GET', '/api/view/folder/unique-paths', 'getUniqueOriginalPaths', 'read'],
    ['GET', '/api/view/folder', 'getAssetsByOriginalPath', 'read'],
  ]),
  ...areaV3('workflow', [
    ['POST', '/api/workflows', 'createWorkflow', 'write'],
    ['GET', '/api/workflows', 'searchWorkflows', 'read'],
    ['GET', '/api/workflows/triggers', 'getWorkflowTriggers', 'read'],
    ['GET', '/api/workflows/{id}', 'getWorkflow', 'read'],
    ['GET', '/api/workflows/{id}/share', 'getWorkflowForShare', 'read'],
    ['PUT', '/api/workflows/{id}', 'updateWorkflow', 'write'],
    ['DELETE', '/api/workflows/{id}', 'deleteWorkflow', 'write'],
    ['GET', '/api/workflows/{id}/logs', 'getWorkflowLogs', 'read'],
  ]),
];

/**
 * Routes only the local server serves: what S3 does deployed. `npm start` keeps originals in a
 * folder, so an upload session's part URLs point here (signed by the server, as S3 signs its
 * presigned UploadPart URLs) instead of at the bucket. The part size is the session's, within
 * the local upload limit (`MAX_UPLOAD_MB`).
 */
export const localRoutes: readonly Route[] = area('asset', [
  ['PUT', '/api/asset/upload-session/{sessionId}/part/{partNumber}', 'putUploadPart', 'read', { secrets: true, body: 'upload' }],
]);

/**
 * Routes served only beside a build of Immich's web app (docs/web-app.md): the stack and the local
 * server add them when there is one. `/share/<key>` and `/s/<slug>` (a link's custom URL, Immich
 * v3's) are the app with the link's Open Graph tags.
 */
export const webRoutes: readonly Route[] = area('shared-link', [
  ['GET', '/share/{key+}', 'renderSharePage', 'read'],
  ['GET', '/s/{slug+}', 'renderSlugPage', 'read'],
]);

/**
 * Functions that are not API routes: invoked by an event. `generateMedia` makes an upload's
 * previews on its original's object-created event (infra/cdk/media-function.ts deploys it; locally
 * the server invokes it right after an upload); `runNightlyTasks` runs Immich's nightly tasks on an
 * hourly schedule (infra/cdk/nightly-function.ts; locally the server ticks it).
 */
export const eventFunctions = [
  { name: 'generateMedia', entry: 'functions/media/generate-media.ts' },
  // Videos encoded by the ffmpeg settings (docs/media.md, "Transcoding"): its jobs, and MediaConvert's completions.
  { name: 'transcodeVideo', entry: 'functions/media/transcode-video.ts' },
  { name: 'runNightlyTasks', entry: 'functions/nightly/run-nightly-tasks.ts' },
  // Immich's realtime socket, an API Gateway WebSocket API (infra/cdk/realtime.ts): its two routes, the greeter and the heartbeat.
  { name: 'connectRealtime', entry: 'functions/realtime/connect.ts' },
  { name: 'disconnectRealtime', entry: 'functions/realtime/disconnect.ts' },
  { name: 'greetRealtime', entry: 'functions/realtime/greet.ts' },
  { name: 'pingRealtime', entry: 'functions/realtime/ping.ts' },
] as const;

/**
 * The routes that store a new asset's original (v1.100's upload, v3's POST /assets): deployed, the
 * original's object-created event starts its media job; locally the server starts it after them.
 */
export const isAssetUpload = (route: Pick<Route, 'operationId' | 'generation'>): boolean =>
  ['upload-file', 'v3-upload-asset'].includes(functionName(route));

export const defaultMemoryMb = 512;

/**
 * A route's function's timeout, in seconds: API Gateway waits 30 s for an answer (29 s), a streamed
 * one (a first sync of a large library) may take minutes (300 s; it ends itself a margin before:
 * docs/deployment.md, "The sync stream"). The stack sets it, and `npm start` gives it to the context.
 */
export const functionTimeoutSeconds = (route: Pick<Route, 'stream'>): number => (route.stream ? 300 : 29);

/**
 * The least memory of a function that runs models (`lazy: ['ml']`): a CLIP text model is about
 * 250 MB of weights, held once in onnxruntime's arena, plus the session's working memory; at
 * 3,008 MB Lambda also gives close to two vCPUs (docs/benchmarks.md, "Smart search, OCR and duplicates").
 */
export const mlMemoryMb = 3008;

/** Whether a route's function runs models (its row's `lazy` names `ml`). */
export const runsModels = (route: Pick<Route, 'lazy'>): boolean => route.lazy?.includes('ml') === true;

/** Whether a route's function reads the models' bucket: it runs models, or only checks that one is there (`checksModels`). */
export const readsModels = (route: Pick<Route, 'lazy' | 'checksModels'>): boolean => runsModels(route) || route.checksModels === true;

/**
 * Largest upload body when deployed. Lambda accepts a 6 MB (6,291,456-byte) request payload, and
 * API Gateway passes a binary body base64-encoded (4/3 of its size) inside a JSON event with the
 * headers: 4.4 MB of body (5.87 MB encoded) leaves room for the headers, so a body just over this
 * limit still reaches the function and gets its 413 naming the limit. A body over about 4.49 MB
 * no longer fits in an invocation at all: API Gateway answers it with its own
 * 413 `{"message":"Request Entity Too Large"}` (served locally the same way, test/deployed/).
 */
export const deployedUploadLimitMb = 4.4;

const mebibyte = 1024 * 1024;

/**
 * A route's largest request body, in bytes. `bulk`: Lambda takes a 6 MB (6,291,456-byte)
 * request, envelope and headers included; 5.5 MB of JSON is 100,000 asset ids with room to spare.
 * `upload`: the upload limit (`MAX_UPLOAD_MB` locally, 4.4 MB deployed).
 */
export const bodyLimitBytes = (route: Pick<Route, 'body'>, uploadLimitMb: number): number =>
  route.body === 'upload' ? Math.floor(uploadLimitMb * mebibyte) : route.body === 'bulk' ? Math.floor(5.5 * mebibyte) : mebibyte;
