/**
 * The one route table. The CDK stack makes one Lambda function and one HTTP API route from each
 * row; the local server serves the same handler modules from the same rows. Adding an operation
 * is one handler file under functions/ plus one row here (and its tests).
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';

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
   * Hands work to the media function (a person's thumbnail after a new feature face,
   * shared/storage/media-jobs.ts): deployed, it may invoke that one function asynchronously.
   */
  mediaJobs?: true;
  /** Lambda memory in MB; password hashing (argon2id, 19 MiB) and CPU want more. */
  memory?: number;
  /**
   * How large a request body may be (`bodyLimitBytes`): `json` (the default) 1 MB; `bulk` what a
   * client sends for a 100,000-asset library (lists of ids, the CLI's checksums), up to what
   * Lambda accepts; `upload` the file limit. Larger is a 413 before parsing or authentication.
   */
  body?: 'json' | 'bulk' | 'upload';
  /**
   * Open to anyone and costly per call (argon2id): the stack can cap its concurrency
   * (`-c hashingConcurrency=N`), so a flood of sign-in attempts cannot run up the bill.
   */
  publicHashing?: true;
}

// argon2id wants 19 MiB per hash, and Lambda gives CPU in proportion to memory.
const hashing = 1024;
// An upload holds the file (up to the request limit) a few times over and reads its metadata.
const media = 1024;

