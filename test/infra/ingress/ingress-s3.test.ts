import { mkdtempSync, readdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectTaggingCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as getAssetInfoV3 } from '#functions/v3/asset/get-asset-info.ts';
import { createIngress } from '#infra/ingress/server.ts';
import { resetOriginalsStore } from '#shared/storage/originals.ts';
import { bearer, freshUser, setupAccounts } from '../../support/accounts.ts';
import { invoke } from '../../support/invoke.ts';
import { send, streamedForm } from './client.ts';
import { type S3Call, startS3Proxy } from './s3-proxy.ts';

// The S3 path of the ingress on a real S3-compatible server (s3rver), behind a proxy that records
// the calls: multipart uploads, their tags, their abort.
const bucket = 'originals';
const s3Dir = mkdtempSync(join(tmpdir(), 's3rver-ingress-'));
let s3: S3rver;
let proxy: { server: Server; port: number; calls: S3Call[] };
let client: S3Client;
let ingress: Server;
let port: number;
let accounts: Awaited<ReturnType<typeof setupAccounts>>;
const finished: number[] = [];
const waiters: (() => void)[] = [];
const finishedCount = (count: number): Promise<void> =>
  new Promise((resolve) => {
    const check = () => (finished.length >= count ? resolve() : waiters.push(check));
    check();
  });

beforeAll(async () => {
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port: s3Port } = (await s3.run()) as { port: number };
  proxy = await startS3Proxy({ port: s3Port, directory: s3Dir });
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${proxy.port}`,
    S3_FORCE_PATH_STYLE: 'true',
    ORIGINALS_BUCKET: bucket,
    // s3rver's fixed credentials; DynamoDB Local accepts any.
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
  });
  resetOriginalsStore();
  client = new S3Client({ forcePathStyle: true });
  accounts = await setupAccounts();
  ingress = createIngress({
    onFinished: (status) => {
      finished.push(status);
      for (const waiter of waiters.splice(0)) waiter();
    },
  });
  await new Promise<void>((resolve) => ingress.listen(0, '127.0.0.1', resolve));
  port = (ingress.address() as AddressInfo).port;
});

afterAll(async () => {
  ingress.closeAllConnections();
  await new Promise((resolve) => ingress.close(resolve));
  await new Promise((resolve) => proxy.server.close(resolve));
  await s3.close();
  delete process.env.ORIGINALS_BUCKET;
  resetOriginalsStore();
});

const keysOf = async (userId: string): Promise<string[]> => {
  const result = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `upload/${userId}/` }));
  return (result.Contents ?? []).map((object) => object.Key ?? '');
};
/** s3rver's unfinished multipart uploads (infra/local/deployed/s3-multipart.ts). */
const unfinishedUploads = (): string[] => {
  try {
    return readdirSync(join(s3Dir, bucket, '._S3rver_uploads'));
  } catch {
    return [];
  }
};
const fields = (name: string) => ({
  deviceAssetId: `${name}-id`,
  deviceId: 'phone',
  fileCreatedAt: '2024-05-06T07:08:09.000Z',
  fileModifiedAt: '2024-05-06T07:08:09.000Z',
});

describe('the ingress on S3', () => {
  it('writes a large file as a multipart upload tagged ingress=pending, and clears the tag once recorded', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'S3Video');
    const form = streamedForm(fields('s3-video'), { fileName: 'clip.mp4', size: 20 * 1024 * 1024, contentType: 'video/mp4' });
    const from = proxy.calls.length;
    const answer = await send(port, '/api/assets', { ...bearer(user.accessToken), ...form.headers }, { kind: 'stream', data: form.body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const [key, ...others] = await keysOf(user.id);
    expect(others).toEqual([]);
    expect(key).toContain(String(answer.body.id));

    const calls = proxy.calls.slice(from).filter((call) => call.path.endsWith('.mp4'));
    const created = calls.find((call) => call.method === 'POST' && call.query.has('uploads'));
    expect(created?.tagging).toBe('ingress=pending');
    expect(calls.filter((call) => call.method === 'PUT' && call.query.has('partNumber')).length).toBeGreaterThanOrEqual(2);
    expect(calls.some((call) => call.method === 'PUT' && call.query.has('tagging'))).toBe(true);
    const tags = await client.send(new GetObjectTaggingCommand({ Bucket: bucket, Key: key }));
    expect(tags.TagSet ?? []).toEqual([]);

    const asset = await invoke(getAssetInfoV3, {
      path: `/api/assets/${answer.body.id}`,
      pathParameters: { id: String(answer.body.id) },
      headers: bearer(user.accessToken),
    });
    expect(asset.body).toMatchObject({ type: 'VIDEO', checksum: Buffer.from(form.checksum(), 'hex').toString('base64') });
  });

  it('aborts the multipart upload when the client goes away after some parts, leaving no object and no upload', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'S3Gone');
    const form = streamedForm(fields('s3-gone'), { fileName: 'gone.mp4', size: 40 * 1024 * 1024 }, { cutAfter: 20 * 1024 * 1024 });
    const from = proxy.calls.length;
    const done = finishedCount(finished.length + 1);
    await send(port, '/api/assets', { ...bearer(user.accessToken), ...form.headers }, { kind: 'cut', data: form.body });
    await done;
    expect(finished.at(-1)).toBe(499);
    const calls = proxy.calls.slice(from).filter((call) => call.path.endsWith('.mp4'));
    expect(calls.some((call) => call.method === 'POST' && call.query.has('uploads'))).toBe(true);
    expect(calls.some((call) => call.method === 'DELETE' && call.query.has('uploadId'))).toBe(true);
    expect(unfinishedUploads()).toEqual([]);
    expect(await keysOf(user.id)).toEqual([]);
  });

  it('removes the stored file when the record step refuses it (a corrupt image)', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'S3Corrupt');
    const form = streamedForm(fields('s3-corrupt'), { fileName: 'broken.jpg', size: 10 * 1024 * 1024, contentType: 'image/jpeg' });
    const answer = await send(port, '/api/assets', { ...bearer(user.accessToken), ...form.headers }, { kind: 'stream', data: form.body });
    expect(answer).toMatchObject({ status: 400, body: { message: 'Corrupt or unreadable image file broken.jpg' } });
    expect(await keysOf(user.id)).toEqual([]);
    expect(unfinishedUploads()).toEqual([]);
  });
});
