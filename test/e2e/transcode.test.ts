import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v1 from '@immich/sdk';
import * as v3 from '@immich/sdk-v3';
import { beforeAll, describe, expect, it } from 'vitest';
import { probeVideo } from '#shared/media/transcode.ts';
import { immichCli } from '../support/immich-cli.ts';
import { useServer } from '../support/server.ts';
import { sha1 } from '../support/uploads.ts';
import { makeClip } from '../support/videos.ts';
import { pollUntil } from '../support/waits.ts';

describe('a phone’s HEVC HDR video is transcoded to H.264 for playback; an H.264 one is played as it is', () => {
  const server = useServer();
  const hdr = makeClip('hevc-hlg');
  const plain = makeClip('h264-aac');
  let user: { baseUrl: string; headers: Record<string, string> };
  let hdrId: string;
  let plainId: string;

  /** A file route as a client reads it (deployed, through the redirect to S3). */
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}${path}`, { headers: { ...user.headers, ...headers } });

  beforeAll(async () => {
    const { baseUrl } = server;
    await v3.signUpAdmin({ signUpDto: { email: 'admin@immich.cloud', password: 'password', name: 'Admin' } }, { baseUrl });
    const admin = await v3.login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl });
    const session = { baseUrl, headers: { Authorization: `Bearer ${admin.accessToken}` } };
    const { secret } = await v3.createApiKey({ apiKeyCreateDto: { name: 'cli', permissions: [v3.Permission.All] } }, session);
    user = { baseUrl, headers: { 'x-api-key': secret } };

    const root = mkdtempSync(join(tmpdir(), 'transcode-e2e-'));
    mkdirSync(join(root, 'phone'));
    writeFileSync(join(root, 'phone', `IMG_0001.${hdr.extension}`), hdr.bytes);
    writeFileSync(join(root, 'phone', `clip.${plain.extension}`), plain.bytes);
    await immichCli(join(root, 'config'), 'login', baseUrl, secret);
    const uploaded = await immichCli(join(root, 'config'), 'upload', '--recursive', join(root, 'phone'));
    expect(uploaded.stdout).toMatch(/Successfully uploaded 2 new assets/);

    const { results } = await v3.checkBulkUpload(
      {
        assetBulkUploadCheckDto: {
          assets: [
            { id: 'hdr', checksum: sha1(hdr.bytes) },
            { id: 'plain', checksum: sha1(plain.bytes) },
          ],
        },
      },
      user,
    );
    hdrId = results.find((result) => result.id === 'hdr')?.assetId ?? '';
    plainId = results.find((result) => result.id === 'plain')?.assetId ?? '';
    expect(hdrId).not.toBe('');
    expect(plainId).not.toBe('');
  });

  it('encodes the HEVC HDR clip and serves the encoded version with ranges, as video/mp4 in H.264', async () => {
    const playback = `/assets/${hdrId}/video/playback`;
    // Before the encode the original plays (a MOV); the job runs in the background after the poster.
    const type = await pollUntil(
      async () => {
        const answer = await get(playback, { Range: 'bytes=0-0' });
        await answer.arrayBuffer();
        return answer.headers.get('content-type') ?? '';
      },
      (type) => {
        if (type !== 'video/mp4') expect(type).toBe('video/quicktime');
        return type === 'video/mp4';
      },
      200,
    );
    expect(type).toBe('video/mp4');

    const whole = Buffer.from(await (await get(playback)).arrayBuffer());
    const part = await get(playback, { Range: 'bytes=100-1123' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-type')).toBe('video/mp4');
    expect(part.headers.get('content-range')).toBe(`bytes 100-1123/${whole.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(100, 1124));

    const file = join(mkdtempSync(join(tmpdir(), 'transcode-e2e-')), 'encoded.mp4');
    writeFileSync(file, whole);
    const probe = await probeVideo(file);
    expect(probe.video).toMatchObject({ codecName: 'h264', pixelFormat: 'yuv420p', width: 640, height: 360, colorTransfer: 'sdr' });
    // Immich's command copies an accepted audio stream.
    expect(probe.audio).toMatchObject({ codecName: 'aac' });
    expect(probe.duration).toBeCloseTo(1, 0);
    expect(sha1(whole)).not.toBe(sha1(hdr.bytes));

    // v1.100's web app plays /asset/file/:id: the same encoded file.
    const old = await get(`/asset/file/${hdrId}`);
    expect(old.headers.get('content-type')).toBe('video/mp4');
    expect(sha1(Buffer.from(await old.arrayBuffer()))).toBe(sha1(whole));
    // The original is still the original.
    expect(sha1(Buffer.from(await (await get(`/assets/${hdrId}/original`)).arrayBuffer()))).toBe(sha1(hdr.bytes));
    // Search answers show it encoded (v1.100's metadata search).
    const found = await v1.searchMetadata({ metadataSearchDto: { isEncoded: true } }, user);
    expect(found.assets.items.map((asset) => asset.id)).toEqual([hdrId]);
  });

  it('serves the H.264 clip as its original: nothing to encode', async () => {
    const playback = await get(`/assets/${plainId}/video/playback`, { Range: 'bytes=0-' });
    expect([200, 206]).toContain(playback.status);
    expect(playback.headers.get('content-type')).toBe('video/mp4');
    expect(sha1(Buffer.from(await playback.arrayBuffer()))).toBe(sha1(plain.bytes));
  });
});
