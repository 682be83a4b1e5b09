import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { promisify } from 'node:util';
import * as v1 from '@immich/sdk';
import * as v3 from '@immich/sdk-v3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDeployedStack } from '../support/deployed-stack.ts';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg } from '../support/photos.ts';
import { target, useServer } from '../support/server.ts';
import { paddedFile, send, streamedForm } from '../support/streamed-upload.ts';
import { hangGuard } from '../support/timeouts.ts';
import { sha1 } from '../support/uploads.ts';
import { makeVideo } from '../support/videos.ts';

// Issue 51: the stock clients' uploads of any size through the stack's own address. Deployed,
// the distribution's function sends a large POST to the ingress (its own process, from the
// template: infra/local/deployed/ingress-process.ts); see docs/large-uploads.md.

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const mebibyte = 1024 * 1024;
const password = 'password';

/** The web app's v3.1.0 upload (web/src/lib/utils/file-uploader.ts): these fields in this order, the session cookie, no checksum header. */
const webAppFields = (date: string): [string, string][] => [
  ['fileCreatedAt', date],
  ['fileModifiedAt', date],
  ['isFavorite', 'false'],
];
/** A browser's multipart framing (Chromium's boundary and part headers). */
const browserBoundary = () => `----WebKitFormBoundary${randomBytes(12).toString('base64url').slice(0, 16)}`;

/** A small photo made large: a camera's JPEG with `size` bytes in all (a second image after the first's end, as MPF files carry). */
const largePhoto = (size: number, make: string): Buffer => {
  const photo = makeJpeg({ make, width: 320, height: 240, dateTimeOriginal: '2024:06:01 10:00:00' });
  return Buffer.concat([photo, randomBytes(size - photo.length)]);
};

const cookieOf = (accessToken: string) => `immich_access_token=${accessToken}; immich_auth_type=password; immich_is_authenticated=true`;

