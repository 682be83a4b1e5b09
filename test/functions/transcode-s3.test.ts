import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as transcodeVideo } from '#functions/media/transcode-video.ts';
import { handler as v3PlaybackHandler } from '#functions/v3/asset/play-asset-video.ts';
import * as assetRepo from '#shared/db/asset.repository.ts';
import { encodedVideoKey } from '#shared/domain/media-files.ts';
import { resetOriginalsStore } from '#shared/storage/originals.ts';
import { bearer, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { assetInfo } from '../support/library.ts';
import { upload } from '../support/uploads.ts';
import { makeVideo } from '../support/videos.ts';

// The deployed form's storage: originals in a real S3-compatible server on loopback (s3rver, as
// test/functions/s3-store.test.ts), which ffprobe and ffmpeg read through presigned URLs, and a
// loopback server in MediaConvert's place (AWS_ENDPOINT_URL_MEDIACONVERT) recording the CreateJob
// requests the real client sends.
const bucket = 'originals';
let s3: S3rver;
let client: S3Client;
let accounts: Awaited<ReturnType<typeof setupAccounts>>;
const created: { url?: string; body: Record<string, any> }[] = [];
const mediaConvert = createServer((req: IncomingMessage, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    created.push({ url: req.url, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ job: { id: `1700000000000-${created.length}`, status: 'SUBMITTED' } }));
  });
});
const saved = { ...process.env };

beforeAll(async () => {
  s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: mkdtempSync(join(tmpdir(), 's3rver-')),
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = (await s3.run()) as { port: number };
  await new Promise<void>((resolve) => mediaConvert.listen(0, '127.0.0.1', resolve));
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
    S3_FORCE_PATH_STYLE: 'true',
    ORIGINALS_BUCKET: bucket,
    AWS_ENDPOINT_URL_MEDIACONVERT: `http://127.0.0.1:${(mediaConvert.address() as AddressInfo).port}`,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
  });
  resetOriginalsStore();
  client = new S3Client({ forcePathStyle: true });
  accounts = await setupAccounts();
});

afterAll(async () => {
  process.env = saved;
  resetOriginalsStore();
  await s3.close();
  await new Promise<void>((resolve) => mediaConvert.close(() => resolve()));
});

const objectSize = async (key: string): Promise<number | undefined> =>
  client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
    (head) => head.ContentLength,
    () => undefined,
  );

const uploadHevc = async (token: string, seconds: number): Promise<string> => {
  const reply = await upload(token, { data: makeVideo({ container: 'mov', width: 320, height: 240, seconds }), fileName: 'IMG_0100.MOV' });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
};

describe('transcoding with originals in S3', () => {
  it('probes and encodes the original from a presigned URL, streams the encoded version to the bucket, and playback redirects to it', async () => {
    const token = accounts.user1.accessToken;
    const id = await uploadHevc(token, 1);
    expect((await transcodeVideo({ jobs: [{ kind: 'transcode', assetId: id, force: true }] })).outcomes).toEqual({
      [`transcode/${id}`]: 'encoded',
    });
    const key = encodedVideoKey({ id, ownerId: accounts.user1.userId });
    expect((await assetRepo.get(id))?.encodedVideoPath).toBe(key);
    const size = await objectSize(key);
    expect(size).toBeGreaterThan(1000);
    const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    expect(object.ContentType).toBe('video/mp4');
    // An MP4 (`ftyp` at offset 4), H.264 (`avc1`) as the settings' default target.
    const bytes = Buffer.from(await (object.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(bytes.includes(Buffer.from('avc1'))).toBe(true);
    const reply = await invoke(v3PlaybackHandler, {
      path: `/api/assets/${id}/video/playback`,
      headers: bearer(token),
      pathParameters: { id },
    });
    expect(reply.status).toBe(302);
    const location = new URL(String(reply.headers.location));
    expect(location.pathname).toBe(`/${bucket}/${key}`);
    expect(location.searchParams.get('response-content-type')).toBe('video/mp4');
    expect(created).toHaveLength(0);
  });

  it('hands a video over TRANSCODE_LAMBDA_MAX_SECONDS to MediaConvert (S3 to S3), and records its output when it completes', async () => {
    const token = accounts.user1.accessToken;
    const id = await uploadHevc(token, 2);
    const { originalPath } = (await assetInfo(token, id)).body;
    Object.assign(process.env, { TRANSCODE_LAMBDA_MAX_SECONDS: '1', MEDIACONVERT_ROLE_ARN: 'arn:aws:iam::123456789012:role/MediaConvert' });
    try {
      expect((await transcodeVideo({ jobs: [{ kind: 'transcode', assetId: id, force: true }] })).outcomes).toEqual({
        [`transcode/${id}`]: 'submitted',
      });
      // A short one is still the function's own.
      const short = await uploadHevc(token, 0.5);
      expect((await transcodeVideo({ jobs: [{ kind: 'transcode', assetId: short, force: true }] })).outcomes).toEqual({
        [`transcode/${short}`]: 'encoded',
      });
    } finally {
      delete process.env.TRANSCODE_LAMBDA_MAX_SECONDS;
      delete process.env.MEDIACONVERT_ROLE_ARN;
    }
    expect(created).toHaveLength(1);
    const job = created[0]?.body as Record<string, any>;
    const key = encodedVideoKey({ id, ownerId: accounts.user1.userId });
    expect(job.role).toBe('arn:aws:iam::123456789012:role/MediaConvert');
    expect(job.userMetadata).toMatchObject({ assetId: id, ownerId: accounts.user1.userId });
    expect(job.settings.inputs[0].fileInput).toBe(`s3://${bucket}/${originalPath}`);
    const group = job.settings.outputGroups[0];
    expect(`${group.outputGroupSettings.fileGroupSettings.destination}${group.outputs[0].nameModifier}.${group.outputs[0].extension}`).toBe(
      `s3://${bucket}/${key}`,
    );
    // Nothing recorded until it completes.
    expect((await assetRepo.get(id))?.encodedVideoPath).toBeUndefined();
    const completed = {
      source: 'aws.mediaconvert',
      'detail-type': 'MediaConvert Job State Change',
      detail: {
        jobId: '1700000000000-1',
        status: 'COMPLETE',
        userMetadata: job.userMetadata,
        outputGroupDetails: [{ outputDetails: [{ outputFilePaths: [`s3://${bucket}/${key}`] }] }],
      },
    };
    // A state on the way is no completion.
    expect((await transcodeVideo({ ...completed, detail: { ...completed.detail, status: 'PROGRESSING' } })).outcomes).toEqual({
      [`mediaconvert/${id}`]: 'ignored',
    });
    expect((await transcodeVideo(completed)).outcomes).toEqual({ [`mediaconvert/${id}`]: 'encoded' });
    expect((await assetRepo.get(id))?.encodedVideoPath).toBe(key);
  });
});
