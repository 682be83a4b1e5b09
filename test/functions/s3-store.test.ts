import { mkdtempSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as serveFileHandler } from '#functions/asset/serve-file.ts';
import { handler as downloadHandler } from '#functions/download/download-file.ts';
import { handler as downloadAssetV3 } from '#functions/v3/asset/download-asset.ts';
import { handler as viewAssetV3 } from '#functions/v3/asset/view-asset.ts';
import { originalsStore, resetOriginalsStore } from '#shared/storage/originals.ts';
import { S3Store } from '#shared/storage/s3-store.ts';
import { setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { trash } from '../support/library.ts';
import { makeJpeg, makeSidecar } from '../support/photos.ts';
import { upload } from '../support/uploads.ts';

// A real S3-compatible server on loopback (s3rver), not a mock: the same SDK calls as in AWS.
const bucket = 'originals';
let server: S3rver;
let client: S3Client;
let accounts: Awaited<ReturnType<typeof setupAccounts>>;

beforeAll(async () => {
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: mkdtempSync(join(tmpdir(), 's3rver-')),
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = (await server.run()) as { port: number };
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
    S3_FORCE_PATH_STYLE: 'true',
    ORIGINALS_BUCKET: bucket,
    // s3rver's fixed credentials; DynamoDB Local runs with a shared database and accepts any.
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
  });
  resetOriginalsStore();
  client = new S3Client({ forcePathStyle: true });
  accounts = await setupAccounts();
});

afterAll(async () => {
  await server.close();
  delete process.env.ORIGINALS_BUCKET;
  resetOriginalsStore();
});

const keysInBucket = async (): Promise<string[]> => {
  const result = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (result.Contents ?? []).map((object) => object.Key ?? '').sort();
};

describe('S3 originals store', () => {
  it('puts, gets and deletes objects', async () => {
    const store = new S3Store(bucket);
    const stored = await store.put('upload/test/ab/cd/object.jpg', Buffer.from('bytes'), 'image/jpeg');
    expect(stored.key).toBe('upload/test/ab/cd/object.jpg');
    expect((await store.get(stored.key))?.toString()).toBe('bytes');
    await store.delete([stored]);
    expect(await store.get(stored.key)).toBeUndefined();
  });

  it('refuses keys outside the upload layout', async () => {
    const store = new S3Store(bucket);
    await expect(store.put('../etc/passwd', Buffer.from('x'), 'text/plain')).rejects.toThrow(/Refusing storage key/);
    await expect(store.put('upload/../../x', Buffer.from('x'), 'text/plain')).rejects.toThrow(/Refusing storage key/);
  });

  it('an upload puts the original in the bucket under its originalPath', async () => {
    expect(await originalsStore()).toBeInstanceOf(S3Store);
    const data = makeJpeg({ make: 'S3' });
    const reply = await upload(accounts.user1.accessToken, { data });
    expect(reply.status).toBe(201);
    const keys = await keysInBucket();
    const key = keys.find((k) => k.includes(reply.body.id));
    expect(key).toMatch(new RegExp(`^upload/${accounts.user1.userId}/.+/${reply.body.id}\\.jpg$`));
    expect((await (await originalsStore()).get(key ?? ''))?.equals(data)).toBe(true);
  });

  it('concurrent uploads of one file leave exactly one object (the loser removes its own)', async () => {
    const before = await keysInBucket();
    const data = makeJpeg({ make: 'Race' });
    const replies = await Promise.all(Array.from({ length: 3 }, () => upload(accounts.user2.accessToken, { data })));
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 200, 201]);
    const after = await keysInBucket();
    expect(after.length).toBe(before.length + 1);
  });
});

