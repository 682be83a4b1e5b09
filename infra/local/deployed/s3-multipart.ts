/**
 * What s3rver (the S3-compatible server behind the deployed form) lacks of S3's multipart
 * uploads, done by the gateway in front of it: ListParts, AbortMultipartUpload and
 * ListMultipartUploads (read from and removed in s3rver's own folder of unfinished uploads), S3's
 * check of a part against its `x-amz-checksum-sha1`, and DeleteObjectTagging (s3rver keeps an
 * object's tags in a file beside it). The upload sessions (docs/large-uploads.md) and the ingress
 * (infra/ingress/) use them.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat, unlink } from 'node:fs/promises';
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
  const [, bucket = '', ...keyParts] = url.pathname.split('/');
  if (method === 'GET' && keyParts.join('') === '' && url.searchParams.has('uploads')) return listUploads(root, bucket, url);
  if (method === 'DELETE' && keyParts.join('') !== '' && url.searchParams.has('tagging'))
    return deleteTagging(root, bucket, decodeURIComponent(keyParts.join('/')));
  const uploadId = url.searchParams.get('uploadId');
  if (!uploadId) return undefined;
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

/** ListMultipartUploads (`GET /<bucket>?uploads&prefix=…`): s3rver's unfinished uploads, each folder with the key it was started for. */
const listUploads = async (root: string, bucket: string, url: URL): Promise<S3Answer> => {
  const prefix = url.searchParams.get('prefix') ?? '';
  const dir = join(root, bucket, '._S3rver_uploads');
  const ids = await readdir(dir).catch(() => [] as string[]);
  const uploads = (
    await Promise.all(
      ids.map(async (id) => {
        const key = await readFile(join(dir, id, 'key'), 'utf8').catch(() => undefined);
        return key?.startsWith(prefix) ? `<Upload><Key>${escapeXml(key)}</Key><UploadId>${id}</UploadId></Upload>` : '';
      }),
    )
  ).join('');
  return {
    status: 200,
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<ListMultipartUploadsResult><Bucket>${escapeXml(bucket)}</Bucket><Prefix>${escapeXml(prefix)}</Prefix><IsTruncated>false</IsTruncated>${uploads}</ListMultipartUploadsResult>`,
  };
};

/**
 * DeleteObjectTagging: s3rver keeps an object's tags in `<dir>/<name>._S3rver_tagging.xml`
 * (its filesystem store's resource path); S3 answers 204 whether or not the object had tags.
 */
const deleteTagging = async (root: string, bucket: string, key: string): Promise<S3Answer> => {
  const parts = key.split('/');
  const name = parts.pop() ?? '';
  const objectFile = join(root, bucket, ...parts, `${name}._S3rver_object`);
  const exists = await stat(objectFile).then(
    () => true,
    () => false,
  );
  if (!exists)
    return {
      status: 404,
      body: '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
    };
  await unlink(join(root, bucket, ...parts, `${name}._S3rver_tagging.xml`)).catch(() => undefined);
  return { status: 204, body: '' };
};