export const routes: readonly Route[] = [
  { operationId: 'pingServer', method: 'GET', path: '/api/server-info/ping', entry: 'functions/server-info/ping-server.ts', data: 'none' },
  {
    operationId: 'getServerVersion',
    method: 'GET',
    path: '/api/server-info/version',
    entry: 'functions/server-info/get-server-version.ts',
    data: 'none',
  },
  {
    operationId: 'getSupportedMediaTypes',
    method: 'GET',
    path: '/api/server-info/media-types',
    entry: 'functions/server-info/get-supported-media-types.ts',
    data: 'none',
  },
  {
    operationId: 'getServerInfo',
    method: 'GET',
    path: '/api/server-info',
    entry: 'functions/server-info/get-server-info.ts',
    data: 'read',
  },
  {
    operationId: 'getServerConfig',
    method: 'GET',
    path: '/api/server-info/config',
    entry: 'functions/server-info/get-server-config.ts',
    data: 'read',
  },
  {
    operationId: 'getServerFeatures',
    method: 'GET',
    path: '/api/server-info/features',
    entry: 'functions/server-info/get-server-features.ts',
    data: 'read',
  },
  { operationId: 'getTheme', method: 'GET', path: '/api/server-info/theme', entry: 'functions/server-info/get-theme.ts', data: 'read' },
  {
    operationId: 'getServerStatistics',
    method: 'GET',
    path: '/api/server-info/statistics',
    entry: 'functions/server-info/get-server-statistics.ts',
    data: 'read',
  },
  {
    operationId: 'setAdminOnboarding',
    method: 'POST',
    path: '/api/server-info/admin-onboarding',
    entry: 'functions/server-info/set-admin-onboarding.ts',
    data: 'write',
  },
  { operationId: 'wellKnown', method: 'GET', path: '/.well-known/immich', entry: 'functions/system/well-known.ts', data: 'none' },
  { operationId: 'getCustomCss', method: 'GET', path: '/custom.css', entry: 'functions/system/custom-css.ts', data: 'read' },
  {
    operationId: 'signUpAdmin',
    method: 'POST',
    path: '/api/auth/admin-sign-up',
    entry: 'functions/auth/sign-up-admin.ts',
    data: 'write',
    memory: hashing,
    publicHashing: true,
  },
  {
    operationId: 'login',
    method: 'POST',
    path: '/api/auth/login',
    entry: 'functions/auth/login.ts',
    data: 'write',
    memory: hashing,
    publicHashing: true,
  },
  { operationId: 'logout', method: 'POST', path: '/api/auth/logout', entry: 'functions/auth/logout.ts', data: 'write' },
  {
    operationId: 'validateAccessToken',
    method: 'POST',
    path: '/api/auth/validateToken',
    entry: 'functions/auth/validate-access-token.ts',
    data: 'read',
  },
  {
    operationId: 'changePassword',
    method: 'POST',
    path: '/api/auth/change-password',
    entry: 'functions/auth/change-password.ts',
    data: 'write',
    memory: hashing,
  },
  { operationId: 'getAuthDevices', method: 'GET', path: '/api/auth/devices', entry: 'functions/auth/get-auth-devices.ts', data: 'read' },
  {
    operationId: 'logoutAuthDevices',
    method: 'DELETE',
    path: '/api/auth/devices',
    entry: 'functions/auth/logout-auth-devices.ts',
    data: 'write',
  },
  {
    operationId: 'logoutAuthDevice',
    method: 'DELETE',
    path: '/api/auth/devices/{id}',
    entry: 'functions/auth/logout-auth-device.ts',
    data: 'write',
  },
  { operationId: 'getMyUserInfo', method: 'GET', path: '/api/user/me', entry: 'functions/user/get-my-user-info.ts', data: 'read' },
  { operationId: 'getPartners', method: 'GET', path: '/api/partner', entry: 'functions/partner/get-partners.ts', data: 'read' },
  { operationId: 'createPartner', method: 'POST', path: '/api/partner/{id}', entry: 'functions/partner/create-partner.ts', data: 'write' },
  { operationId: 'updatePartner', method: 'PUT', path: '/api/partner/{id}', entry: 'functions/partner/update-partner.ts', data: 'write' },
  {
    operationId: 'removePartner',
    method: 'DELETE',
    path: '/api/partner/{id}',
    entry: 'functions/partner/remove-partner.ts',
    data: 'write',
  },
  { operationId: 'getAllUsers', method: 'GET', path: '/api/user', entry: 'functions/user/get-all-users.ts', data: 'read' },
  { operationId: 'getUserById', method: 'GET', path: '/api/user/info/{id}', entry: 'functions/user/get-user-by-id.ts', data: 'read' },
  { operationId: 'updateUser', method: 'PUT', path: '/api/user', entry: 'functions/user/update-user.ts', data: 'write', memory: hashing },
  { operationId: 'deleteUser', method: 'DELETE', path: '/api/user/{id}', entry: 'functions/user/delete-user.ts', data: 'write' },
  { operationId: 'restoreUser', method: 'POST', path: '/api/user/{id}/restore', entry: 'functions/user/restore-user.ts', data: 'write' },
  {
    operationId: 'createProfileImage',
    method: 'POST',
    path: '/api/user/profile-image',
    entry: 'functions/user/create-profile-image.ts',
    data: 'write',
    store: 'put',
    body: 'upload',
  },
  {
    operationId: 'deleteProfileImage',
    method: 'DELETE',
    path: '/api/user/profile-image',
    entry: 'functions/user/delete-profile-image.ts',
    data: 'write',
    store: 'delete',
  },
  {
    operationId: 'getProfileImage',
    method: 'GET',
    path: '/api/user/profile-image/{id}',
    entry: 'functions/user/get-profile-image.ts',
    data: 'read',
    store: 'read',
  },
  { operationId: 'createUser', method: 'POST', path: '/api/user', entry: 'functions/user/create-user.ts', data: 'write', memory: hashing },
  { operationId: 'createApiKey', method: 'POST', path: '/api/api-key', entry: 'functions/api-key/create-api-key.ts', data: 'write' },
  { operationId: 'getApiKeys', method: 'GET', path: '/api/api-key', entry: 'functions/api-key/get-api-keys.ts', data: 'read' },
  { operationId: 'getApiKey', method: 'GET', path: '/api/api-key/{id}', entry: 'functions/api-key/get-api-key.ts', data: 'read' },
  { operationId: 'updateApiKey', method: 'PUT', path: '/api/api-key/{id}', entry: 'functions/api-key/update-api-key.ts', data: 'write' },
  { operationId: 'deleteApiKey', method: 'DELETE', path: '/api/api-key/{id}', entry: 'functions/api-key/delete-api-key.ts', data: 'write' },
  { operationId: 'getConfig', method: 'GET', path: '/api/system-config', entry: 'functions/system-config/get-config.ts', data: 'read' },
  {
    operationId: 'getConfigDefaults',
    method: 'GET',
    path: '/api/system-config/defaults',
    entry: 'functions/system-config/get-config-defaults.ts',
    data: 'read',
  },
  {
    operationId: 'updateConfig',
    method: 'PUT',
    path: '/api/system-config',
    entry: 'functions/system-config/update-config.ts',
    data: 'write',
  },
  {
    operationId: 'getStorageTemplateOptions',
    method: 'GET',
    path: '/api/system-config/storage-template-options',
    entry: 'functions/system-config/get-storage-template-options.ts',
    data: 'read',
  },
  {
    operationId: 'uploadFile',
    method: 'POST',
    path: '/api/asset/upload',
    entry: 'functions/asset/upload-file.ts',
    data: 'write',
    store: 'put',
    memory: media,
    body: 'upload',
  },
  // Upload sessions (not Immich's; docs/large-uploads.md): large files straight into the bucket.
  {
    operationId: 'getUploadSessionsApi',
    method: 'GET',
    path: '/api/asset/upload-session/openapi.json',
    entry: 'functions/asset/get-upload-sessions-api.ts',
    data: 'none',
  },
  {
    operationId: 'createUploadSession',
    method: 'POST',
    path: '/api/asset/upload-session',
    entry: 'functions/asset/create-upload-session.ts',
    data: 'write',
    store: 'session',
  },
  {
    operationId: 'getUploadSession',
    method: 'GET',
    path: '/api/asset/upload-session/{sessionId}',
    entry: 'functions/asset/get-upload-session.ts',
    data: 'write',
    store: 'session',
  },
  {
    operationId: 'completeUploadSession',
    method: 'POST',
    path: '/api/asset/upload-session/{sessionId}/complete',
    entry: 'functions/asset/complete-upload-session.ts',
    data: 'write',
    store: 'session',
    mediaJobs: true,
    memory: media,
  },
  {
    operationId: 'deleteUploadSession',
    method: 'DELETE',
    path: '/api/asset/upload-session/{sessionId}',
    entry: 'functions/asset/delete-upload-session.ts',
    data: 'write',
    store: 'session',
  },
  {
    operationId: 'checkBulkUpload',
    method: 'POST',
    path: '/api/asset/bulk-upload-check',
    entry: 'functions/asset/check-bulk-upload.ts',
    data: 'read',
    body: 'bulk',
  },
  {
    operationId: 'updateAssets',
    method: 'PUT',
    path: '/api/asset',
    entry: 'functions/asset/update-assets.ts',
    data: 'write',
    body: 'bulk',
  },
  { operationId: 'getAllAssets', method: 'GET', path: '/api/asset', entry: 'functions/asset/get-all-assets.ts', data: 'read' },
  {
    operationId: 'getAuditDeletes',
    method: 'GET',
    path: '/api/audit/deletes',
    entry: 'functions/audit/get-audit-deletes.ts',
    data: 'read',
  },
  {
    operationId: 'getTimeBuckets',
    method: 'GET',
    path: '/api/asset/time-buckets',
    entry: 'functions/asset/get-time-buckets.ts',
    data: 'read',
  },
  {
    operationId: 'getTimeBucket',
    method: 'GET',
    path: '/api/asset/time-bucket',
    entry: 'functions/asset/get-time-bucket.ts',
    data: 'read',
  },
  {
    operationId: 'getAssetStatistics',
    method: 'GET',
    path: '/api/asset/statistics',
    entry: 'functions/asset/get-asset-statistics.ts',
    data: 'read',
  },
  { operationId: 'getRandom', method: 'GET', path: '/api/asset/random', entry: 'functions/asset/get-random.ts', data: 'read' },
  {
    operationId: 'getMemoryLane',
    method: 'GET',
    path: '/api/asset/memory-lane',
    entry: 'functions/asset/get-memory-lane.ts',
    data: 'read',
  },
  {
    operationId: 'checkExistingAssets',
    method: 'POST',
    path: '/api/asset/exist',
    entry: 'functions/asset/check-existing-assets.ts',
    data: 'read',
    body: 'bulk',
  },
  {
    operationId: 'getAllUserAssetsByDeviceId',
    method: 'GET',
    path: '/api/asset/device/{deviceId}',
    entry: 'functions/asset/get-all-user-assets-by-device-id.ts',
    data: 'read',
  },
  { operationId: 'getAssetInfo', method: 'GET', path: '/api/asset/{id}', entry: 'functions/asset/get-asset-info.ts', data: 'read' },
  {
    operationId: 'serveFile',
    method: 'GET',
    path: '/api/asset/file/{id}',
    entry: 'functions/asset/serve-file.ts',
    data: 'read',
    store: 'read',
  },
  {
    operationId: 'getDownloadInfo',
    method: 'POST',
    path: '/api/download/info',
    entry: 'functions/download/get-download-info.ts',
    data: 'read',
    body: 'bulk',
  },
  {
    operationId: 'downloadArchive',
    method: 'POST',
    path: '/api/download/archive',
    entry: 'functions/download/download-archive.ts',
    data: 'read',
    store: 'archive',
    body: 'bulk',
  },
  {
    operationId: 'downloadFile',
    method: 'POST',
    path: '/api/download/asset/{id}',
    entry: 'functions/download/download-file.ts',
    data: 'read',
    store: 'read',
  },
  {
    operationId: 'getAssetThumbnail',
    method: 'GET',
    path: '/api/asset/thumbnail/{id}',
    entry: 'functions/asset/get-asset-thumbnail.ts',
    data: 'read',
    store: 'read',
  },
  { operationId: 'getAllPeople', method: 'GET', path: '/api/person', entry: 'functions/person/get-all-people.ts', data: 'read' },
  { operationId: 'getPerson', method: 'GET', path: '/api/person/{id}', entry: 'functions/person/get-person.ts', data: 'read' },
  {
    operationId: 'getPersonStatistics',
    method: 'GET',
    path: '/api/person/{id}/statistics',
    entry: 'functions/person/get-person-statistics.ts',
    data: 'read',
  },
  {
    operationId: 'getPersonThumbnail',
    method: 'GET',
    path: '/api/person/{id}/thumbnail',
    entry: 'functions/person/get-person-thumbnail.ts',
    data: 'read',
    store: 'read',
  },
  { operationId: 'createPerson', method: 'POST', path: '/api/person', entry: 'functions/person/create-person.ts', data: 'write' },
  {
    operationId: 'updatePeople',
    method: 'PUT',
    path: '/api/person',
    entry: 'functions/person/update-people.ts',
    data: 'write',
    mediaJobs: true,
    body: 'bulk',
  },
  {
    operationId: 'mergePerson',
    method: 'POST',
    path: '/api/person/{id}/merge',
    entry: 'functions/person/merge-person.ts',
    data: 'write',
    store: 'delete',
    body: 'bulk',
  },
  {
    operationId: 'updatePerson',
    method: 'PUT',
    path: '/api/person/{id}',
    entry: 'functions/person/update-person.ts',
    data: 'write',
    mediaJobs: true,
  },
  { operationId: 'updateAsset', method: 'PUT', path: '/api/asset/{id}', entry: 'functions/asset/update-asset.ts', data: 'write' },
  {
    operationId: 'deleteAssets',
    method: 'DELETE',
    path: '/api/asset',
    entry: 'functions/asset/delete-assets.ts',
    data: 'write',
    store: 'delete',
    body: 'bulk',
  },
  {
    operationId: 'emptyTrash',
    method: 'POST',
    path: '/api/trash/empty',
    entry: 'functions/trash/empty-trash.ts',
    data: 'write',
    store: 'delete',
  },
  { operationId: 'restoreTrash', method: 'POST', path: '/api/trash/restore', entry: 'functions/trash/restore-trash.ts', data: 'write' },
  {
    operationId: 'restoreAssets',
    method: 'POST',
    path: '/api/trash/restore/assets',
    entry: 'functions/trash/restore-assets.ts',
    data: 'write',
    body: 'bulk',
  },
  {
    operationId: 'getPersonAssets',
    method: 'GET',
    path: '/api/person/{id}/assets',
    entry: 'functions/person/get-person-assets.ts',
    data: 'read',
  },
  { operationId: 'createAlbum', method: 'POST', path: '/api/album', entry: 'functions/album/create-album.ts', data: 'write', body: 'bulk' },
  { operationId: 'getAllAlbums', method: 'GET', path: '/api/album', entry: 'functions/album/get-all-albums.ts', data: 'read' },
  { operationId: 'getAlbumCount', method: 'GET', path: '/api/album/count', entry: 'functions/album/get-album-count.ts', data: 'read' },
  { operationId: 'getAlbumInfo', method: 'GET', path: '/api/album/{id}', entry: 'functions/album/get-album-info.ts', data: 'read' },
  {
    operationId: 'updateAlbumInfo',
    method: 'PATCH',
    path: '/api/album/{id}',
    entry: 'functions/album/update-album-info.ts',
    data: 'write',
  },
  { operationId: 'deleteAlbum', method: 'DELETE', path: '/api/album/{id}', entry: 'functions/album/delete-album.ts', data: 'write' },
  {
    operationId: 'addUsersToAlbum',
    method: 'PUT',
    path: '/api/album/{id}/users',
    entry: 'functions/album/add-users-to-album.ts',
    data: 'write',
  },
  {
    operationId: 'removeUserFromAlbum',
    method: 'DELETE',
    path: '/api/album/{id}/user/{userId}',
    entry: 'functions/album/remove-user-from-album.ts',
    data: 'write',
  },
  {
    operationId: 'addAssetsToAlbum',
    method: 'PUT',
    path: '/api/album/{id}/assets',
    entry: 'functions/album/add-assets-to-album.ts',
    data: 'write',
    body: 'bulk',
  },
  {
    operationId: 'removeAssetFromAlbum',
    method: 'DELETE',
    path: '/api/album/{id}/assets',
    entry: 'functions/album/remove-asset-from-album.ts',
    data: 'write',
    body: 'bulk',
  },
  {
    operationId: 'createSharedLink',
    method: 'POST',
    path: '/api/shared-link',
    entry: 'functions/shared-link/create-shared-link.ts',
    data: 'write',
    memory: hashing,
    secrets: true,
    body: 'bulk',
  },
  {
    operationId: 'getAllSharedLinks',
    method: 'GET',
    path: '/api/shared-link',
    entry: 'functions/shared-link/get-all-shared-links.ts',
    data: 'read',
    secrets: true,
  },
  {
    operationId: 'getMySharedLink',
    method: 'GET',
    path: '/api/shared-link/me',
    entry: 'functions/shared-link/get-my-shared-link.ts',
    data: 'read',
    // A password link's token is an HMAC under the link secret.
    secrets: true,
    memory: hashing,
    publicHashing: true,
  },
  {
    operationId: 'getSharedLinkById',
    method: 'GET',
    path: '/api/shared-link/{id}',
    entry: 'functions/shared-link/get-shared-link-by-id.ts',
    data: 'read',
    secrets: true,
  },
  {
    operationId: 'updateSharedLink',
    method: 'PATCH',
    path: '/api/shared-link/{id}',
    entry: 'functions/shared-link/update-shared-link.ts',
    data: 'write',
    memory: hashing,
    secrets: true,
  },
  {
    operationId: 'removeSharedLink',
    method: 'DELETE',
    path: '/api/shared-link/{id}',
    entry: 'functions/shared-link/remove-shared-link.ts',
    data: 'write',
  },
  {
    operationId: 'addSharedLinkAssets',
    method: 'PUT',
    path: '/api/shared-link/{id}/assets',
    entry: 'functions/shared-link/add-shared-link-assets.ts',
    data: 'write',
    body: 'bulk',
  },
  {
    operationId: 'removeSharedLinkAssets',
    method: 'DELETE',
    path: '/api/shared-link/{id}/assets',
    entry: 'functions/shared-link/remove-shared-link-assets.ts',
    data: 'write',
    body: 'bulk',
  },
  { operationId: 'searchAssets', method: 'GET', path: '/api/assets', entry: 'functions/search/search-assets.ts', data: 'read' },
  { operationId: 'search', method: 'GET', path: '/api/search', entry: 'functions/search/search.ts', data: 'read' },
  {
    operationId: 'searchMetadata',
    method: 'POST',
    path: '/api/search/metadata',
    entry: 'functions/search/search-metadata.ts',
    data: 'read',
  },
  {
    operationId: 'getExploreData',
    method: 'GET',
    path: '/api/search/explore',
    entry: 'functions/search/get-explore-data.ts',
    data: 'read',
  },
  {
    operationId: 'getSearchSuggestions',
    method: 'GET',
    path: '/api/search/suggestions',
    entry: 'functions/search/get-search-suggestions.ts',
    data: 'read',
  },
  { operationId: 'notFound', method: 'ANY', path: '$default', entry: 'functions/system/not-found.ts', data: 'none' },
];

