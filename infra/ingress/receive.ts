/**
 * Reads an upload's multipart body as it arrives: the asset file (and v1.100's live-photo video)
 * streamed through a SHA-1 into the originals store at the asset's final key, the text fields and
 * the sidecar (small, limited) in memory. Whatever fails — the client gone, a stalled body, more
 * bytes than the user's room, broken multipart, a refused part — destroys the streams being
 * written (an S3 multipart upload is then aborted: shared/storage/stream-put.ts) and deletes what
 * was already stored, so a failed upload leaves no object (docs/large-uploads.md).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { PassThrough, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { bodyTooLarge, DomainError, Invalid } from '#shared/core/errors.ts';
import { mimeTypeOf } from '#shared/domain/media-types.ts';
import { acceptUploadFile, originalKey, uploadFieldLimits, uploadFields } from '#shared/domain/upload-files.ts';
import { acceptFilePart, busboyConfig, type MultipartOptions } from '#shared/http/multipart-options.ts';
import type { StoredFile } from '#shared/services/upload/stored-upload.service.ts';
import type { OriginalsStore, StoredObject } from '#shared/storage/store.ts';
import { maxStreamBytes, putStream } from '#shared/storage/stream-put.ts';

export interface ReceivedForm {
  fields: Record<string, string>;
  asset?: StoredFile;
  livePhoto?: StoredFile;
  sidecar?: { fileName: string; data: Buffer };
}

export interface ReceiveOptions {
  ownerId: string;
  store: OriginalsStore;
  /** Bytes of files the user may still store (their quota's room; Infinity without one). */
  room: number;
  /** What the multipart framing, text fields and sidecar may add to the files' bytes. */
  envelope: number;
  /** The request's declared length, if any: it sizes the S3 parts. */
  declaredLength?: number;
  /** Abandon the body when no byte arrived for this long. */
  idleTimeoutMs: number;
  /** S3 tags the stored files carry until they are recorded. */
  tagging?: string;
  /** Aborts the upload (the process is stopping). */
  signal?: AbortSignal;
}

/** The refusal of a body over the user's room: Immich's quota answer. */
export const quotaExceeded = (): Invalid => new Invalid('Quota has been exceeded!');

/** The client went away (or stalled) before its body was read: no one is left to answer. */
export class BodyAbandoned extends Error {
  readonly stalled: boolean;

  constructor(message: string, stalled = false) {
    super(message);
    this.name = 'BodyAbandoned';
    this.stalled = stalled;
  }
}

/** The file fields written to the store as they arrive; anything else (the sidecar) is kept in memory. */
const streamedFields = new Set<string>([uploadFields.asset, uploadFields.livePhoto]);

const toStored = (file: StoredFile): StoredObject => (file.version ? { key: file.key, version: file.version } : { key: file.key });

/** Removes stored files, logging nothing: a failed delete is left to the bucket's lifecycle rule (docs/large-uploads.md). */
export const removeStored = async (store: OriginalsStore, files: readonly (StoredFile | undefined)[]): Promise<void> => {
  const objects = files.filter((file): file is StoredFile => file !== undefined).map(toStored);
  if (objects.length > 0) await store.delete(objects);
};

