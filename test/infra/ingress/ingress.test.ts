import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as getAssetInfoV1 } from '#functions/asset/get-asset-info.ts';
import { handler as createLinkHandler } from '#functions/shared-link/create-shared-link.ts';
import { handler as createKeyV3 } from '#functions/v3/api-key/create-api-key.ts';
import { handler as deleteAssetsV3 } from '#functions/v3/asset/delete-assets.ts';
import { handler as getAssetInfoV3 } from '#functions/v3/asset/get-asset-info.ts';
import { handler as getStatisticsV3 } from '#functions/v3/asset/get-asset-statistics.ts';
import { handler as updateUserAdmin } from '#functions/v3/user-admin/update-user-admin.ts';
import { heartbeat } from '#infra/ingress/health.ts';
import { createIngress } from '#infra/ingress/server.ts';
import { bearer, freshUser, setupAccounts } from '../../support/accounts.ts';
import { invoke } from '../../support/invoke.ts';
import { albumInfo, createAlbum } from '../../support/library.ts';
import { makeJpeg, makeSidecar } from '../../support/photos.ts';
import { cliFields, multipart, sha1, storedFiles } from '../../support/uploads.ts';
import { makeVideo } from '../../support/videos.ts';
import { type Answer, type Body, send, streamedForm } from './client.ts';

// A full collection on demand (V8's own gc, exposed here): memory is measured as what is live.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
let server: Server;
let port: number;
/** Each finished upload request's status, in order, after its cleanup (the server's own hook). */
const finished: number[] = [];
const waiters: (() => void)[] = [];
const originVerify = 'from-the-distribution';

/** Resolves once what the finished requests' statuses show is true (their cleanup done). */
const finishedWhen = (ready: (statuses: number[]) => boolean): Promise<void> =>
  new Promise((resolve) => {
    const check = () => {
      if (ready(finished)) resolve();
      else waiters.push(check);
    };
    check();
  });
const finishedCount = (count: number): Promise<void> => finishedWhen((statuses) => statuses.length >= count);

