import { createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { immutableCacheControl, immutablePrefix, isAppRoute, revalidateCacheControl, securityHeaders } from '../web-app.ts';

export { isV3WebBuild } from '../web-app.ts';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/** A file of the build, with what answering it needs (read again on each request: a rebuild shows at once). */
interface WebFile {
  path: string;
  size: number;
  etag: string;
  type: string;
  /** Precompressed siblings (`.br`, `.gz`) the build ships, by content coding. */
  encoded: { coding: 'br' | 'gzip'; path: string; size: number }[];
}

/** Whether a folder is a web build this server can serve (an `index.html` at its top). */
export const isWebBuild = (dir: string): boolean => existsSync(join(dir, 'index.html'));

/**
 * Serves a static build of Immich's web app (the one at WEB_DIR) beside the API, as the
 * distribution does deployed (docs/web-app.md): its files, the app's `index.html` for app routes
 * (`isAppRoute`), a year's caching for `/_app/immutable/`, revalidation for the rest, the same
 * security headers. Answers only GET and HEAD outside the API; returns false for what it does not
 * answer, so the API's routes (and their `$default`) stay untouched.
 */
export const createWebHandler = (dir: string) => {
  const root = resolve(dir);
  const fileAt = (path: string): WebFile | null => {
    // Never outside the build: `..` segments are resolved first, then the result must be inside.
    const full = resolve(join(root, path));
    if (!full.startsWith(root + sep)) return null;
    const stats = statSync(full, { throwIfNoEntry: false });
    if (!stats?.isFile()) return null;
    const encoded = (['br', 'gzip'] as const).flatMap((coding) => {
      const sibling = `${full}.${coding === 'br' ? 'br' : 'gz'}`;
      const size = statSync(sibling, { throwIfNoEntry: false })?.size;
      return size === undefined ? [] : [{ coding, path: sibling, size }];
    });
    const etag = `"${createHash('sha1').update(`${stats.size}:${stats.mtimeMs}:${full}`).digest('base64url')}"`;
    return { path: full, size: stats.size, etag, type: contentTypes[extname(full)] ?? 'application/octet-stream', encoded };
  };

  return (req: IncomingMessage, res: ServerResponse, path: string): boolean => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') return false;
    if (/^\/api(\/|$)/.test(path)) return false;
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return false;
    }
    const appRoute = isAppRoute(decoded);
    // No file name holds a NUL byte (and the file system would throw on one).
    const file = decoded.includes('\0') ? undefined : fileAt(appRoute ? '/index.html' : decoded);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...securityHeaders });
      res.end('Not Found');
      return true;
    }
    const headers: Record<string, string | number> = {
      'content-type': file.type,
      'cache-control': decoded.startsWith(immutablePrefix) ? immutableCacheControl : revalidateCacheControl,
      etag: file.etag,
      ...securityHeaders,
    };
    if (file.encoded.length > 0) headers.vary = 'accept-encoding';
    if (req.headers['if-none-match'] === file.etag) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    const accepted = String(req.headers['accept-encoding'] ?? '');
    const encoding = file.encoded.find(({ coding }) => new RegExp(`\\b${coding}\\b`).test(accepted));
    if (encoding) headers['content-encoding'] = encoding.coding;
    headers['content-length'] = encoding?.size ?? file.size;
    res.writeHead(200, headers);
    if (method === 'HEAD') {
      res.end();
      return true;
    }
    createReadStream(encoding?.path ?? file.path)
      .on('error', () => res.destroy())
      .pipe(res);
    return true;
  };
};

export type WebHandler = ReturnType<typeof createWebHandler>;
