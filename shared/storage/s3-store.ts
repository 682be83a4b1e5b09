import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  NoSuchKey,
  NoSuchUpload,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import * as env from '../core/env.ts';
import {
  assertSafeKey,
  type OriginalsStore,
  type PartChecksum,
  type PartTarget,
  type ReceivedPart,
  type SignedUrlOptions,
  type StoredObject,
} from './store.ts';

const intelligentTieringMinimum = 128 * 1024;

const isNoSuchUpload = (error: unknown): boolean => error instanceof NoSuchUpload || (error as { name?: string }).name === 'NoSuchUpload';

/**
 * Originals in an S3 bucket (deployed; the stack makes it private, encrypted and versioned). The
 * SDK finds the bucket's endpoint itself; `AWS_ENDPOINT_URL_S3` points it at an S3-compatible
 * server instead (tests), which usually wants path-style addressing (`S3_FORCE_PATH_STYLE=true`).
 */
export class S3Store implements OriginalsStore {
  readonly client: S3Client;
  readonly bucket: string;

  constructor(bucket: string) {
    this.bucket = bucket;
    this.client = new S3Client({
      forcePathStyle: env.s3ForcePathStyle(),
      // PutObject of a Buffer needs no trailing checksum; S3 checks Content-Length and stores it encrypted.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<StoredObject> {
    assertSafeKey(key);
    // Originals are written once and mostly read rarely: Intelligent-Tiering moves them to cheaper
    // tiers when untouched, with no retrieval fee. Objects under its 128 KB minimum (sidecars)
    // would be billed as 128 KB there, so they stay in Standard.
    const storageClass = body.length >= intelligentTieringMinimum ? 'INTELLIGENT_TIERING' : 'STANDARD';
    const result = await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType, StorageClass: storageClass }),
    );
    return result.VersionId ? { key, version: result.VersionId } : { key };
  }

  async putFile(key: string, path: string, contentType: string): Promise<StoredObject> {
    assertSafeKey(key);
    // One PutObject of the file as a stream (an encoded video is well under PutObject's 5 GB); its length is known, so nothing is buffered.
    const { size } = await stat(path);
    const result = await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: createReadStream(path),
        ContentLength: size,
        ContentType: contentType,
        StorageClass: size >= intelligentTieringMinimum ? 'INTELLIGENT_TIERING' : 'STANDARD',
      }),
    );
    return result.VersionId ? { key, version: result.VersionId } : { key };
  }

  signedUrl(key: string, options: SignedUrlOptions): Promise<string> {
    assertSafeKey(key);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentType: options.contentType,
      ResponseCacheControl: options.cacheControl,
      ...(options.contentDisposition ? { ResponseContentDisposition: options.contentDisposition } : {}),
    });
    return getSignedUrl(this.client, command, { expiresIn: options.expiresSeconds });
  }

  async exists(key: string): Promise<boolean> {
    assertSafeKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      // HeadObject has no body, so a missing key is a bare 404 (S3 names it NotFound).
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | undefined> {
    assertSafeKey(key);
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return result.Body ? Buffer.from(await result.Body.transformToByteArray()) : undefined;
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  async getStream(key: string): Promise<Readable | undefined> {
    assertSafeKey(key);
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return result.Body as Readable | undefined;
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  async delete(objects: readonly StoredObject[]): Promise<void> {
    // One DeleteObject per object: an upload has at most two (original and sidecar), and unlike
    // DeleteObjects it needs no Content-MD5. Deleting the exact version leaves no delete marker
    // and no noncurrent copy behind in the versioned bucket.
    await Promise.all(
      objects.map(({ key, version }) => {
        assertSafeKey(key);
        return this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key, ...(version ? { VersionId: version } : {}) }));
      }),
    );
  }

  async getRange(key: string, start: number, end: number): Promise<Buffer> {
    assertSafeKey(key);
    const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=${start}-${end}` }));
    return result.Body ? Buffer.from(await result.Body.transformToByteArray()) : Buffer.alloc(0);
  }

  async createMultipart(key: string, contentType: string, size: number): Promise<string> {
    assertSafeKey(key);
    // SHA-1 as the upload's checksum algorithm: every part must then carry its SHA-1, and S3
    // refuses a part whose bytes do not match it.
    const { UploadId } = await this.client.send(
      new CreateMultipartUploadCommand({
        Bucket: this.bucket,
        Key: key,
        ContentType: contentType,
        ChecksumAlgorithm: 'SHA1',
        StorageClass: size >= intelligentTieringMinimum ? 'INTELLIGENT_TIERING' : 'STANDARD',
      }),
    );
    if (!UploadId) throw new Error('S3 answered CreateMultipartUpload without an upload id');
    return UploadId;
  }

  async partUrl(key: string, uploadId: string, part: PartChecksum, expiresSeconds: number): Promise<PartTarget> {
    assertSafeKey(key);
    const command = new UploadPartCommand({
      Bucket: this.bucket,
      Key: key,
      UploadId: uploadId,
      PartNumber: part.partNumber,
      ChecksumSHA1: part.sha1,
    });
    // The checksum stays a signed header (not hoisted into the query): the client must send
    // exactly this value, and S3 checks the part's bytes against it.
    const url = await getSignedUrl(this.client, command, {
      expiresIn: expiresSeconds,
      unhoistableHeaders: new Set(['x-amz-checksum-sha1']),
    });
    return { url, headers: { 'x-amz-checksum-sha1': part.sha1 } };
  }

  async listParts(key: string, uploadId: string): Promise<ReceivedPart[]> {
    assertSafeKey(key);
    const parts: ReceivedPart[] = [];
    let marker: string | undefined;
    try {
      do {
        const page = await this.client.send(
          new ListPartsCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, ...(marker ? { PartNumberMarker: marker } : {}) }),
        );
        for (const part of page.Parts ?? []) {
          if (part.PartNumber !== undefined) parts.push({ partNumber: part.PartNumber, size: part.Size ?? 0, etag: part.ETag ?? '' });
        }
        marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
      } while (marker);
    } catch (error) {
      // Aborted (or expired by the bucket's lifecycle rule): nothing is held.
      if (isNoSuchUpload(error)) return [];
      throw error;
    }
    return parts;
  }

  async completeMultipart(key: string, uploadId: string, parts: readonly PartChecksum[]): Promise<StoredObject> {
    const received = new Map((await this.listParts(key, uploadId)).map((part) => [part.partNumber, part]));
    const result = await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: {
          Parts: parts.map((part) => ({
            PartNumber: part.partNumber,
            ETag: received.get(part.partNumber)?.etag,
            ChecksumSHA1: part.sha1,
          })),
        },
      }),
    );
    return result.VersionId ? { key, version: result.VersionId } : { key };
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    assertSafeKey(key);
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
    } catch (error) {
      if (!isNoSuchUpload(error)) throw error;
    }
  }
}
