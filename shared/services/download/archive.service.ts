import { randomUUID } from 'node:crypto';
import type { PassThrough, Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { requireDownloadable } from '../../access/download-access.ts';
import { inBatches } from '../../core/concurrency.ts';
import { Conflict } from '../../core/errors.ts';
import { log } from '../../core/log.ts';
import type { AssetRecord } from '../../model/asset.ts';
import type { Delivery, ServedFile } from '../../model/file.ts';
import type { Auth } from '../../model/user.ts';
import { originalsStore } from '../../storage/originals.ts';
import { putStream } from '../../storage/stream-put.ts';
import { cacheControl, deliver } from '../file.service.ts';

// Its own module: only the archive function carries the zip writer, the store and lib-storage.

/**
 * A name a zip may hold: the file name alone (a client may send `../x.jpg`, `/etc/x.jpg` or
 * `C:\x.jpg` as a file name, which yazl refuses), without control characters; the asset id when
 * nothing is left.
 */
const safeEntryName = (name: string, id: string): string => {
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/^[a-zA-Z]:/, '').replace(/\p{Cc}/gu, '');
  return base === '' || base === '.' || base === '..' ? id : base;
};

/** Immich's names inside an archive: the original file name, repeats as `name+1.ext`, `name+2.ext`… */
const archiveNames = (assets: readonly AssetRecord[]): string[] => {
  const seen = new Map<string, number>();
  return assets.map((asset) => {
    const name = safeEntryName(asset.originalFileName, asset.id);
    const count = seen.get(name) ?? 0;
    seen.set(name, count + 1);
    if (count === 0) return name;
    const dot = name.lastIndexOf('.');
    return dot > 0 ? `${name.slice(0, dot)}+${count}${name.slice(dot)}` : `${name}+${count}`;
  });
};

/** An original that went (deleted, or its file removed) while the archive was being written. */
class OriginalGone extends Error {}

/**
 * POST /download/archive: a zip of the given assets' originals (all downloadable, else 400), each
 * once however often it is named (as /download/info counts them), stored, not compressed (photos
 * and videos are compressed already). It is streamed from the originals into the store, one file
 * at a time, and never held whole: in S3 as a multipart upload, answered with a short-lived URL
 * (the bucket expires `downloads/` after a day); locally into a file removed once it is served
 * (`deliverArchive`).
 *
 * Every stream and emitter on the way has an error path: a failing original (removed meanwhile,
 * or an S3 read that breaks) destroys the zip's output, the store's write rejects and leaves no
 * partial object, and the request ends with an error instead of the process. An original that was
 * removed meanwhile is the client's 409 (ask again); anything else is a 500, logged.
 */
export const downloadArchive = async (auth: Auth, assetIds: readonly string[]): Promise<ServedFile> => {
  const allowed = new Map((await requireDownloadable(auth, assetIds)).map((asset) => [asset.id, asset]));
  const store = await originalsStore();
  // An asset whose original is missing (lost, or removed outside the API) is left out of the
  // archive and logged, rather than failing the whole download.
  const wanted = [...new Set(assetIds)].flatMap((id) => allowed.get(id) ?? []);
  const found: boolean[] = [];
  await inBatches(wanted, 8, async (asset, index) => {
    found[index] = await store.exists(asset.originalPath);
  });
  const assets = wanted.filter((_, index) => found[index]);
  if (assets.length < wanted.length) log.warn('Originals missing from an archive', { missing: wanted.length - assets.length });
  const zip = new ZipFile();
  const output = zip.outputStream as PassThrough;
  let reading: Readable | undefined;
  const fail = (error: Error): void => {
    reading?.destroy();
    output.destroy(error);
  };
  zip.on('error', fail);
  const names = archiveNames(assets);
  assets.forEach((asset, index) => {
    zip.addReadStreamLazy(names[index] ?? asset.id, { compress: false, mtime: new Date(asset.fileModifiedAt) }, (done) => {
      store.getStream(asset.originalPath).then((stream) => {
        if (output.destroyed) return stream?.destroy();
        if (!stream) return fail(new OriginalGone(asset.id));
        // yazl pipes the stream without listening for its errors: a file removed between the
        // check and the read (ENOENT), or an S3 body cut off, is an error event here.
        reading = stream.on('error', (error: NodeJS.ErrnoException) => fail(error.code === 'ENOENT' ? new OriginalGone(asset.id) : error));
        done(null, stream);
      }, fail);
    });
  });
  zip.end();
  const key = `downloads/${auth.user.id}/${randomUUID()}.zip`;
  try {
    await putStream(store, key, output, 'application/zip');
  } catch (error) {
    if (error instanceof OriginalGone || (error as { cause?: unknown }).cause instanceof OriginalGone) {
      throw new Conflict('An asset of the archive was removed while it was being written; ask again');
    }
    throw error;
  }
  return {
    key,
    contentType: 'application/zip',
    cacheControl: cacheControl.none,
    downloadName: `immich-${new Date().toISOString().slice(0, 10)}.zip`,
  };
};

/**
 * The archive's answer (deliver): deployed, a URL to the object, which the bucket expires;
 * locally, its bytes, after which the file is removed (nothing expires a folder).
 */
export const deliverArchive = async (file: ServedFile): Promise<Delivery> => {
  const delivery = await deliver(file, 'The archive is missing');
  if ('bytes' in delivery) await (await originalsStore()).delete([{ key: file.key }]);
  return delivery;
};
