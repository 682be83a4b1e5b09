import * as v from 'valibot';
import { id, instant, nullable } from './fields.ts';

/**
 * An upload session (docs/large-uploads.md): a large file on its way into the store as a
 * multipart upload, from `POST /asset/upload-session` to its completion, its deletion or its
 * expiry. It holds what `POST /asset/upload` would have received (the form's text fields, the
 * sidecar) and what the file was declared to be (size, SHA-1, parts).
 */
export const UploadSessionRecordSchema = v.object({
  id: id(),
  ownerId: id(),
  /** The asset the file becomes (its id is chosen now, so the object's key is final). */
  assetId: id(),
  /** The object the parts become: the asset's `originalPath`. */
  key: v.string(),
  /** The store's multipart upload id. */
  uploadId: v.string(),
  fileName: v.string(),
  size: v.number(),
  /** SHA-1 of the whole file, hex. */
  checksum: v.string(),
  partSize: v.number(),
  /** SHA-1 of each part, base64, in order. */
  partChecksums: v.array(v.string()),
  /** POST /asset/upload's text fields, as sent (validated again at completion). */
  fields: v.record(v.string(), v.unknown()),
  /** The XMP sidecar, when one was sent. */
  sidecar: nullable(v.string()),
  createdAt: instant(),
  expiresAt: instant(),
  /** Epoch seconds: DynamoDB's TTL removes the item some time after it expired. */
  ttl: v.number(),
});
export type UploadSessionRecord = v.InferOutput<typeof UploadSessionRecordSchema>;

/** Where one part goes: PUT the part's bytes to `url` with `headers`. */
export interface PartTarget {
  partNumber: number;
  url: string;
  headers: Record<string, string>;
  /** Whether the store already holds this part. */
  uploaded: boolean;
}

/** A live session with a fresh URL for each of its parts: what opening or reading one gives. */
export interface OpenUploadSession {
  session: UploadSessionRecord;
  parts: PartTarget[];
}

/**
 * What opening a session takes (docs/large-uploads.md), from a generation's checked request: the
 * file's name, size and SHA-1, the part size and each part's SHA-1, the XMP sidecar's text, and
 * the asset's text fields of `POST /asset/upload` as sent (kept in the session; the completion reads
 * them with its generation's field reader).
 */
export interface NewUploadSession {
  fileName: string;
  size: number;
  checksum: string;
  partSize: number;
  partChecksums: string[];
  sidecarData?: string | null | undefined;
  libraryId?: string | null | undefined;
  [field: string]: unknown;
}
