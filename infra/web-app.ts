/**
 * Immich's web app served beside the API: the rules both hosts share, so that the local server
 * (infra/local/web-server.ts) and the CloudFront distribution (infra/cdk/web-distribution.ts) answer
 * the same paths the same way. See docs/web-app.md.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a build the user supplies is looked for when WEB_DIR is unset, relative to the project (ignored by git). */
export const webBuildDir = '.web/build';
/** The version of Immich's web app this API answers for (docs/immich-compatibility.md). */
export const webVersion = '1.100.0';

/** Paths that belong to the API, never to the app: `/api` and below, and Immich's two root routes. */
export const apiPaths = ['/api', '/api/*', '/.well-known/immich', '/custom.css'] as const;

/**
 * Beside a build, the share pages are the API's too (`webRoutes`, infra/routes.ts): the app's
 * `index.html` with a link's Open Graph tags, rendered by a function (docs/web-app.md, "Share
 * pages"), for a link's key and for its custom URL (Immich v3's `/s/<slug>`).
 */
export const sharePagePaths = ['/share/*', '/s/*'] as const;

/**
 * The viewer-request function of the share pages' behaviours: CloudFront sends the API its own
 * host (API Gateway's), so the host the visitor reached is passed on as `x-viewer-host`, which the
 * page makes its picture's URL absolute with (shared/http/share-page.ts). Set here, so a visitor
 * cannot name another.
 */
export const viewerHostFunctionCode = `function handler(event) {
  var request = event.request;
  var host = request.headers.host;
  if (host) request.headers['x-viewer-host'] = { value: host.value };
  else delete request.headers['x-viewer-host'];
  return request;
}
`;

/**
 * An app route (answered with the app's `index.html`, the SPA fallback): a GET of a path outside
 * the API and outside the build's own files (`/_app/…`), whose last segment has no extension.
 * `/photos/abc` and `/albums` are app routes; `/_app/immutable/x.js`, `/favicon.ico` and
 * `/api/...` are not: a file that is missing is a 404, never the app.
 */
export const isAppRoute = (path: string): boolean =>
  !/^\/(api|_app)(\/|$)/.test(path) && !/^\/\.well-known\//.test(path) && !/\.[^/]*$/.test(path);

/**
 * Whether a build is Immich's v3 web app (2.x or later), by the version its `_app/version.json`
 * names (Immich's release builds write the app's version there); v1.100's names a timestamp.
 */
export const isV3WebBuild = (dir: string): boolean => {
  try {
    const { version } = JSON.parse(readFileSync(join(dir, '_app', 'version.json'), 'utf8')) as { version?: unknown };
    // v1.100's is a build timestamp (`1795760944913`); a release's is its version (`3.1.0`).
    const major = typeof version === 'string' ? /^(\d+)\.\d+\.\d+/.exec(version)?.[1] : undefined;
    return major !== undefined && Number(major) >= 2;
  } catch {
    return false;
  }
};

/** The build's fingerprinted files: their names change with their content, so they are kept a year. */
export const immutablePrefix = '/_app/immutable/';
export const immutableCacheControl = 'public, max-age=31536000, immutable';
/** Everything else of the build (the app shell, icons, manifest) is checked again on every use. */
export const revalidateCacheControl = 'no-cache';

/**
 * Response headers of every page and file the app is served with, and of the API behind the same
 * origin. No script policy: SvelteKit's shell starts the app with an inline script, and the
 * thumbnails and videos come from the originals bucket's presigned URLs (another origin), so a
 * `default-src` policy would either break the app or allow what it is meant to forbid. What is set
 * is what the app works with (proved by `npm run e2e:web`).
 */
export const securityHeaders = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'same-origin',
  'content-security-policy': "frame-ancestors 'self'; object-src 'none'; base-uri 'self'",
} as const;
/** Over HTTPS only (CloudFront): two years, this host only. */
export const strictTransportSecurity = { maxAgeSeconds: 63_072_000, header: 'max-age=63072000' } as const;

/** Immich's realtime socket, which the distribution sends to the WebSocket API (docs/web-app.md, "Realtime"). */
export const realtimePrefix = '/api/socket.io/';

/**
 * The viewer-request function of the socket's behaviour: API Gateway takes a WebSocket at its
 * stage's root only, and Immich's apps open `/api/socket.io/`, so the path becomes the stage's
 * (the query, `EIO=4&transport=websocket`, passes as it is).
 */
export const realtimeFunctionCode = (stage: string): string => `function handler(event) {
  var request = event.request;
  request.uri = '/${stage}';
  return request;
}
`;

/**
 * The viewer-request function of the distribution's default (app) behaviour: an app route is
 * answered with `/index.html`; any other path reaches the bucket as it is. CloudFront Functions
 * run their own JavaScript (cloudfront-js-2.0), so the rule is written out from `isAppRoute`'s
 * source; test/infra/web-distribution.test.ts runs this code against the same paths as `isAppRoute`.
 */
