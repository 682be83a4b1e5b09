import type busboy from 'busboy';
import { Invalid } from '../core/errors.ts';

/**
 * The one definition of how a multipart body is read, shared by the buffered parser
 * (shared/http/multipart.ts, the Lambda routes) and the streaming ingress (infra/ingress/, docs/large-uploads.md).
 */

export interface MultipartOptions {
  /** The file fields accepted, at most one file each (multer's `fields([{ name, maxCount: 1 }])`). */
  fileFields: readonly string[];
  /** Largest accepted request body, in bytes; larger is a 413 that names the limit. */
  maxBytes: number;
  /** Smaller limits of some file fields, in bytes (a sidecar is a few KB of XML, not a photo). */
  fieldLimits?: Readonly<Record<string, number>>;
  /** Called as each file starts, before its bytes are read; throws to refuse it (e.g. its type). */
  accept?: (field: string, fileName: string) => void;
}

/** busboy's configuration for a form with these options: multer's limits, UTF-8 file names. */
export const busboyConfig = (contentType: string, options: MultipartOptions): busboy.BusboyConfig => ({
  headers: { 'content-type': contentType },
  // Clients send file names in UTF-8 (RFC 7578); busboy's default reads them as Latin-1.
  defParamCharset: 'utf8',
  limits: { files: options.fileFields.length, fields: 100, fieldSize: 1024 * 1024, parts: 200, fileSize: options.maxBytes },
});

/**
 * Checks a file part as it starts, before its bytes are read: one of the form's file fields, its
 * first file (a field's file counts from its first byte: multer's maxCount 1), of a type the field
 * accepts. Throws the 400 to answer; otherwise records the field as started.
 */
export const acceptFilePart = (options: MultipartOptions, started: Set<string>, field: string, fileName: string): void => {
  if (!options.fileFields.includes(field) || started.has(field)) throw new Invalid(`Unexpected field - ${field}`);
  started.add(field);
  options.accept?.(field, fileName);
};
