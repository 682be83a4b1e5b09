import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import busboy from 'busboy';
import { bodyTooLarge, Invalid } from '../core/errors.ts';
import type { UploadedFile } from '../model/upload.ts';
import { acceptFilePart, busboyConfig, type MultipartOptions } from './multipart-options.ts';

export type { MultipartOptions } from './multipart-options.ts';

export interface MultipartForm {
  fields: Record<string, string>;
  files: Record<string, UploadedFile>;
}

/** The raw request body, whether API Gateway passed it as text or base64. */
export const bodyBytes = (event: APIGatewayProxyEventV2): Buffer =>
  event.body === undefined || event.body === null ? Buffer.alloc(0) : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');

/**
 * Parses a multipart/form-data body with busboy, with Immich's (multer's) rules: only the listed
 * file fields, one file each; text fields as strings. A body that is not multipart has no fields
 * and no files (Express leaves it unparsed), so the caller reports what is missing. Broken
 * multipart is a 400 with busboy's reason; an oversize body is a 413.
 */
export const parseMultipart = (event: APIGatewayProxyEventV2, options: MultipartOptions): Promise<MultipartForm> => {
  const contentType = event.headers['content-type'] ?? '';
  const declared = Number(event.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxBytes) return Promise.reject(bodyTooLarge(options.maxBytes));
  const body = bodyBytes(event);
  if (body.length > options.maxBytes) return Promise.reject(bodyTooLarge(options.maxBytes));
  if (!/^multipart\/form-data/i.test(contentType)) return Promise.resolve({ fields: {}, files: {} });

  return new Promise((resolve, reject) => {
    const form: MultipartForm = { fields: {}, files: {} };
    let failure: Error | undefined;
    const fail = (error: Error): void => {
      failure ??= error;
    };

    let parser: busboy.Busboy;
    try {
      parser = busboy(busboyConfig(contentType, options));
    } catch (error) {
      reject(new Invalid(error instanceof Error ? error.message : 'Malformed multipart body'));
      return;
    }

    // A field's file counts from its first byte: a second part of the same field is refused even
    // when the first has not finished streaming (multer's maxCount: 1).
    const started = new Set<string>();
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      try {
        acceptFilePart(options, started, field, info.filename ?? '');
      } catch (error) {
        fail(error as Error);
        stream.resume();
        return;
      }
      const fieldLimit = options.fieldLimits?.[field];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (fieldLimit !== undefined && size > fieldLimit) {
          fail(new Invalid(`${field} is larger than the limit of ${Math.floor(fieldLimit / 1024)} KB`));
          return;
        }
        chunks.push(chunk);
      });
      stream.on('error', (error: Error) => fail(new Invalid(error.message)));
      stream.on('limit', () => fail(bodyTooLarge(options.maxBytes)));
      stream.on('end', () => {
        form.files[field] = { field, fileName: info.filename ?? '', mimeType: info.mimeType, data: Buffer.concat(chunks) };
      });
    });
    parser.on('field', (name, value) => {
      // Express/multer keep the last of repeated text fields' values... as an array; Immich's DTOs
      // then reject it as "must be a string". Keep the first, which is what a client means.
      if (!(name in form.fields)) form.fields[name] = value;
    });
    parser.on('filesLimit', () => fail(new Invalid('Too many files')));
    parser.on('fieldsLimit', () => fail(new Invalid('Too many fields')));
    parser.on('partsLimit', () => fail(new Invalid('Too many parts')));
    parser.on('error', (error: Error) => reject(failure ?? new Invalid(error.message)));
    parser.on('close', () => (failure ? reject(failure) : resolve(form)));
    try {
      parser.end(body);
    } catch (error) {
      // busboy throws (as well as emitting) for a body that ends mid-form.
      reject(failure ?? new Invalid(error instanceof Error ? error.message : 'Malformed multipart body'));
    }
  });
};
