import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import Vips from 'wasm-vips';
import { handler as thumbnailHandler } from '#functions/asset/get-asset-thumbnail.ts';
import { handler as generateMedia } from '#functions/media/generate-media.ts';
import { setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { assetInfo, trash } from '../support/library.ts';
import { makeJpeg } from '../support/photos.ts';
import { upload } from '../support/uploads.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
let vips: Awaited<ReturnType<typeof Vips>>;
beforeAll(async () => {
  accounts = await setupAccounts();
  vips = await Vips();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const thumbnail = (token: string, id: string, query: Record<string, string> = {}) =>
  invoke(thumbnailHandler, { path: `/api/asset/thumbnail/${id}`, query, headers: bearer(token), pathParameters: { id } });

/** What the originals bucket sends the media function for an object (keys URL-encoded). */
const objectCreated = (key: string) =>
  generateMedia({ Records: [{ s3: { object: { key: encodeURIComponent(key).replace(/%2F/g, '/') } } }] });

const dimensions = (base64: string) => {
  const image = vips.Image.newFromBuffer(Buffer.from(base64, 'base64'));
  try {
    return [image.width, image.height];
  } finally {
    image.delete();
  }
};

describe('previews (the media function on an original’s object-created event)', () => {
  it('makes a WebP thumbnail (shorter side 250) and a JPEG preview (not enlarged), orientation applied, and a thumbhash', async () => {
    const token = accounts.user1.accessToken;
    // 640×480 stored, EXIF orientation 6: shown 480×640.
    const reply = await upload(token, { data: makeJpeg({ width: 640, height: 480, orientation: 6, color: [20, 120, 220] }) });
    expect(reply.status).toBe(201);
    const id = reply.body.id as string;
    const before = (await assetInfo(token, id)).body;
    expect(before).toMatchObject({ resized: false, thumbhash: null });
    expect((await thumbnail(token, id)).body).toEqual({
      message: `No thumbnail found for asset ${id}`,
      error: 'Not Found',
      statusCode: 404,
    });

    expect(await objectCreated(before.originalPath)).toEqual({ outcomes: { [before.originalPath]: 'made' } });
    const after = (await assetInfo(token, id)).body;
    expect(after.resized).toBe(true);
    expect(Buffer.from(after.thumbhash, 'base64').length).toBeGreaterThan(10);

    const webp = await thumbnail(token, id);
    expect(webp.status).toBe(200);
    expect(webp.headers).toMatchObject({ 'content-type': 'image/webp', 'cache-control': 'private, max-age=86400, no-transform' });
    expect(dimensions(webp.body)).toEqual([250, 333]);
    const jpeg = await thumbnail(token, id, { format: 'JPEG' });
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    expect(dimensions(jpeg.body)).toEqual([480, 640]);

    // Again: the same files and values (the bucket may deliver an event twice).
    expect(await objectCreated(before.originalPath)).toEqual({ outcomes: { [before.originalPath]: 'made' } });
    expect((await assetInfo(token, id)).body.thumbhash).toBe(after.thumbhash);
  });

  it('serves previews to the owner only, validates the format, and deletes them with the asset', async () => {
    const owner = accounts.user1.accessToken;
    const reply = await upload(owner, { data: makeJpeg({ width: 300, height: 200 }) });
    const id = reply.body.id as string;
    const { originalPath } = (await assetInfo(owner, id)).body;
    await objectCreated(originalPath);
    expect((await thumbnail(accounts.user2.accessToken, id)).body).toEqual({
      message: 'Not found or no asset.view access',
      error: 'Bad Request',
      statusCode: 400,
    });
    expect((await thumbnail(owner, id, { format: 'PNG' })).body.message).toEqual([
      'format must be one of the following values: JPEG, WEBP',
    ]);
    const files = join(process.env.ORIGINALS_DIR ?? '', 'thumbs', accounts.user1.userId, id.slice(0, 2), id.slice(2, 4));
    expect(existsSync(join(files, `${id}-thumbnail.webp`))).toBe(true);
    expect((await trash(owner, [id], true)).status).toBe(204);
    expect(existsSync(join(files, `${id}-thumbnail.webp`))).toBe(false);
    expect(existsSync(join(files, `${id}-preview.jpeg`))).toBe(false);
    // The event of a deleted asset's original changes nothing.
    expect(await objectCreated(originalPath)).toEqual({ outcomes: { [originalPath]: 'gone' } });
  }, 30_000);

  it('leaves what it cannot decode usable and unresized, and ignores objects that are not originals', async () => {
    const token = accounts.user1.accessToken;
    // A RAW file libvips has no decoder for, and a video (posters are not made yet).
    for (const fileName of ['DSC_0001.nef', 'clip.mp4']) {
      const reply = await upload(token, { data: Buffer.from(`not really ${fileName}`), fileName });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      const { originalPath, id } = (await assetInfo(token, reply.body.id)).body;
      expect(await objectCreated(originalPath)).toEqual({ outcomes: { [originalPath]: 'unsupported' } });
      expect((await assetInfo(token, id)).body).toMatchObject({ resized: false, thumbhash: null });
    }
    const other = 'thumbs/x/ab/cd/y-thumbnail.webp';
    expect(await objectCreated(other)).toEqual({ outcomes: { [other]: 'ignored' } });
  }, 30_000);
});
