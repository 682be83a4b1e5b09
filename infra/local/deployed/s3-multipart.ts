/**
 * What s3rver (the S3-compatible server behind the deployed form) lacks of S3's multipart
 * uploads, done by the gateway in front of it: ListParts and AbortMultipartUpload (read from and
 * removed in s3rver's own folder of unfinished uploads), and S3's check of a part against its
 * `x-amz-checksum-sha1`. The upload sessions (docs/large-uploads.md) use all three.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

const uploadsDir = (root: string, bucket: string, uploadId: string): string | undefined =>
  /^[0-9a-f]+$/.test(uploadId) ? join(root, bucket, '._S3rver_uploads', uploadId) : undefined;

const escapeXml = (text: string): string => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

export type S3Answer = { status: number; body: string } | undefined;

const noSuchUpload: S3Answer = {
  status: 404,
  body: '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>',
};

/** Answers the multipart requests s3rver cannot; undefined for everything else (forwarded). */
export const multipartAnswer = async (
  root: string,
  method: string,
  url: URL,
  body: Buffer,
  headers: Record<string, unknown>,
): Promise<S3Answer> => {
  const uploadId = url.searchParams.get('uploadId');
  if (!uploadId) return undefined;
  const [, bucket = '', ...keyParts] = url.pathname.split('/');
  const dir = uploadsDir(root, bucket, uploadId);
  if (!dir) return noSuchUpload;
  const exists = await stat(dir).then(
    () => true,
    () => false,
  );
  if (method === 'DELETE') {
    if (!exists) return noSuchUpload;
    await rm(dir, { recursive: true, force: true });
    return { status: 204, body: '' };
  }
  if (method === 'GET') {
    if (!exists) return noSuchUpload;
    const names = (await readdir(dir)).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(a) - Number(b));
    const parts = await Promise.all(
      names.map(async (name) => {
        const [{ size }, md5] = await Promise.all([stat(join(dir, name)), readFile(join(dir, `${name}.md5`), 'utf8').catch(() => '')]);
        return `<Part><PartNumber>${name}</PartNumber><ETag>"${md5}"</ETag><Size>${size}</Size></Part>`;
      }),
    );
    return {
      status: 200,
      body: `<?xml version="1.0" encoding="UTF-8"?>\n<ListPartsResult><Bucket>${escapeXml(bucket)}</Bucket><Key>${escapeXml(decodeURIComponent(keyParts.join('/')))}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`,
    };
  }
  if (method === 'PUT') {
    if (!exists) return noSuchUpload;
    const declared = headers['x-amz-checksum-sha1'];
    if (typeof declared === 'string' && createHash('sha1').update(body).digest('base64') !== declared) {
      return {
        status: 400,
        body: '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>BadDigest</Code><Message>The SHA1 you specified did not match the calculated checksum.</Message></Error>',
      };
    }
  }
  return undefined;
};