beforeAll(async () => {
  accounts = await setupAccounts();
  server = createIngress({
    originVerify,
    userConcurrency: 2,
    maxConcurrency: 8,
    onFinished: (status) => {
      finished.push(status);
      for (const waiter of waiters.splice(0)) waiter();
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const headersOf = (token: string, extra: Record<string, string> = {}) => ({ 'x-origin-verify': originVerify, ...bearer(token), ...extra });

const post = async (path: string, token: string, fields: Record<string, string>, files: Parameters<typeof multipart>[1], extra = {}) => {
  const { body, contentType } = await multipart(fields, files);
  return send(port, path, headersOf(token, { 'content-type': contentType, ...extra }), { kind: 'buffer', data: body });
};

const assetV3 = async (token: string, id: string) =>
  (await invoke(getAssetInfoV3, { path: `/api/assets/${id}`, pathParameters: { id }, headers: bearer(token) })).body;
const assetCount = async (token: string) =>
  (await invoke(getStatisticsV3, { path: '/api/assets/statistics', headers: bearer(token) })).body.total as number;
const originalsOf = async (userId: string) => (await storedFiles()).filter((path) => path.includes(userId));

const v3Fields = (name: string) => ({
  deviceAssetId: `${name}-id`,
  deviceId: 'phone',
  fileCreatedAt: '2024-05-06T07:08:09.000Z',
  fileModifiedAt: '2024-05-06T07:08:09.000Z',
});

describe('the ingress', () => {
  it('answers its health, refuses a request without the distribution header, and any other route with a 404', async () => {
    const health = await send(port, '/health', {}, { kind: 'buffer', data: Buffer.alloc(0) }, 'GET');
    expect(health).toMatchObject({ status: 200, body: { healthy: true } });
    const direct = await send(port, '/api/assets', bearer(accounts.user1.accessToken), { kind: 'none' });
    expect(direct).toMatchObject({ status: 403, body: { message: 'Forbidden' } });
    const other = await send(port, '/api/albums', { 'x-origin-verify': originVerify }, { kind: 'none' });
    expect(other).toMatchObject({ status: 404, body: { message: 'Cannot POST /api/albums', statusCode: 404 } });
  });

  it("stores a v3 upload as the API route does, and answers the same file again as Immich's duplicate", async () => {
    const photo = makeJpeg({ make: 'Pixel', model: 'Pixel 8', dateTimeOriginal: '2024:05:06 07:08:09', width: 80, height: 60 });
    const created = await post('/api/assets', accounts.user1.accessToken, v3Fields('v3-photo'), {
      assetData: { data: photo, fileName: 'IMG_1.jpg' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), status: 'created' });
    const asset = await assetV3(accounts.user1.accessToken, String(created.body.id));
    expect(asset).toMatchObject({
      originalFileName: 'IMG_1.jpg',
      checksum: sha1(photo, 'base64'),
      type: 'IMAGE',
      exifInfo: { make: 'Pixel', model: 'Pixel 8', fileSizeInByte: photo.length, exifImageWidth: 80 },
    });

    const again = await post('/api/assets', accounts.user1.accessToken, v3Fields('v3-photo-again'), {
      assetData: { data: photo, fileName: 'IMG_1.jpg' },
    });
    expect(again).toMatchObject({ status: 200, body: { id: created.body.id, status: 'duplicate' } });
  });

  it('answers an early duplicate from x-immich-checksum before any byte of the body (hex and base64)', async () => {
    const photo = makeJpeg();
    const created = await post('/api/assets', accounts.user1.accessToken, v3Fields('early'), {
      assetData: { data: photo, fileName: 'early.jpg' },
    });
    expect(created.status).toBe(201);
    for (const checksum of [sha1(photo), sha1(photo, 'base64')]) {
      const early = await send(
        port,
        '/api/assets',
        headersOf(accounts.user1.accessToken, {
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': '99999999',
          'x-immich-checksum': checksum,
        }),
        { kind: 'none' },
      );
      expect(early).toMatchObject({ status: 200, body: { id: created.body.id, status: 'duplicate' } });
    }
    const v1 = await send(
      port,
      '/api/asset/upload',
      headersOf(accounts.user1.accessToken, {
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': '99999999',
        'x-immich-checksum': sha1(photo),
      }),
      { kind: 'none' },
    );
    expect(v1).toMatchObject({ status: 200, body: { id: created.body.id, duplicate: true } });
  });

  it("stores a v1.100 upload with its live photo's video and its sidecar", async () => {
    const photo = makeJpeg({ width: 40, height: 30 });
    const video = makeVideo({ seconds: 1, width: 64, height: 48 });
    const sidecar = makeSidecar({ description: 'From the sidecar' });
    const created = await post('/api/asset/upload', accounts.user1.accessToken, cliFields('IMG_2.jpg', photo.length), {
      assetData: { data: photo, fileName: 'IMG_2.jpg' },
      livePhotoData: { data: video, fileName: 'IMG_2.mov' },
      sidecarData: { data: sidecar, fileName: 'IMG_2.jpg.xmp' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), duplicate: false });
    const id = String(created.body.id);
    const asset = (
      await invoke(getAssetInfoV1, { path: `/api/asset/${id}`, pathParameters: { id }, headers: bearer(accounts.user1.accessToken) })
    ).body;
    expect(asset).toMatchObject({
      checksum: sha1(photo, 'base64'),
      livePhotoVideoId: expect.any(String),
      exifInfo: { description: 'From the sidecar' },
    });
    const motion = await assetV3(accounts.user1.accessToken, String(asset.livePhotoVideoId));
    expect(motion).toMatchObject({ type: 'VIDEO', checksum: sha1(video, 'base64') });
  });

  it('refuses a key without asset.upload from its headers, before any byte of the body', async () => {
    const key = await invoke(createKeyV3, {
      method: 'POST',
      path: '/api/api-keys',
      headers: bearer(accounts.user2.accessToken),
      body: { name: 'read-only', permissions: ['asset.read'] },
    });
    expect(key.status).toBe(201);
    const refused = await send(
      port,
      '/api/assets',
      {
        'x-origin-verify': originVerify,
        'x-api-key': String(key.body.secret),
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': '5000000',
      },
      { kind: 'none' },
    );
    expect(refused).toMatchObject({ status: 403, body: { message: 'Missing required permission: asset.upload' } });
    const anonymous = await send(
      port,
      '/api/asset/upload',
      { 'x-origin-verify': originVerify, 'content-length': '5000000' },
      { kind: 'none' },
    );
    expect(anonymous).toMatchObject({ status: 401, body: { statusCode: 401 } });
  });

  it("refuses a declared length over the user's quota before the body, and a body that grows past it while streaming", async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Quota');
    const quota = 2 * 1024 * 1024;
    const set = await invoke(updateUserAdmin, {
      method: 'PUT',
      path: `/api/admin/users/${user.id}`,
      pathParameters: { id: user.id },
      body: { quotaSizeInBytes: quota },
      headers: bearer(accounts.admin.accessToken),
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const before = await send(
      port,
      '/api/assets',
      headersOf(user.accessToken, { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(5 * 1024 * 1024) }),
      { kind: 'none' },
    );
    expect(before).toMatchObject({ status: 400, body: { message: 'Quota has been exceeded!' } });

    // No declared length (chunked): the running count stops it.
    const form = streamedForm(v3Fields('big'), { fileName: 'big.mp4', size: 3 * 1024 * 1024 });
    const { 'content-length': _, ...chunked } = form.headers;
    const done = finishedCount(finished.length + 1);
    const during = await send(port, '/api/assets', headersOf(user.accessToken, chunked), { kind: 'stream', data: form.body });
    await done;
    expect(during).toMatchObject({ status: 400, body: { message: 'Quota has been exceeded!' } });
    expect(await originalsOf(user.id)).toEqual([]);
    expect(await assetCount(user.accessToken)).toBe(0);
  });

  it('leaves no object and no asset when the client goes away half-way', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Gone');
    const form = streamedForm(v3Fields('gone'), { fileName: 'gone.mp4', size: 20 * 1024 * 1024 }, { cutAfter: 9 * 1024 * 1024 });
    const done = finishedCount(finished.length + 1);
    await send(port, '/api/assets', headersOf(user.accessToken, form.headers), { kind: 'cut', data: form.body });
    await done;
    expect(finished.at(-1)).toBe(499);
    expect(await storedFiles().then((files) => files.filter((path) => path.includes(user.id) || path.endsWith('.partial')))).toEqual([]);
    expect(await assetCount(user.accessToken)).toBe(0);
  });

  it('refuses a file that does not match its x-immich-checksum, and broken multipart, storing nothing', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Mismatch');
    const photo = makeJpeg();
    const mismatch = await post(
      '/api/assets',
      user.accessToken,
      v3Fields('mismatch'),
      { assetData: { data: photo, fileName: 'm.jpg' } },
      {
        'x-immich-checksum': sha1(Buffer.from('something else')),
      },
    );
    expect(mismatch).toMatchObject({ status: 400, body: { message: 'The file does not match its x-immich-checksum header' } });
    // A header that is no SHA-1 says nothing (as for the early duplicate): the upload goes on.
    const noSha1 = await post(
      '/api/assets',
      user.accessToken,
      v3Fields('no-sha1'),
      { assetData: { data: photo, fileName: 'm.jpg' } },
      {
        'x-immich-checksum': 'zz',
      },
    );
    expect(noSha1.status, JSON.stringify(noSha1.body)).toBe(201);
    await invoke(deleteAssetsV3, {
      method: 'DELETE',
      path: '/api/assets',
      headers: bearer(user.accessToken),
      body: { ids: [noSha1.body.id], force: true },
    });
    const form = streamedForm(v3Fields('broken'), { fileName: 'broken.mp4', size: 1024 * 1024 }, { cutAfter: 512 * 1024 });
    const chunks: Buffer[] = [];
    for await (const chunk of form.body) chunks.push(chunk as Buffer);
    const broken = await send(
      port,
      '/api/assets',
      headersOf(user.accessToken, { ...form.headers, 'content-length': String(Buffer.concat(chunks).length) }),
      {
        kind: 'buffer',
        data: Buffer.concat(chunks),
      },
    );
    expect(broken).toMatchObject({ status: 400, body: { message: 'Unexpected end of form' } });
    // Not a form at all: refused as a form without its file, before any byte of the body.
    const notForm = await send(
      port,
      '/api/assets',
      headersOf(user.accessToken, { 'content-type': 'application/json', 'content-length': '5000000' }),
      {
        kind: 'none',
      },
    );
    expect(notForm).toMatchObject({ status: 400, body: { message: 'Field(s) assetData should not be empty' } });
    expect(await originalsOf(user.id)).toEqual([]);
    expect(await assetCount(user.accessToken)).toBe(0);
  });

  it('answers 429 with retry-after past the per-user limit of uploads at once', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Busy');
    const held = [0, 1].map(() => {
      const form = streamedForm(v3Fields('held'), { fileName: 'held.mp4', size: 8 * 1024 * 1024 }, { cutAfter: 64 * 1024 });
      return { form, answer: undefined as Promise<Answer> | undefined };
    });
    // Two uploads whose bodies stop early: they hold both of the user's slots until cut. Each asks
    // for leave to send its body (Expect: 100-continue), which the ingress gives only once the
    // upload holds its slot: so both are in before the third is sent, however busy the machine.
    const mark = finished.length;
    const bodies = held.map(({ form }) => {
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let admitted: () => void = () => undefined;
      const inside = new Promise<void>((resolve) => {
        admitted = resolve;
      });
      const data = Readable.from(
        (async function* () {
          for await (const chunk of form.body) yield chunk as Buffer;
          await gate;
        })(),
      );
      return { release, inside, body: { kind: 'cut', data, admitted } as Body };
    });
    const running = bodies.map(({ body }, index) =>
      send(port, '/api/assets', headersOf(user.accessToken, { ...held[index]?.form.headers, expect: '100-continue' }), body),
    );
    // (A held upload answered instead of admitted ends its wait too: the check below then fails.)
    await Promise.all(bodies.map(({ inside }, index) => Promise.race([inside, running[index]])));
    // A third, complete (and broken) one: refused, both slots being held.
    const third: Answer = await send(
      port,
      '/api/assets',
      headersOf(user.accessToken, { 'content-type': 'multipart/form-data; boundary=x', 'content-length': '1' }),
      { kind: 'buffer', data: Buffer.from('x') },
    );
    expect(third).toMatchObject({ status: 429, headers: { 'retry-after': '30' } });
    expect(third?.body.message).toBe('Too many uploads at once from this user; try again later');
    for (const { release } of bodies) release();
    await Promise.all(running);
    await finishedWhen((statuses) => statuses.slice(mark).filter((status) => status === 499).length >= 2);
    expect(await originalsOf(user.id)).toEqual([]);
  });

  it('streams a 50 MB video with the process memory bounded, and records it with its size and checksum', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Video');
    const size = 50 * 1024 * 1024;
    const form = streamedForm(v3Fields('video'), { fileName: 'long.mp4', size, contentType: 'video/mp4' });
    // What is live (after a collection), sampled while the body streams through the process: the
    // client's chunks are garbage as soon as they are sent, and would otherwise be counted.
    collectGarbage();
    const before = process.memoryUsage();
    let peakHeap = before.heapUsed;
    let peakBuffers = before.arrayBuffers;
    const sampleEveryMs = 250;
    const sampler = setInterval(() => {
      collectGarbage();
      const now = process.memoryUsage();
      peakHeap = Math.max(peakHeap, now.heapUsed);
      peakBuffers = Math.max(peakBuffers, now.arrayBuffers);
    }, sampleEveryMs);
    const answer = await send(port, '/api/assets', headersOf(user.accessToken, form.headers), { kind: 'stream', data: form.body }).finally(
      () => clearInterval(sampler),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    // A part of the file: it was never held whole (nor in the copies a buffered upload makes). The
    // process is the client's too: its chunks in flight, the sockets' buffers and the metadata's
    // ranges are counted, 5 to 15 MB on a quiet machine and up to 30 MB on a loaded one (the
    // client's chunks waiting for a busy server); a body held whole is over 50.
    expect(peakBuffers - before.arrayBuffers).toBeLessThan(size * 0.7);
    expect(peakHeap - before.heapUsed).toBeLessThan(size * 0.7);
    const asset = await assetV3(user.accessToken, String(answer.body.id));
    expect(asset).toMatchObject({ originalFileName: 'long.mp4', checksum: Buffer.from(form.checksum(), 'hex').toString('base64') });
    expect(await originalsOf(user.id)).toHaveLength(1);
  });

  it('abandons a body that stalls past the idle timeout with a 408, storing nothing', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Stalled');
    const statuses: number[] = [];
    const impatient = createIngress({ idleTimeoutMs: 300, onFinished: (status) => statuses.push(status) });
    await new Promise<void>((resolve) => impatient.listen(0, '127.0.0.1', resolve));
    try {
      const form = streamedForm(v3Fields('stalled'), { fileName: 'stalled.mp4', size: 4 * 1024 * 1024 }, { cutAfter: 1024 * 1024 });
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      // The first megabyte, then nothing until the answer came.
      const data = Readable.from(
        (async function* () {
          for await (const chunk of form.body) yield chunk as Buffer;
          await held;
        })(),
      );
      const answer = await send(
        (impatient.address() as AddressInfo).port,
        '/api/assets',
        { ...bearer(user.accessToken), ...form.headers },
        {
          kind: 'cut',
          data,
        },
      ).finally(release);
      expect(answer).toMatchObject({ status: 408, body: { message: 'The upload stalled' } });
      expect(answer.body).not.toHaveProperty('statusCode');
      expect(statuses).toEqual([408]);
      expect(await storedFiles().then((files) => files.filter((path) => path.includes(user.id) || path.endsWith('.partial')))).toEqual([]);
    } finally {
      impatient.closeAllConnections();
      await new Promise((resolve) => impatient.close(resolve));
    }
  });

  it("asks for the body (100 Continue) only once the caller may upload, and logs each request as the route's Lambda does", async () => {
    const lines: Record<string, unknown>[] = [];
    const level = process.env.LOG_LEVEL;
    const spy = vi.spyOn(console, 'log').mockImplementation((line: string) => {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    });
    process.env.LOG_LEVEL = 'info';
    try {
      const continued = async (headers: Record<string, string>) => {
        const photo = makeJpeg();
        const { body, contentType } = await multipart(v3Fields('continue'), { assetData: { data: photo, fileName: 'continue.jpg' } });
        return new Promise<{ status: number; continued: boolean }>((resolve, reject) => {
          let sawContinue = false;
          const req = httpRequest(
            {
              host: '127.0.0.1',
              port,
              method: 'POST',
              path: '/api/assets',
              headers: {
                ...headers,
                'x-origin-verify': originVerify,
                'content-type': contentType,
                'content-length': String(body.length),
                expect: '100-continue',
              },
            },
            (res) => {
              res.resume();
              res.on('end', () => resolve({ status: res.statusCode ?? 0, continued: sawContinue }));
            },
          );
          req.on('continue', () => {
            sawContinue = true;
            req.end(body);
          });
          req.on('error', reject);
          req.flushHeaders();
        });
      };
      expect(await continued({})).toEqual({ status: 401, continued: false });
      expect(await continued(bearer(accounts.user2.accessToken))).toEqual({ status: 201, continued: true });
    } finally {
      process.env.LOG_LEVEL = level;
      spy.mockRestore();
    }
    const requests = lines.filter((line) => line.message === 'request');
    expect(requests.map((line) => [line.route, line.status, line.callerId])).toEqual([
      ['POST /api/assets', 401, undefined],
      ['POST /api/assets', 201, accounts.user2.id],
    ]);
    expect(requests[1]?._aws).toMatchObject({
      CloudWatchMetrics: [{ Namespace: 'ImmichServerless', Dimensions: [['route', 'statusClass'], []] }],
    });
  });

  it('beats a heartbeat in the embedded metric format while healthy', async () => {
    const lines: Record<string, unknown>[] = [];
    const level = process.env.LOG_LEVEL;
    const spy = vi.spyOn(console, 'log').mockImplementation((line: string) => {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    });
    process.env.LOG_LEVEL = 'info';
    try {
      const health = await heartbeat(tmpdir());
      expect(health.healthy).toBe(true);
    } finally {
      process.env.LOG_LEVEL = level;
      spy.mockRestore();
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      message: 'ingress heartbeat',
      IngressHeartbeat: 1,
      IngressDiskFreePercent: expect.any(Number),
      _aws: {
        CloudWatchMetrics: [
          { Namespace: 'ImmichServerless', Metrics: [{ Name: 'IngressHeartbeat' }, { Name: 'IngressDiskFreePercent', Unit: 'Percent' }] },
        ],
      },
    });
  });

  it("takes an upload through a shared link that allows it into the link's album, and refuses one that does not before the body", async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'LinkOwner');
    const album = await createAlbum(owner.accessToken, { albumName: 'drop box' });
    const link = async (allowUpload: boolean) => {
      const reply = await invoke(createLinkHandler, {
        method: 'POST',
        path: '/api/shared-link',
        headers: bearer(owner.accessToken),
        body: { type: 'ALBUM', albumId: album.id, allowUpload },
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      return String(reply.body.key);
    };
    const open = await link(true);
    const { body, contentType } = await multipart(v3Fields('through-link'), { assetData: { data: makeJpeg(), fileName: 'link.jpg' } });
    const sent = await send(
      port,
      `/api/assets?key=${open}`,
      { 'x-origin-verify': originVerify, 'content-type': contentType },
      { kind: 'buffer', data: body },
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect((await albumInfo(owner.accessToken, album.id)).body.assets.map((asset: { id: string }) => asset.id)).toEqual([sent.body.id]);

    const closed = await link(false);
    const headersOnly = { 'x-origin-verify': originVerify, 'content-type': 'multipart/form-data; boundary=x', 'content-length': '5000000' };
    expect(await send(port, `/api/assets?key=${closed}`, headersOnly, { kind: 'none' })).toMatchObject({
      status: 400,
      body: { message: 'Not found or no asset.upload access' },
    });
    expect(await send(port, `/api/asset/upload?key=${closed}`, headersOnly, { kind: 'none' })).toMatchObject({
      status: 401,
      body: { message: 'Unauthorized' },
    });
  });

  it('abandons the uploads still running when the process stops, with a 503 and nothing stored', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Stopping');
    const stopping = new AbortController();
    const statuses: number[] = [];
    let over: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => {
      over = resolve;
    });
    const ingress = createIngress({
      signal: stopping.signal,
      onFinished: (status) => {
        statuses.push(status);
        over();
      },
    });
    await new Promise<void>((resolve) => ingress.listen(0, '127.0.0.1', resolve));
    const form = streamedForm(
      cliFields('stopping.mp4', 1),
      { fileName: 'stopping.mp4', size: 30 * 1024 * 1024 },
      { cutAfter: 10 * 1024 * 1024 },
    );
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let sent = 0;
    let halfway: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => {
      halfway = resolve;
    });
    const data = Readable.from(
      (async function* () {
        for await (const chunk of form.body) {
          sent += (chunk as Buffer).length;
          if (sent > 5 * 1024 * 1024) halfway();
          yield chunk as Buffer;
        }
        await held;
      })(),
    );
    const answer = send(
      (ingress.address() as AddressInfo).port,
      '/api/asset/upload',
      { ...bearer(user.accessToken), ...form.headers },
      { kind: 'cut', data },
    );
    await reached;
    stopping.abort();
    const answered = await answer.finally(release);
    await stopped;
    expect(answered).toMatchObject({
      status: 503,
      body: { message: 'The server is restarting; send the file again', error: 'Service Unavailable', statusCode: 503 },
    });
    expect(statuses).toEqual([503]);
    expect(await storedFiles().then((files) => files.filter((path) => path.includes(user.id) || path.endsWith('.partial')))).toEqual([]);
    ingress.closeAllConnections();
    await new Promise((resolve) => ingress.close(resolve));
  });
});
