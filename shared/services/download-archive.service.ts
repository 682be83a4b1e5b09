import { randomUUID } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { requireDownloadable } from '../access/access.ts';
import { inBatches } from '../core/concurrency.ts';
import { log } from '../core/log.ts';
import type { AssetRecord } from '../model/asset.ts';
import type { ServedFile } from '../model/file.ts';
import type { Auth } from '../model/user.ts';
import { originalsStore } from '../storage/originals.ts';
import { putStream } from '../storage/stream-put.ts';
import { cacheControl } from './file.service.ts';

// Its own module: only the archive function carries the zip writer, the store and lib-storage.

/** Immich's names inside an archive: the original file name, repeats as `name+1.ext`, `name+2.ext`… */
const archiveNames = (assets: readonly AssetRecord[]): string[] => {
  const seen = new Map<string, number>();
  return assets.map((asset) => {
    const name = asset.originalFileName;
    const count = seen.get(name) ?? 0;
    seen.set(name, count + 1);
    if (count === 0) return name;
    const dot = name.lastIndexOf('.');
    return dot > 0 ? `${name.slice(0, dot)}+${count}${name.slice(dot)}` : `${name}+${count}`;
  });
};

/**
 * POST /download/archive: a zip of the given assets' originals (all downloadable, else 400),
 * stored, not compressed (photos and videos are compressed already). It is streamed from the
 * originals into the store, one file at a time, and never held whole: in S3 as a multipart
 * upload, answered with a short-lived URL (the bucket expires `downloads/` after a day).
 */
export const downloadArchive = async (auth: Auth, assetIds: readonly string[]): Promise<ServedFile> => {
  const allowed = new Map((await requireDownloadable(auth, assetIds)).map((asset) => [asset.id, asset]));
  const store = await originalsStore();
  // An asset whose original is missing (lost, or removed outside the API) is left out of the
  // archive and logged, rather than failing the whole download.
  const wanted = assetIds.flatMap((id) => allowed.get(id) ?? []);
  const found: boolean[] = [];
  await inBatches(wanted, 8, async (asset, index) => {
    found[index] = await store.exists(asset.originalPath);
  });
  const assets = wanted.filter((_, index) => found[index]);
  if (assets.length < wanted.length) log.warn('Originals missing from an archive', { missing: wanted.length - assets.length });
  const zip = new ZipFile();
  const names = archiveNames(assets);
  assets.forEach((asset, index) => {
    zip.addReadStreamLazy(names[index] ?? asset.id, { compress: false, mtime: new Date(asset.fileModifiedAt) }, (done) => {
      store.getStream(asset.originalPath).then(
        (stream) => (stream ? done(null, stream) : done(new Error(`The original of ${asset.id} is missing`), new PassThrough())),
        (error: Error) => done(error, new PassThrough()),
      );
    });
  });
  zip.end();
  const key = `downloads/${auth.user.id}/${randomUUID()}.zip`;
  await putStream(store, key, Readable.from(zip.outputStream), 'application/zip');
  return {
    key,
    contentType: 'application/zip',
    cacheControl: cacheControl.none,
    downloadName: `immich-${new Date().toISOString().slice(0, 10)}.zip`,
  };
};
