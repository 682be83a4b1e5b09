/**
 * The uploader's view of the disk: which files to send (recursive, ignore patterns, hidden files,
 * the server's media types), their sidecars, and their SHA-1s (the whole file's, and each part's
 * in the same pass for the files sent through upload sessions).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, matchesGlob, resolve } from 'node:path';

export interface LocalFile {
  path: string;
  size: number;
  mtimeMs: number;
  /** `<file>.xmp` or `<name>.xmp` beside it. */
  sidecar?: string;
}

export interface ScanOptions {
  recursive: boolean;
  ignore: readonly string[];
  includeHidden: boolean;
  /** Extensions the server takes (`GET /server-info/media-types`: images and videos), lower-case with the dot. */
  extensions: ReadonlySet<string>;
}

const ignored = (path: string, patterns: readonly string[]): boolean =>
  patterns.some((pattern) => matchesGlob(path, pattern) || matchesGlob(basename(path), pattern));

const exists = (path: string) =>
  stat(path).then(
    (found) => found.isFile(),
    () => false,
  );

const sidecarOf = async (path: string): Promise<string | undefined> => {
  for (const candidate of [`${path}.xmp`, join(dirname(path), `${basename(path, extname(path))}.xmp`)]) {
    if (await exists(candidate)) return candidate;
  }
  return undefined;
};

/** The files under `paths` to upload, in path order. A directory without `recursive` gives its own files only (as `immich upload`). */
export const scanFiles = async (paths: readonly string[], options: ScanOptions): Promise<LocalFile[]> => {
  const found = new Map<string, LocalFile>();
  const visit = async (path: string, depth: number): Promise<void> => {
    if (!options.includeHidden && depth > 0 && basename(path).startsWith('.')) return;
    if (ignored(path, options.ignore)) return;
    const info = await stat(path);
    if (info.isDirectory()) {
      if (depth > 0 && !options.recursive) return;
      for (const name of (await readdir(path)).sort()) await visit(join(path, name), depth + 1);
      return;
    }
    if (!info.isFile() || !options.extensions.has(extname(path).toLowerCase())) return;
    const sidecar = await sidecarOf(path);
    found.set(path, { path, size: info.size, mtimeMs: info.mtimeMs, ...(sidecar ? { sidecar } : {}) });
  };
  for (const path of paths) await visit(resolve(path), 0);
  return [...found.values()].sort((a, b) => a.path.localeCompare(b.path));
};

export interface Hashes {
  /** SHA-1 of the file, hex. */
  checksum: string;
  /** SHA-1 of each part of `partSize`, base64 (empty when not asked). */
  partChecksums: string[];
}

/** SHA-1 of a file, and of each of its parts when `partSize` is given, read once as a stream. */
export const hashFile = async (path: string, partSize?: number): Promise<Hashes> => {
  const whole = createHash('sha1');
  const partChecksums: string[] = [];
  let part = createHash('sha1');
  let inPart = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    whole.update(chunk);
    if (!partSize) continue;
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(chunk.length - offset, partSize - inPart);
      part.update(chunk.subarray(offset, offset + take));
      inPart += take;
      offset += take;
      if (inPart === partSize) {
        partChecksums.push(part.digest('base64'));
        part = createHash('sha1');
        inPart = 0;
      }
    }
  }
  if (partSize && (inPart > 0 || partChecksums.length === 0)) partChecksums.push(part.digest('base64'));
  return { checksum: whole.digest('hex'), partChecksums };
};