/**
 * Routes only the local server serves: what S3 does deployed. `npm start` keeps originals in a
 * folder, so an upload session's part URLs point here (signed by the server, as S3 signs its
 * presigned UploadPart URLs) instead of at the bucket. The part size is the session's, within
 * the local upload limit (`MAX_UPLOAD_MB`).
 */
export const localRoutes: readonly Route[] = [
  {
    operationId: 'putUploadPart',
    method: 'PUT',
    path: '/api/asset/upload-session/{sessionId}/part/{partNumber}',
    entry: 'functions/asset/put-upload-part.ts',
    data: 'read',
    secrets: true,
    body: 'upload',
  },
];

/**
 * Routes served only beside a build of Immich's web app (docs/web-app.md): the stack and the local
 * server add them when there is one. `/share/<key>` is the app with the link's Open Graph tags.
 */
export const webRoutes: readonly Route[] = [
  {
    operationId: 'renderSharePage',
    method: 'GET',
    path: '/share/{key+}',
    entry: 'functions/shared-link/render-share-page.ts',
    data: 'read',
  },
];

/**
 * Functions that are not API routes: invoked by an event. `generateMedia` makes an upload's
 * previews on its original's object-created event (infra/media-function.ts deploys it; locally
 * the server invokes it right after an upload).
 */