export const receiveForm = (request: IncomingMessage, options: ReceiveOptions): Promise<ReceivedForm> => {
  const contentType = request.headers['content-type'] ?? '';
  const formOptions: MultipartOptions = {
    fileFields: Object.values(uploadFields),
    maxBytes: maxStreamBytes,
    accept: acceptUploadFile,
    fieldLimits: uploadFieldLimits,
  };
  const form: ReceivedForm = { fields: {} };
  // A body that is not a form has no fields and no files (as Express leaves it): the caller says what is missing.
  if (!/^multipart\/form-data/i.test(contentType)) {
    request.resume();
    return new Promise((resolve) => request.once('end', () => resolve(form)).once('close', () => resolve(form)));
  }

  return new Promise<ReceivedForm>((resolve, reject) => {
    const writes: Promise<void>[] = [];
    const streams = new Set<Transform>();
    let failure: Error | undefined;
    let fileBytes = 0;
    let bodyBytes = 0;
    let settled = false;

    const finish = async (): Promise<void> => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      options.signal?.removeEventListener('abort', onAbort);
      await Promise.allSettled(writes);
      if (failure) {
        await removeStored(options.store, [form.asset, form.livePhoto]).catch(() => undefined);
        reject(failure);
      } else resolve(form);
    };
    const fail = (error: Error): void => {
      if (failure) return;
      failure = error;
      request.unpipe(parser);
      for (const stream of streams) stream.destroy(error);
      void finish();
    };

    const idle = setTimeout(() => fail(new BodyAbandoned('The upload stalled', true)), options.idleTimeoutMs);
    const onAbort = (): void => fail(new BodyAbandoned('The ingress is stopping'));
    options.signal?.addEventListener('abort', onAbort);

    let parser: busboy.Busboy;
    try {
      parser = busboy(busboyConfig(contentType, formOptions));
    } catch (error) {
      clearTimeout(idle);
      request.resume();
      reject(new Invalid(error instanceof Error ? error.message : 'Malformed multipart body'));
      return;
    }

    const started = new Set<string>();
    parser.on('file', (field, stream, info) => {
      const fileName = info.filename ?? '';
      try {
        if (failure) throw failure;
        acceptFilePart(formOptions, started, field, fileName);
      } catch (error) {
        fail(error as Error);
        stream.resume();
        return;
      }
      if (!streamedFields.has(field)) {
        // The sidecar: a few KB of XML, refused past its limit (shared/domain/upload-files.ts).
        const limit = formOptions.fieldLimits?.[field] ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limit) fail(new Invalid(`${field} is larger than the limit of ${Math.floor(limit / 1024)} KB`));
          else chunks.push(chunk);
        });
        stream.on('end', () => {
          form.sidecar = { fileName, data: Buffer.concat(chunks) };
        });
        return;
      }
      const assetId = randomUUID();
      const key = originalKey(options.ownerId, assetId, fileName);
      const hash = createHash('sha1');
      let size = 0;
      // The SHA-1 and the user's room, counted on the way to the store.
      const tap = new Transform({
        transform(chunk: Buffer, _encoding, callback: TransformCallback) {
          size += chunk.length;
          fileBytes += chunk.length;
          if (fileBytes > options.room) {
            callback(quotaExceeded());
            return;
          }
          hash.update(chunk);
          callback(null, chunk);
        },
      });
      streams.add(tap);
      stream.on('limit', () => fail(bodyTooLarge(maxStreamBytes)));
      const body = new PassThrough({ highWaterMark: 1024 * 1024 });
      const write = async (): Promise<void> => {
        // Both settle before this does: a failed stream's multipart upload is aborted by then.
        const [piped, put] = await Promise.allSettled([
          pipeline(stream, tap, body),
          putStream(options.store, key, body, mimeTypeOf(fileName), {
            size: options.declaredLength,
            tagging: options.tagging,
            storageClass: 'INTELLIGENT_TIERING',
          }),
        ]);
        if (put.status === 'fulfilled' && piped.status === 'rejected') await options.store.delete([put.value]);
        if (piped.status === 'rejected') throw piped.reason;
        if (put.status === 'rejected') throw put.reason;
        const stored = put.value;
        const file: StoredFile = {
          fileName,
          key,
          size,
          checksum: hash.digest('hex'),
          assetId,
          ...(stored.version ? { version: stored.version } : {}),
        };
        if (field === uploadFields.asset) form.asset = file;
        else form.livePhoto = file;
      };
      writes.push(
        write().catch(async (error: unknown) => {
          // Whatever was completed before the failure is removed with the rest (finish).
          fail(error instanceof Error ? error : new Error(String(error)));
        }),
      );
    });
    parser.on('field', (name, value) => {
      // The first of repeated text fields, as shared/http/multipart.ts keeps it.
      if (!(name in form.fields)) form.fields[name] = value;
    });
    parser.on('filesLimit', () => fail(new Invalid('Too many files')));
    parser.on('fieldsLimit', () => fail(new Invalid('Too many fields')));
    parser.on('partsLimit', () => fail(new Invalid('Too many parts')));
    parser.on('error', (error: Error) => fail(error instanceof DomainError ? error : new Invalid(error.message)));
    parser.on('close', () => void finish());

    request.on('data', (chunk: Buffer) => {
      idle.refresh();
      bodyBytes += chunk.length;
      if (bodyBytes > options.room + options.envelope) fail(quotaExceeded());
    });
    request.on('error', () => fail(new BodyAbandoned('The client went away')));
    request.on('close', () => {
      if (!request.complete) fail(new BodyAbandoned('The client went away'));
    });
    request.pipe(parser);
  });
};