describe('files from the bucket', () => {
  it('answers a file with a 302 to a short-lived presigned URL (not cached), which serves the bytes, ranges and the download name', async () => {
    const token = accounts.user1.accessToken;
    const data = makeJpeg({ make: 'Presigned' });
    const id = (await upload(token, { data, fileName: 'presigned.jpg' })).body.id as string;
    const headers = { authorization: `Bearer ${token}` };
    const reply = await invoke(serveFileHandler, { path: `/api/asset/file/${id}`, headers, pathParameters: { id } });
    expect(reply.status).toBe(302);
    expect(reply.headers['cache-control']).toBe('private, no-store');
    const location = new URL(reply.headers.location ?? '');
    expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(location.searchParams.get('response-cache-control')).toBe('private, max-age=86400, no-transform');
    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(data)).toBe(true);
    const part = await fetch(location, { headers: { range: 'bytes=2-5' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(data.subarray(2, 6))).toBe(true);
    const download = await invoke(downloadHandler, { method: 'POST', path: `/api/download/asset/${id}`, headers, pathParameters: { id } });
    expect(new URL(download.headers.location ?? '').searchParams.get('response-content-disposition')).toBe(
      'attachment; filename="presigned.jpg"',
    );
  });
});

describe('HEAD of a file (the web app’s Cast asks its type first)', () => {
  // S3 signs the method into a presigned URL: one signed for GET answers a HEAD with 403 (s3rver does not check it).
  it('answers the file’s headers itself, with no redirect to a URL presigned for GET', async () => {
    const token = accounts.user1.accessToken;
    const data = makeJpeg({ make: 'Cast' });
    const id = (await upload(token, { data, fileName: 'cast.jpg' })).body.id as string;
    const head = (handler: typeof viewAssetV3, route: string) =>
      invoke(handler, {
        method: 'HEAD',
        path: `/api/assets/${id}/${route}`,
        query: { sessionKey: token },
        routeKey: `HEAD /api/assets/{id}/${route}`,
        pathParameters: { id },
      });
    const original = await head(downloadAssetV3, 'original');
    expect(original).toMatchObject({ status: 200, body: '' });
    expect(original.headers).toMatchObject({ 'content-type': 'image/jpeg', 'content-disposition': "inline; filename*=UTF-8''cast.jpg" });
    expect(original.headers.location).toBeUndefined();
    // The GET still redirects to the bucket.
    const get = await invoke(downloadAssetV3, { path: `/api/assets/${id}/original`, query: { sessionKey: token }, pathParameters: { id } });
    expect(get.status).toBe(302);
    // A preview not made yet is Immich's 404, as the GET's.
    expect((await head(viewAssetV3, 'thumbnail')).status).toBe(404);
  });
});

describe('storage classes', () => {
  it('puts originals of 128 KB or more in Intelligent-Tiering and smaller objects (sidecars) in Standard', async () => {
    const store = new S3Store(bucket);
    // What the real PutObject calls ask for (s3rver stores every object as STANDARD whatever it is told).
    const asked = new Map<string, unknown>();
    store.client.middlewareStack.add(
      (next) => async (args) => {
        const input = args.input as { Key?: string; StorageClass?: string };
        if (input.Key) asked.set(input.Key, input.StorageClass);
        return next(args);
      },
      { step: 'initialize', name: 'storage-class' },
    );
    await store.put('upload/u/ab/cd/large.jpg', Buffer.alloc(200 * 1024, 1), 'image/jpeg');
    await store.put('upload/u/ab/cd/large.jpg.xmp', Buffer.from('<x:xmpmeta/>'), 'application/xml');
    expect(Object.fromEntries(asked)).toEqual({
      'upload/u/ab/cd/large.jpg': 'INTELLIGENT_TIERING',
      'upload/u/ab/cd/large.jpg.xmp': 'STANDARD',
    });
    expect(await keysInBucket()).toEqual(expect.arrayContaining(['upload/u/ab/cd/large.jpg', 'upload/u/ab/cd/large.jpg.xmp']));
  });
});

describe('a versioned bucket', () => {
  // s3rver keeps no versions. In front of it, this proxy answers each PUT with the version id a
  // versioned S3 bucket would give (x-amz-version-id) and records every DELETE it passes on.
  let proxy: Server;
  let s3Endpoint = '';
  const deletes: string[] = [];
  const versions = new Map<string, string>();
  beforeAll(async () => {
    s3Endpoint = process.env.AWS_ENDPOINT_URL_S3 ?? '';
    proxy = createServer((req, res) => {
      const path = req.url ?? '/';
      const key = decodeURIComponent(new URL(path, 'http://x').pathname.slice(`/${bucket}/`.length));
      if (req.method === 'DELETE') deletes.push(path);
      const upstream = request(new URL(path, s3Endpoint), { method: req.method, headers: req.headers }, (answer) => {
        const headers = { ...answer.headers };
        if (req.method === 'PUT' && answer.statusCode === 200) {
          const version = `v${versions.size + 1}.${Date.now()}`;
          versions.set(key, version);
          headers['x-amz-version-id'] = version;
        }
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    process.env.AWS_ENDPOINT_URL_S3 = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    resetOriginalsStore();
  });
  afterAll(() => {
    process.env.AWS_ENDPOINT_URL_S3 = s3Endpoint;
    resetOriginalsStore();
    proxy.close();
  });

  it('a force delete removes the exact versions the upload wrote (original and sidecar), leaving nothing billed behind', async () => {
    const data = makeJpeg({ make: 'Versioned' });
    const reply = await upload(accounts.user1.accessToken, { data, sidecar: makeSidecar({ description: 'kept' }) });
    expect(reply.status).toBe(201);
    const keys = [...versions.keys()].filter((key) => key.includes(reply.body.id));
    expect(keys).toHaveLength(2);
    expect((await trash(accounts.user1.accessToken, [reply.body.id], true)).status).toBe(204);
    const deleted = deletes
      .filter((path) => path.includes(reply.body.id))
      .map((path) => new URL(path, 'http://x'))
      .map((url) => [decodeURIComponent(url.pathname.slice(`/${bucket}/`.length)), url.searchParams.get('versionId')]);
    expect(Object.fromEntries(deleted)).toEqual(Object.fromEntries(keys.map((key) => [key, versions.get(key)])));
    expect((await keysInBucket()).filter((key) => key.includes(reply.body.id))).toEqual([]);
  });
});
