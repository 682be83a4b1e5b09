import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { handler as uploadHandler } from '#functions/asset/upload-file.ts';
import { bearer } from './accounts.ts';
import { invoke, type Reply } from './invoke.ts';
import { makeJpeg } from './photos.ts';

export interface FilePart {
  data: Buffer;
  fileName: string;
  contentType?: string;
}

/** A multipart/form-data body, encoded by the platform's own FormData (as the CLI's fetch does). */
export const multipart = async (fields: Record<string, string>, files: Record<string, FilePart>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, file] of Object.entries(files)) {
    form.append(name, new File([new Uint8Array(file.data)], file.fileName, { type: file.contentType ?? 'application/octet-stream' }));
  }
  const response = new Response(form);
  return { body: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? '' };
};

export const sha1 = (data: Buffer, encoding: 'hex' | 'base64' = 'hex'): string => createHash('sha1').update(data).digest(encoding);

/** The CLI's form fields for a file. */
export const cliFields = (fileName: string, size: number, date = new Date('2024-01-02T03:04:05.000Z')) => ({
  deviceAssetId: `${fileName}-${size}`,
  deviceId: 'CLI',
  fileCreatedAt: date.toISOString(),
  fileModifiedAt: date.toISOString(),
  isFavorite: 'false',
});

export interface UploadOptions {
  data?: Buffer;
  fileName?: string;
  fields?: Record<string, string>;
  sidecar?: Buffer;
  extraFiles?: Record<string, FilePart>;
}

/** POST /asset/upload through the handler, as the CLI sends it. */
export const upload = async (token: string, options: UploadOptions = {}): Promise<Reply> => {
  const data = options.data ?? makeJpeg();
  const fileName = options.fileName ?? 'photo.jpg';
  const files: Record<string, FilePart> = { assetData: { data, fileName }, ...options.extraFiles };
  if (options.sidecar) files.sidecarData = { data: options.sidecar, fileName: `${fileName}.xmp` };
  const { body, contentType } = await multipart(options.fields ?? cliFields(fileName, data.length), files);
  return invoke(uploadHandler, {
    method: 'POST',
    path: '/api/asset/upload',
    headers: { ...bearer(token), 'content-type': contentType },
    body,
  });
};

/** Every file in the local originals store (relative paths), to check what an upload left behind. */
export const storedFiles = async (root = process.env.ORIGINALS_DIR ?? ''): Promise<string[]> => {
  try {
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1))
      .sort();
  } catch {
    return [];
  }
};