export const eventFunctions = [{ name: 'generateMedia', entry: 'functions/media/generate-media.ts' }] as const;

export const defaultMemoryMb = 512;

/**
 * Largest upload body when deployed. Lambda accepts a 6 MB (6,291,456-byte) request payload, and
 * API Gateway passes a binary body base64-encoded (4/3 of its size) inside a JSON event with the
 * headers: 4.4 MB of body (5.87 MB encoded) leaves room for the headers, so a body just over this
 * limit still reaches the function and gets its 413 naming the limit. A body over about 4.49 MB
 * no longer fits in an invocation at all: API Gateway answers it with its own
 * 413 `{"message":"Request Entity Too Large"}` (served locally the same way, test/deployed/).
 */
export const deployedUploadLimitMb = 4.4;

/** `pingServer` → `ping-server`: the name used for the Lambda function's id and log group. */
export const kebab = (operationId: string): string => operationId.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

const mebibyte = 1024 * 1024;

/**
 * A route's largest request body, in bytes. `bulk`: Lambda takes a 6 MB (6,291,456-byte)
 * request, envelope and headers included; 5.5 MB of JSON is 100,000 asset ids with room to spare.
 * `upload`: the upload limit (`MAX_UPLOAD_MB` locally, 4.4 MB deployed).
 */
export const bodyLimitBytes = (route: Pick<Route, 'body'>, uploadLimitMb: number): number =>
  route.body === 'upload' ? Math.floor(uploadLimitMb * mebibyte) : route.body === 'bulk' ? Math.floor(5.5 * mebibyte) : mebibyte;