export const appRouteFunctionCode = `var isAppRoute = ${isAppRoute.toString()};
function handler(event) {
  var request = event.request;
  if (isAppRoute(request.uri)) request.uri = '/index.html';
  return request;
}
`;

/**
 * The stock clients' upload paths (v3's `POST /api/assets`, v1.100's `POST /api/asset/upload`):
 * each a behaviour of its own before `/api/*` (infra/cdk/web-distribution.ts), whose viewer-request
 * function (`uploadRoutingFunctionCode`) sends a large upload to the ingress (docs/large-uploads.md).
 */
export const uploadPaths = ['/api/assets', '/api/asset/upload'] as const;

/** The distribution's origin ids the upload function selects between (CloudFront `Origin.Id`). */
export const originIds = { api: 'api', ingress: 'ingress' } as const;

export interface UploadRoutingOptions {
  /**
   * The largest request body the API's upload functions take, in bytes (their file limit,
   * `bodyLimitBytes` of an upload row at `deployedUploadLimitMb`): a larger `POST` cannot reach Lambda.
   */
  limitBytes: number;
  /**
   * `ingress`: a larger `POST` (or one of unknown length) stays on the behaviour's origin, the
   * ingress; everything else goes to the API's. `refuse` (`-c largeUploads=off`: no ingress): a larger `POST` is answered
   * here with a 413 in Immich's error shape that says how to upload large files.
   */
  large: 'ingress' | 'refuse';
}

/**
 * The viewer-request function of the upload paths' behaviours (CloudFront Functions, runtime 2.0).
 * A `POST` whose `content-length` is over `limitBytes`, or that has none (a chunked body), is a
 * large upload; anything else (a small upload, `GET /api/assets`, …) goes to the API origin, as
 * every other API path does. With the ingress, the behaviours' own origin is the ingress (CloudFront
 * makes origins only of what behaviours name: infra/cdk/web-distribution.ts), so a large upload is
 * left on it and the function selects the API's origin by id for the rest: no VPC origin is ever
 * selected by id (AWS's page for `selectRequestOriginById` speaks of any origin already in the
 * distribution and names no VPC origin). A viewer-request function reads `content-length` (a
 * read-only header it is shown: CloudFront's "Restrictions on all edge functions", HTTP headers)
 * and picks an origin with `cf.selectRequestOriginById` (CloudFront's "Helper methods for origin
 * modification"). test/infra/upload-routing.test.ts runs this code with a stand-in `cloudfront`.
 */
export const uploadRoutingFunctionCode = ({ limitBytes, large }: UploadRoutingOptions): string => {
  const limitMb = Math.round((limitBytes / (1024 * 1024)) * 10) / 10;
  const refused = `This file is larger than ${limitMb} MB, the most this server takes in one request (its large-upload ingress is turned off): upload it with \`npm run upload\`, which sends it in parts (an upload session, docs/large-uploads.md)`;
  // The ingress has no way to the link secret (Secrets Manager has no dual-stack endpoint it could
  // reach over IPv6: docs/large-uploads.md), so an upload through a shared link stays with Lambda.
  const viaLink = `A shared link takes files of at most ${limitMb} MB here: larger ones are uploaded by the link's owner, signed in`;
  const isLarge = `function isLarge(request) {
  if (request.method !== 'POST') return false;
  var length = request.headers['content-length'];
  if (!length || !/^[0-9]+$/.test(length.value)) return true;
  return Number(length.value) > ${limitBytes};
}
function viaLink(request) {
  var query = request.querystring || {};
  return Boolean(request.headers['x-immich-share-key'] || request.headers['x-immich-share-slug'] || query.key || query.slug);
}
function tooLarge(request, message) {
  var body = request.uri.indexOf('/api/assets') === 0
    ? { message: message }
    : { message: message, error: 'Payload Too Large', statusCode: 413 };
  return {
    statusCode: 413,
    statusDescription: 'Payload Too Large',
    headers: { 'content-type': { value: 'application/json; charset=utf-8' } },
    body: { encoding: 'text', data: JSON.stringify(body) },
  };
}
`;
  if (large === 'ingress')
    return `import cf from 'cloudfront';
${isLarge}
function handler(event) {
  var request = event.request;
  if (!isLarge(request)) {
    cf.selectRequestOriginById('${originIds.api}');
    return request;
  }
  if (viaLink(request)) return tooLarge(request, ${JSON.stringify(viaLink)});
  return request;
}
`;
  // v3's path answers v3's error shape (the message alone), v1.100's its own (docs/immich-compatibility.md).
  return `${isLarge}
function handler(event) {
  var request = event.request;
  if (!isLarge(request)) return request;
  return tooLarge(request, ${JSON.stringify(refused)});
}
`;
};