if (target() === 'source') {
  // The local server takes the same requests in one body (no ingress, no distribution): the web
  // app's upload of a photo as it sends it, the one check worth the time here.
  describe('the v3 web app’s upload request, on the local server', () => {
    const server = useServer();
    it('is taken as the web app sends it: its fields, its cookie, a browser’s framing', async () => {
      const { baseUrl } = server;
      await v3.signUpAdmin({ signUpDto: { email: 'admin@immich.cloud', password, name: 'Admin' } }, { baseUrl });
      const { accessToken } = await v3.login({ loginCredentialDto: { email: 'admin@immich.cloud', password } }, { baseUrl });
      const photo = makeJpeg({ make: 'Web' });
      const form = streamedForm({
        boundary: browserBoundary(),
        fields: webAppFields('2024-06-01T10:00:00.000Z'),
        // The helper's padding after the JPEG's end (ignored by readers, as a camera's trailing data).
        file: { field: 'assetData', name: 'web.jpg', type: 'image/jpeg', head: photo, size: photo.length + 16 },
      });
      const answer = await send(`${baseUrl}/assets`, {
        headers: { cookie: cookieOf(accessToken), 'content-type': form.contentType, 'content-length': form.length },
        body: form.body,
      });
      expect([answer.status, JSON.parse(answer.body)]).toEqual([201, { id: expect.any(String), status: 'created' }]);
      const asset = await v3.getAssetInfo({ id: JSON.parse(answer.body).id }, { baseUrl, headers: { cookie: cookieOf(accessToken) } });
      expect(asset).toMatchObject({ originalFileName: 'web.jpg', checksum: Buffer.from(form.sha1(), 'hex').toString('base64') });
    });
  });
} else {
  describe('large uploads through the stack’s address (the distribution → the ingress, deployed form)', () => {
    const stack = useDeployedStack();
    const users = new Map<string, { accessToken: string; key: string; sdk: { baseUrl: string; headers: Record<string, string> } }>();
    let noUploadKey = '';
    const scratch = mkdtempSync(join(tmpdir(), 'large-uploads-'));
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));

    /** Everything the bucket holds: its objects and its unfinished multipart uploads (s3rver's folders). */
    const bucket = (): { objects: string[]; uploads: string[] } => {
      const { bucketDir } = stack.current;
      const objects: string[] = [];
      const walk = (dir: string): void => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          if (entry.name === '._S3rver_uploads') continue;
          if (entry.isDirectory()) walk(join(dir, entry.name));
          else if (entry.name.endsWith('._S3rver_object')) objects.push(join(dir, entry.name).slice(bucketDir.length + 1));
        }
      };
      if (existsSync(bucketDir)) walk(bucketDir);
      const uploadsDir = join(bucketDir, '._S3rver_uploads');
      return { objects: objects.sort(), uploads: existsSync(uploadsDir) ? readdirSync(uploadsDir) : [] };
    };
    /** Waits (up to the hang guard) until `check` holds; its last value. */
    const until = async <T>(what: string, read: () => T | Promise<T>, check: (value: T) => boolean): Promise<T> => {
      const deadline = Date.now() + hangGuard.wait;
      for (;;) {
        const value = await read();
        if (check(value)) return value;
        if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    /** The ingress's peak resident memory so far (`VmHWM`, kB → bytes). */
    let ingressPid: number | undefined;
    const peakRss = (): number => {
      const pid = ingressPid;
      const line = readFileSync(`/proc/${pid}/status`, 'utf8')
        .split('\n')
        .find((each) => each.startsWith('VmHWM:'));
      return Number(/(\d+)/.exec(line ?? '')?.[1]) * 1024;
    };

    beforeAll(async () => {
      const { baseUrl } = stack.current;
      ingressPid = (await stack.current.api.ingress())?.pid;
      await v3.signUpAdmin({ signUpDto: { email: 'admin@immich.cloud', password, name: 'Admin' } }, { baseUrl });
      const admin = await v3.login({ loginCredentialDto: { email: 'admin@immich.cloud', password } }, { baseUrl });
      const asAdmin = { baseUrl, headers: { Authorization: `Bearer ${admin.accessToken}` } };
      // The bytes' way through the ingress is what this file is about: none of the uploads' machine learning.
      await turnOffMlTasks(asAdmin, ['facialRecognition', 'ocr', 'duplicateDetection']);
      for (const [name, quota] of [
        ['phone', null],
        ['cli3', null],
        ['cli2', null],
        ['web', null],
        ['small', 20 * mebibyte],
      ] as const) {
        const email = `${name}@immich.cloud`;
        await v3.createUserAdmin({ userAdminCreateDto: { email, password, name, quotaSizeInBytes: quota } }, asAdmin);
        const { accessToken } = await v3.login({ loginCredentialDto: { email, password } }, { baseUrl });
        const session = { baseUrl, headers: { Authorization: `Bearer ${accessToken}` } };
        const { secret } = await v3.createApiKey({ apiKeyCreateDto: { name: 'all', permissions: [v3.Permission.All] } }, session);
        users.set(name, { accessToken, key: secret, sdk: { baseUrl, headers: { 'x-api-key': secret } } });
        if (name === 'phone')
          noUploadKey = (await v3.createApiKey({ apiKeyCreateDto: { name: 'read', permissions: [v3.Permission.AssetRead] } }, session))
            .secret;
      }
    });
    const user = (name: string) => {
      const found = users.get(name);
      if (!found) throw new Error(`no user ${name}`);
      return found;
    };

    it('the CLIs 3.2.2 and 2.1.0 upload a 24 MiB video and a 10 MB photo each, read back whole through the API, the photo with its preview', async () => {
      const { baseUrl, api } = stack.current;
      const clip = makeVideo({ seconds: 1, width: 160, height: 90 });
      const files = (name: string, fill: number) => {
        const dir = join(scratch, name);
        mkdirSync(dir, { recursive: true });
        // Past Lambda's 6 MB and API Gateway's 10 MB, three of the ingress's 8 MiB parts (one more
        // than it holds in flight; the streaming at scale is the 512 MiB test's).
        const video = paddedFile({ head: clip, size: 24 * mebibyte, fill });
        const photo = largePhoto(10 * mebibyte, name);
        const date = new Date('2023-03-04T05:06:07.000Z');
        for (const [file, data] of [
          ['clip.mp4', video],
          ['photo.jpg', photo],
        ] as const) {
          writeFileSync(join(dir, file), data);
          utimesSync(join(dir, file), date, date);
        }
        return { dir, video, photo };
      };
      const clis = [
        { name: 'cli3', login: 'login', bin: join(root, 'node_modules', '@immich', 'cli-v3', 'dist', 'index.js'), ...files('cli3', 1) },
        { name: 'cli2', login: 'login-key', bin: join(root, 'node_modules', '@immich', 'cli', 'dist', 'index.js'), ...files('cli2', 2) },
      ];
      // Both at once, each as its own user (the ingress bounds uploads per user).
      await Promise.all(
        clis.map(async (cli) => {
          const env = { ...process.env, IMMICH_CONFIG_DIR: join(scratch, `${cli.name}-config`), NO_COLOR: '1' };
          const immich = (...args: string[]) => run(process.execPath, [cli.bin, ...args], { env, timeout: hangGuard.process });
          await immich(cli.login, baseUrl, user(cli.name).key);
          const { stdout } = await immich('upload', cli.dir);
          expect(stdout, cli.name).toMatch(/Successfully uploaded 2 (new )?assets/);
        }),
      );
      await api.idle();
      for (const cli of clis) {
        const sdk = user(cli.name).sdk;
        const check = await v3.checkBulkUpload(
          {
            assetBulkUploadCheckDto: {
              assets: [
                { id: 'video', checksum: sha1(cli.video) },
                { id: 'photo', checksum: sha1(cli.photo) },
              ],
            },
          },
          sdk,
        );
        const ids = Object.fromEntries(check.results.map((result) => [result.id, result.assetId ?? '']));
        const video = await v3.getAssetInfo({ id: ids.video ?? '' }, sdk);
        const photo = await v3.getAssetInfo({ id: ids.photo ?? '' }, sdk);
        expect(video, cli.name).toMatchObject({
          type: v3.AssetTypeEnum.Video,
          originalFileName: 'clip.mp4',
          checksum: sha1(cli.video, 'base64'),
          exifInfo: { fileSizeInByte: 24 * mebibyte },
        });
        expect(photo, cli.name).toMatchObject({
          type: v3.AssetTypeEnum.Image,
          originalFileName: 'photo.jpg',
          checksum: sha1(cli.photo, 'base64'),
          exifInfo: { fileSizeInByte: 10 * mebibyte, make: cli.name },
        });
        // The media job ran on both (the poster of the video, the photo's preview).
        for (const id of [video.id, photo.id]) {
          const preview = await fetch(`${baseUrl}/assets/${id}/thumbnail?size=preview`, { headers: sdk.headers });
          expect(preview.status, `${cli.name} ${id}`).toBe(200);
          expect(preview.headers.get('content-type')).toMatch(/^image\//);
        }
      }
      expect([stack.current.denied, stack.current.failures]).toEqual([[], []]);
    });

    it('the 3.x app’s backup of a 512 MiB video (its exact request), streamed: the ingress’s memory stays flat', async () => {
      const { baseUrl } = stack.current;
      // Twice the ingress's heap (a body held whole would not fit it), and 384 MiB past the steady
      // point: the same 8 MiB parts as a 1 GB file's (shared/storage/stream-put.ts), in half the test time.
      const size = 512 * mebibyte;
      // background_upload.service.dart buildUploadTask: these fields, then the file as `assetData`,
      // the session cookie (the app's HTTP client holds it), Dart's multipart framing.
      const form = streamedForm({
        boundary: `dart-http-boundary-${randomBytes(30).toString('base64url').slice(0, 50)}`,
        fields: [
          ['filename', 'PXL_20240601_100000000.mp4'],
          ['deviceAssetId', '1000000042'],
          ['deviceId', 'c0ffee00c0ffee00'],
          ['fileCreatedAt', '2024-06-01T10:00:00.000Z'],
          ['fileModifiedAt', '2024-06-01T10:00:00.000Z'],
          ['isFavorite', 'false'],
          ['duration', '0'],
        ],
        file: {
          field: 'assetData',
          name: 'PXL_20240601_100000000.mp4',
          type: 'video/mp4',
          head: makeVideo({ seconds: 1, width: 160, height: 90 }),
          size,
        },
        partHeaders: (name, file) =>
          file
            ? ['content-type: application/octet-stream', `content-disposition: form-data; name="${name}"; filename="${file.name}"`]
            : [`content-disposition: form-data; name="${name}"`],
      });
      let sent = 0;
      let steady: number | undefined;
      const answer = await send(`${baseUrl}/assets`, {
        headers: {
          cookie: cookieOf(user('phone').accessToken),
          'user-agent': 'Dart/3.8 (dart:io)',
          'content-type': form.contentType,
          'content-length': form.length,
        },
        // The ingress's peak once the first 128 MiB are through (two parts in flight, its buffers full).
        body: form.body.pipe(
          new Transform({
            transform(chunk: Buffer, _encoding, done) {
              sent += chunk.length;
              if (steady === undefined && sent > 128 * mebibyte) steady = peakRss();
              done(null, chunk);
            },
          }),
        ),
      });
      expect([answer.status, JSON.parse(answer.body)]).toEqual([201, { id: expect.any(String), status: 'created' }]);
      const asset = await v3.getAssetInfo({ id: JSON.parse(answer.body).id }, user('phone').sdk);
      expect(asset).toMatchObject({
        type: v3.AssetTypeEnum.Video,
        originalFileName: 'PXL_20240601_100000000.mp4',
        checksum: Buffer.from(form.sha1(), 'hex').toString('base64'),
        exifInfo: { fileSizeInByte: size },
      });
      // The app's own fields, as v1.100's answer still shows them.
      expect(await v1.getAssetInfo({ id: asset.id }, user('phone').sdk)).toMatchObject({
        deviceAssetId: '1000000042',
        deviceId: 'c0ffee00c0ffee00',
      });
      // Flat: the ingress holds two 8 MiB parts in flight (shared/storage/stream-put.ts) and its
      // socket buffers, whatever the size, so the other 384 MiB add nothing but the garbage
      // collector's slack (measured here: under 1 MiB); and the whole stays within the 256 MB heap
      // a t4g.nano's unit gives it (infra/cdk/ingress.ts), with four uploads' worth of room to spare
      // (its peak after the CLIs' concurrent uploads above, measured with 48 MiB videos: about 183 MiB).
      const peak = peakRss();
      expect(steady).toBeGreaterThan(0);
      expect(peak - (steady ?? 0)).toBeLessThan(32 * mebibyte);
      expect(peak).toBeLessThan(256 * mebibyte);
    });

    it('the v3 web app’s upload (its fields, its cookie, no checksum header) of a 24 MiB video, through the ingress the same way', async () => {
      const { baseUrl } = stack.current;
      // Over Lambda's 4.4 MB, so the ingress's, in three parts; the streaming itself is the 512 MiB test's (test time).
      const size = 24 * mebibyte;
      const form = streamedForm({
        boundary: browserBoundary(),
        fields: webAppFields('2024-07-01T10:00:00.000Z'),
        file: { field: 'assetData', name: 'holiday.mp4', type: 'video/mp4', head: makeVideo({ seconds: 1, width: 160, height: 90 }), size },
      });
      const answer = await send(`${baseUrl}/assets`, {
        headers: { cookie: cookieOf(user('web').accessToken), 'content-type': form.contentType, 'content-length': form.length },
        body: form.body,
      });
      expect([answer.status, JSON.parse(answer.body)]).toEqual([201, { id: expect.any(String), status: 'created' }]);
      expect(await v3.getAssetInfo({ id: JSON.parse(answer.body).id }, user('web').sdk)).toMatchObject({
        type: v3.AssetTypeEnum.Video,
        originalFileName: 'holiday.mp4',
        checksum: Buffer.from(form.sha1(), 'hex').toString('base64'),
        exifInfo: { fileSizeInByte: size },
      });
    });

    it('a client that disconnects half-way leaves no object, no multipart upload and no asset', async () => {
      const { baseUrl, api } = stack.current;
      // The earlier uploads' media jobs (previews, posters) have written what they write.
      await api.idle();
      const stored = bucket();
      const statistics = await v3.getAssetStatistics({}, user('phone').sdk);
      const form = streamedForm({
        boundary: browserBoundary(),
        fields: webAppFields('2024-08-01T10:00:00.000Z'),
        file: {
          field: 'assetData',
          name: 'cut.mp4',
          type: 'video/mp4',
          head: makeVideo({ seconds: 1, width: 160, height: 90 }),
          size: 24 * mebibyte,
        },
      });
      // 16 MiB sent, two of its three parts: parts are in the bucket's unfinished upload (streamed as they came); then the client is gone.
      await send(`${baseUrl}/assets`, {
        headers: { 'x-api-key': user('phone').key, 'content-type': form.contentType, 'content-length': form.length },
        body: form.body,
        stopAfter: 16 * mebibyte,
        stopWhen: async () => {
          await until('a multipart upload under way', bucket, (now) => now.uploads.length > stored.uploads.length);
        },
      });
      await until('the bucket as before', bucket, (now) => JSON.stringify(now) === JSON.stringify(stored));
      expect(await v3.getAssetStatistics({}, user('phone').sdk)).toEqual(statistics);
    });

    it('refuses from the headers alone, never reading the body: a key without asset.upload, a user over quota', async () => {
      const { baseUrl, api } = stack.current;
      await api.idle();
      const stored = bucket();
      const announce = (headers: Record<string, string>, size: number) =>
        send(`${baseUrl}/assets`, {
          headers: { ...headers, 'content-type': `multipart/form-data; boundary=${browserBoundary()}`, 'content-length': size },
          // The headers only: an answer at all proves the body was not needed.
          body: 'none',
        });
      const withoutPermission = await announce({ 'x-api-key': noUploadKey }, 50 * mebibyte);
      expect([withoutPermission.status, JSON.parse(withoutPermission.body)]).toEqual([
        403,
        // v3's error shape (the message alone), as the Lambda route answers it.
        { message: 'Missing required permission: asset.upload' },
      ]);
      const overQuota = await announce({ 'x-api-key': user('small').key }, 50 * mebibyte);
      expect([overQuota.status, JSON.parse(overQuota.body)]).toEqual([400, { message: 'Quota has been exceeded!' }]);
      expect(bucket()).toEqual(stored);
    });
  });
}
