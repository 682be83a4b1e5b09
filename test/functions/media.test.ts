import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import Vips from 'wasm-vips';
import { handler as assetInfoHandler } from '#functions/asset/get-asset-info.ts';
import { handler as thumbnailHandler } from '#functions/asset/get-asset-thumbnail.ts';
import { handler as serveFileHandler } from '#functions/asset/serve-file.ts';
import { handler as downloadHandler } from '#functions/download/download-file.ts';
import { handler as personThumbnailHandler } from '#functions/person/get-person-thumbnail.ts';
import { handler as updatePersonHandler } from '#functions/person/update-person.ts';
import { handler as createSharedLinkHandler } from '#functions/shared-link/create-shared-link.ts';
import { handler as getMyUserInfoHandler } from '#functions/user/get-my-user-info.ts';
import { handler as v3OriginalHandler } from '#functions/v3/asset/download-asset.ts';
import { handler as v3AssetInfoHandler } from '#functions/v3/asset/get-asset-info.ts';
import { handler as v3PlaybackHandler } from '#functions/v3/asset/play-asset-video.ts';
import { setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addToAlbum, assetInfo, createAlbum, personNamed, trash } from '../support/library.ts';
import { mediaJobsInProcess, objectCreated, turnOffMl } from '../support/media.ts';
import { makeJpeg } from '../support/photos.ts';
import { upload } from '../support/uploads.ts';
import { makeVideo } from '../support/videos.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
let vips: Awaited<ReturnType<typeof Vips>>;
beforeAll(async () => {
  accounts = await setupAccounts();
  // Not about OCR or duplicates: off, as each photo's cost (test/support/ml-tasks.ts).
  await turnOffMl(accounts.admin.accessToken, ['ocr', 'duplicateDetection']);
  vips = await Vips();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const thumbnail = (token: string, id: string, query: Record<string, string> = {}) =>
  invoke(thumbnailHandler, { path: `/api/asset/thumbnail/${id}`, query, headers: bearer(token), pathParameters: { id } });

const serveFile = (token: string, id: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  invoke(serveFileHandler, { path: `/api/asset/file/${id}`, query, headers: { ...bearer(token), ...headers }, pathParameters: { id } });

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

  it('makes previews of every image format it lists: PNG, WebP, GIF, TIFF and AVIF as well as JPEG', async () => {
    const token = accounts.user1.accessToken;
    // Each file written by libvips itself: 400×300, a gradient.
    const source = vips.Image.black(400, 300, { bands: 3 }).add([30, 90, 150]);
    const files: [string, Uint8Array][] = [
      ['image.png', source.pngsaveBuffer()],
      ['image.webp', source.webpsaveBuffer()],
      ['image.gif', source.gifsaveBuffer()],
      ['image.tiff', source.tiffsaveBuffer()],
      ['image.avif', source.heifsaveBuffer({ compression: 'av1' })],
    ];
    for (const [fileName, bytes] of files) {
      const reply = await upload(token, { data: Buffer.from(bytes), fileName });
      expect(reply.status, `${fileName}: ${JSON.stringify(reply.body)}`).toBe(201);
      const { originalPath } = (await assetInfo(token, reply.body.id)).body;
      expect(await objectCreated(originalPath), fileName).toEqual({ outcomes: { [originalPath]: 'made' } });
      const thumb = await thumbnail(token, reply.body.id);
      expect([fileName, ...dimensions(thumb.body)]).toEqual([fileName, 333, 250]);
    }
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
  });

  it('leaves what it cannot decode usable and unresized, and ignores objects that are not originals', async () => {
    const token = accounts.user1.accessToken;
    // A RAW file without an embedded preview, and a video ffmpeg cannot read.
    for (const fileName of ['DSC_0001.nef', 'clip.mp4']) {
      const reply = await upload(token, { data: Buffer.from(`not really ${fileName}`), fileName });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      const { originalPath, id } = (await assetInfo(token, reply.body.id)).body;
      expect(await objectCreated(originalPath)).toEqual({ outcomes: { [originalPath]: 'unsupported' } });
      expect((await assetInfo(token, id)).body).toMatchObject({ resized: false, thumbhash: null });
    }
    const other = 'thumbs/x/ab/cd/y-thumbnail.webp';
    expect(await objectCreated(other)).toEqual({ outcomes: { [other]: 'ignored' } });
  });
});

describe('iPhone photos (HEIC) and videos', () => {
  /** Uploads a file (which must be accepted) and answers the asset as GET /asset/:id shows it. */
  const uploaded = async (token: string, data: Buffer, fileName: string) => {
    const reply = await upload(token, { data, fileName });
    expect(reply.status, `${fileName}: ${JSON.stringify(reply.body)}`).toBe(201);
    return (await assetInfo(token, reply.body.id)).body;
  };

  const preview = async (token: string, id: string) => {
    const { originalPath } = (await assetInfo(token, id)).body;
    expect(await objectCreated(originalPath)).toEqual({ outcomes: { [originalPath]: 'made' } });
    const after = (await assetInfo(token, id)).body;
    expect(after).toMatchObject({ resized: true });
    expect(Buffer.from(after.thumbhash, 'base64').length).toBeGreaterThan(10);
    return {
      thumbnail: dimensions((await thumbnail(token, id)).body),
      preview: dimensions((await thumbnail(token, id, { format: 'JPEG' })).body),
      jpeg: Buffer.from((await thumbnail(token, id, { format: 'JPEG' })).body, 'base64'),
    };
  };

  it('decodes HEIC (HEVC, which libvips here cannot) and reads its EXIF: the zone from its GPS position', async () => {
    const token = accounts.user1.accessToken;
    // test/fixtures/README.md: 640×480, one colour, EXIF from an iPhone-like camera without an offset.
    const data = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'iphone.heic'));
    const asset = await uploaded(token, data, 'IMG_0001.HEIC');
    expect(asset).toMatchObject({
      type: 'IMAGE',
      // 10:30 in Chicago on 1 June (daylight saving time, UTC-5).
      fileCreatedAt: '2023-06-01T15:30:00.000Z',
      localDateTime: '2023-06-01T10:30:00.000Z',
      exifInfo: { make: 'Apple', model: 'iPhone 14', exifImageWidth: 640, exifImageHeight: 480, timeZone: 'America/Chicago' },
    });
    const made = await preview(token, asset.id);
    // HEIF's own rotation (none here) counts, never the EXIF orientation, as libheif and Immich.
    expect(made.thumbnail).toEqual([333, 250]);
    expect(made.preview).toEqual([640, 480]);
    const image = vips.Image.newFromBuffer(made.jpeg);
    const colour = [0, 1, 2].map((band) => Math.round(image.extractBand(band).avg()));
    image.delete();
    for (const [index, value] of [200, 60, 40].entries()) expect(Math.abs((colour[index] ?? 0) - value), `band ${index}`).toBeLessThan(12);
  });

  it('decodes an iPhone-style HEIC grid (HEVC tiles, turned by its irot) into upright previews', async () => {
    const token = accounts.user1.accessToken;
    // test/fixtures/README.md: 12 tiles of 64 px, a 250×180 grid turned a quarter counter-clockwise.
    const data = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'grid.heic'));
    const asset = await uploaded(token, data, 'IMG_0002.HEIC');
    const made = await preview(token, asset.id);
    expect(made.preview).toEqual([180, 250]);
    expect(made.thumbnail).toEqual([180, 250]);
  });

  it('makes a RAW file’s previews from the largest JPEG the camera embedded, oriented as the RAW says', async () => {
    const token = accounts.user1.accessToken;
    // A TIFF-structured RAW: IFD0 (make, orientation 6, from a test JPEG's EXIF), a 160×120
    // thumbnail, a 640×480 preview without orientation of its own, and "sensor data".
    const exif = makeJpeg({ width: 16, height: 16, orientation: 6, make: 'Nikon', model: 'Z 6' });
    const app1 = exif.indexOf('Exif\0\0');
    const tiff = exif.subarray(app1 + 6, app1 - 2 + exif.readUInt16BE(app1 - 2));
    const raw = Buffer.concat([
      tiff,
      Buffer.alloc(1000, 0x11),
      makeJpeg({ width: 160, height: 120, color: [0, 0, 0] }),
      Buffer.alloc(5000, 0x22),
      makeJpeg({ width: 640, height: 480, color: [10, 200, 10] }),
      Buffer.alloc(20_000, 0x55),
    ]);
    const asset = await uploaded(token, raw, 'DSC_0002.NEF');
    expect(asset).toMatchObject({ exifInfo: { make: 'Nikon', model: 'Z 6', orientation: '6' } });
    const made = await preview(token, asset.id);
    expect(made.preview).toEqual([480, 640]);
    expect(made.thumbnail).toEqual([250, 333]);
    const image = vips.Image.newFromBuffer(made.jpeg);
    const green = Math.round(image.extractBand(1).avg());
    image.delete();
    expect(green).toBeGreaterThan(170);
  });

  it('reads an MP4’s duration, size, rotation, date and place from its container, and makes previews of its poster frame', async () => {
    const token = accounts.user1.accessToken;
    // Recorded upright: 640×360 stored, turned 90° clockwise when played.
    const data = makeVideo({ rotation: 90, seconds: 2, creationTime: '2021-05-04T10:20:30Z', location: '+41.8781-087.6298/' });
    const asset = await uploaded(token, data, 'VID_0001.mp4');
    expect(asset).toMatchObject({
      type: 'VIDEO',
      duration: '00:00:02.000',
      // The movie header's time is UTC; the place says Chicago (UTC-5 in May).
      fileCreatedAt: '2021-05-04T10:20:30.000Z',
      localDateTime: '2021-05-04T05:20:30.000Z',
      exifInfo: { exifImageWidth: 640, exifImageHeight: 360, orientation: '6', timeZone: 'America/Chicago' },
    });
    expect(asset.exifInfo.latitude).toBeCloseTo(41.8781, 3);
    expect(asset.exifInfo.longitude).toBeCloseTo(-87.6298, 3);
    const made = await preview(token, asset.id);
    expect(made.preview).toEqual([360, 640]);
    expect(made.thumbnail).toEqual([250, 444]);
  });

  it('reads an iPhone MOV’s (HEVC) own creation date with its offset, and its make and model; the zone is its position’s, as Immich', async () => {
    const token = accounts.user1.accessToken;
    const mov = (location?: string) =>
      makeVideo({
        container: 'mov',
        width: 480,
        height: 270,
        seconds: 1,
        creationTime: '2019-03-21T16:04:22Z',
        apple: {
          creationdate: '2019-03-21T11:04:22-0500',
          make: 'Apple',
          model: 'iPhone 14',
          ...(location ? { 'location.ISO6709': location } : {}),
        },
      });
    // exiftool-vendored names a file's zone from its position before a date's written offset.
    const asset = await uploaded(token, mov('+41.8781-087.6298+180.000/'), 'IMG_0002.MOV');
    expect(asset).toMatchObject({
      type: 'VIDEO',
      duration: '00:00:01.000',
      fileCreatedAt: '2019-03-21T16:04:22.000Z',
      localDateTime: '2019-03-21T11:04:22.000Z',
      exifInfo: {
        make: 'Apple',
        model: 'iPhone 14',
        orientation: '1',
        timeZone: 'America/Chicago',
        latitude: 41.8781,
        longitude: -87.6298,
      },
    });
    // Without a position, the offset written into its Apple creation date.
    const unplaced = await uploaded(token, mov(), 'IMG_0003.MOV');
    expect(unplaced).toMatchObject({
      fileCreatedAt: '2019-03-21T16:04:22.000Z',
      localDateTime: '2019-03-21T11:04:22.000Z',
      exifInfo: { timeZone: 'UTC-5', latitude: null },
    });
    const made = await preview(token, asset.id);
    expect(made.preview).toEqual([480, 270]);
    expect(made.thumbnail).toEqual([444, 250]);
  });
});

describe('motion photos: the embedded video becomes a hidden video asset (livePhotoVideoId), as Immich extracts it', () => {
  const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('base64');
  const usage = async (token: string) =>
    (await invoke(getMyUserInfoHandler, { path: '/api/user/me', headers: bearer(token) })).body.quotaUsageInBytes as number;

  it('Google MotionPhoto and Samsung JPEGs, and Samsung HEIC (mpvd box): a hidden VIDEO with the video’s own checksum and metadata', async () => {
    const token = accounts.user1.accessToken;
    const video = makeVideo({ seconds: 1, width: 320, height: 240 });
    const heic = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'iphone.heic'));
    const mpvd = Buffer.alloc(8);
    mpvd.writeUInt32BE(8 + video.length + 0);
    mpvd.write('mpvd', 4);
    const samples: [string, Buffer, Buffer][] = [
      // Google: the MP4 appended after the JPEG (the XMP's Container:Directory gives its length).
      ['PXL_0001.MP.jpg', Buffer.concat([makeJpeg({ width: 400, height: 300, color: [1, 2, 3] }), video]), video],
      // Samsung JPEG: behind a MotionPhoto_Data marker, followed by the SEF trailer.
      [
        'SAMSUNG_0001.jpg',
        Buffer.concat([
          makeJpeg({ width: 400, height: 300, color: [4, 5, 6] }),
          Buffer.from('MotionPhoto_Data'),
          video,
          Buffer.from('SEFH\x01\x00\x00\x00trailer'),
        ]),
        video,
      ],
      // Samsung HEIC: a top-level mpvd box holding the MP4.
      ['SAMSUNG_0002.heic', Buffer.concat([heic, mpvd, video]), video],
    ];
    const before = await usage(token);
    const motionIds: string[] = [];
    let stored = 0;
    for (const [fileName, data, embedded] of samples) {
      const reply = await upload(token, { data, fileName });
      expect(reply.status, `${fileName}: ${JSON.stringify(reply.body)}`).toBe(201);
      const photo = (await assetInfo(token, reply.body.id)).body;
      expect(photo.livePhotoVideoId, fileName).toMatch(/^[0-9a-f-]{36}$/);
      motionIds.push(photo.livePhotoVideoId);
      stored += data.length;
      if (motionIds.length === 1) {
        stored += embedded.length;
        const motion = (await assetInfo(token, photo.livePhotoVideoId)).body;
        expect(motion).toMatchObject({
          type: 'VIDEO',
          // Immich v3's name: the photo's, with the video's extension.
          originalFileName: 'PXL_0001.MP.mp4',
          deviceAssetId: 'NONE',
          deviceId: 'NONE',
          checksum: sha1(embedded),
          duration: '00:00:01.000',
          livePhotoVideoId: null,
          fileCreatedAt: photo.fileCreatedAt,
          exifInfo: { exifImageWidth: 320, exifImageHeight: 240, fileSizeInByte: embedded.length },
        });
        // Served as any video: its own bytes.
        const file = await serveFile(token, photo.livePhotoVideoId);
        expect(sha1(Buffer.from(file.body, 'base64'))).toBe(sha1(embedded));
      }
    }
    // The same video in three files: extracted once, then linked (Immich finds it by checksum).
    expect(new Set(motionIds).size).toBe(1);
    // Usage counts each file and the one stored video.
    expect((await usage(token)) - before).toBe(stored);
  });

  /** A JPEG with the XMP a Pixel writes for a motion photo (GCamera MotionPhoto and MicroVideo, the video's length), then the video. */
  const pixelMotionPhoto = (jpeg: Buffer, video: Buffer): Buffer => {
    const xmp = Buffer.from(
      'http://ns.adobe.com/xap/1.0/\0' +
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
        '<rdf:Description xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" xmlns:Container="http://ns.google.com/photos/1.0/container/"' +
        ' xmlns:Item="http://ns.google.com/photos/1.0/container/item/" GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1"' +
        ` GCamera:MicroVideo="1" GCamera:MicroVideoOffset="${video.length}"><Container:Directory><rdf:Seq>` +
        '<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary"/></rdf:li>' +
        `<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="${video.length}"/></rdf:li>` +
        '</rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>',
      'latin1',
    );
    const segment = Buffer.alloc(4);
    segment.writeUInt16BE(0xffe1, 0);
    segment.writeUInt16BE(xmp.length + 2, 2);
    return Buffer.concat([jpeg.subarray(0, 2), segment, xmp, jpeg.subarray(2), video]);
  };

  it('serves the extracted video as a video, by its container (MP4 or QuickTime), not with the photo’s image type', async () => {
    const token = accounts.user1.accessToken;
    const mp4 = makeVideo({ seconds: 1, width: 176, height: 144 });
    const mov = makeVideo({ seconds: 1, width: 144, height: 176, container: 'mov' });
    const heic = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'iphone.heic'));
    const mpvd = Buffer.alloc(8);
    mpvd.writeUInt32BE(8 + mp4.length);
    mpvd.write('mpvd', 4);
    const samples = [
      // Samsung HEIC (the file): the MP4 in a top-level mpvd box of an image/heic original.
      { fileName: 'SAMSUNG_0003.heic', data: Buffer.concat([heic, mpvd, mp4]), video: mp4, name: 'SAMSUNG_0003.mp4', type: 'video/mp4' },
      // A Pixel JPEG with its XMP tags, carrying a QuickTime movie (brand `qt  `).
      {
        fileName: 'PXL_0002.MP.jpg',
        data: pixelMotionPhoto(makeJpeg({ width: 300, height: 200, color: [7, 8, 9] }), mov),
        video: mov,
        name: 'PXL_0002.MP.mov',
        type: 'video/quicktime',
      },
    ];
    for (const { fileName, data, video, name, type } of samples) {
      const reply = await upload(token, { data, fileName });
      expect(reply.status, fileName).toBe(201);
      const motionId = (await assetInfo(token, reply.body.id)).body.livePhotoVideoId as string;
      expect(motionId, fileName).toMatch(/^[0-9a-f-]{36}$/);
      const v1 = (await assetInfo(token, motionId)).body;
      expect(v1, fileName).toMatchObject({ type: 'VIDEO', originalFileName: name, checksum: sha1(video) });
      expect(v1.originalPath.endsWith(name.slice(name.lastIndexOf('.'))), fileName).toBe(true);
      const v3 = await invoke(v3AssetInfoHandler, {
        path: `/api/assets/${motionId}`,
        headers: bearer(token),
        pathParameters: { id: motionId },
      });
      expect(v3.body, fileName).toMatchObject({ type: 'VIDEO', originalFileName: name, originalMimeType: type });
      // Every route that serves the original: v1.100's file route, v3's original and its playback.
      const served = [
        await serveFile(token, motionId),
        await invoke(v3OriginalHandler, {
          path: `/api/assets/${motionId}/original`,
          headers: bearer(token),
          pathParameters: { id: motionId },
        }),
        await invoke(v3PlaybackHandler, {
          path: `/api/assets/${motionId}/video/playback`,
          headers: bearer(token),
          pathParameters: { id: motionId },
        }),
      ];
      for (const file of served) {
        expect(file.status, fileName).toBe(200);
        expect(file.headers['content-type'], fileName).toBe(type);
        expect(sha1(Buffer.from(file.body, 'base64')), fileName).toBe(sha1(video));
      }
    }
  });

  it('deleting the photo for good deletes its video; a plain photo has none', async () => {
    const token = accounts.user1.accessToken;
    const video = makeVideo({ seconds: 1, width: 160, height: 120 });
    const reply = await upload(token, {
      data: Buffer.concat([makeJpeg({ width: 300, height: 200, color: [9, 9, 9] }), video]),
      fileName: 'MVIMG_1.jpg',
    });
    const photo = (await assetInfo(token, reply.body.id)).body;
    const before = await usage(token);
    expect((await trash(token, [photo.id], true)).status).toBe(204);
    expect((await assetInfo(token, photo.livePhotoVideoId)).status).toBe(400);
    expect(before - (await usage(token))).toBe(photo.exifInfo.fileSizeInByte + video.length);
    const plain = await upload(token, { data: makeJpeg({ width: 30, height: 20, make: 'Plain' }) });
    expect((await assetInfo(token, plain.body.id)).body.livePhotoVideoId).toBeNull();
  });
});

describe('files: the original, the web preview, the thumbnail, and the download', () => {
  it('serves the original with its own bytes, an ETag (If-None-Match → 304) and ranges (206, 416), as Immich’s sendFile', async () => {
    const owner = accounts.user1.accessToken;
    const data = makeJpeg({ width: 320, height: 240, make: 'Files' });
    const id = (await upload(owner, { data, fileName: 'files.jpg' })).body.id as string;
    const original = await serveFile(owner, id);
    expect(original.status).toBe(200);
    expect(original.headers).toMatchObject({
      'content-type': 'image/jpeg',
      'cache-control': 'private, max-age=86400, no-transform',
      'accept-ranges': 'bytes',
    });
    expect(Buffer.from(original.body, 'base64').equals(data)).toBe(true);
    const etag = original.headers.etag ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await serveFile(owner, id, {}, { 'if-none-match': etag })).status).toBe(304);
    const part = await serveFile(owner, id, {}, { range: 'bytes=0-9' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-9/${data.length}`);
    expect(Buffer.from(part.body, 'base64').equals(data.subarray(0, 10))).toBe(true);
    const tail = await serveFile(owner, id, {}, { range: 'bytes=-4' });
    expect(Buffer.from(tail.body, 'base64').equals(data.subarray(-4))).toBe(true);
    expect((await serveFile(owner, id, {}, { range: `bytes=${data.length}-` })).status).toBe(416);
    // Before its previews exist the web viewer's image is a 404; after, the preview and the thumbnail.
    expect((await serveFile(owner, id, { isWeb: 'true' })).status).toBe(404);
    await objectCreated((await assetInfo(owner, id)).body.originalPath);
    const web = await serveFile(owner, id, { isWeb: 'true' });
    expect([web.headers['content-type'], ...dimensions(web.body)]).toEqual(['image/jpeg', 320, 240]);
    const thumb = await serveFile(owner, id, { isThumb: 'true' });
    // Shorter side 240 < 250: never enlarged.
    expect([thumb.headers['content-type'], ...dimensions(thumb.body)]).toEqual(['image/webp', 320, 240]);
    expect((await serveFile(owner, id, { isWeb: 'maybe' })).body.message).toEqual(['isWeb must be a boolean value']);
    expect((await serveFile(accounts.user2.accessToken, id)).body.message).toBe('Not found or no asset.view access');
  });

  it('downloads the original as an attachment with its uploaded name (RFC 5987 when not ASCII), not cached', async () => {
    const owner = accounts.user1.accessToken;
    const data = makeJpeg({ make: 'Download' });
    const id = (await upload(owner, { data, fileName: 'Fjälltur 2024.jpg' })).body.id as string;
    const reply = await invoke(downloadHandler, {
      method: 'POST',
      path: `/api/download/asset/${id}`,
      headers: bearer(owner),
      pathParameters: { id },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers).toMatchObject({
      'content-disposition': `attachment; filename="Fj?lltur 2024.jpg"; filename*=UTF-8''Fj%C3%A4lltur%202024.jpg`,
      'cache-control': 'no-store',
    });
    expect(Buffer.from(reply.body, 'base64').equals(data)).toBe(true);
    const foreign = await invoke(downloadHandler, {
      method: 'POST',
      path: `/api/download/asset/${id}`,
      headers: bearer(accounts.user2.accessToken),
      pathParameters: { id },
    });
    expect(foreign.body.message).toBe('Not found or no asset.download access');
  });

  it('crops a thumbnail for each new person from their feature face (a square JPEG of at most 250 px); 404 before it exists', async () => {
    const owner = accounts.user1.accessToken;
    const face = { name: 'Ada Crop', x: 0.4, y: 0.3, w: 0.2, h: 0.3 };
    const id = (await upload(owner, { data: makeJpeg({ width: 600, height: 400, mwgFaces: [face] }) })).body.id as string;
    const person = await personNamed(owner, 'Ada Crop');
    const thumbnail = (personId: string, token = owner) =>
      invoke(personThumbnailHandler, {
        path: `/api/person/${personId}/thumbnail`,
        headers: bearer(token),
        pathParameters: { id: personId },
      });
    expect(person.thumbnailPath).toBe('');
    expect((await thumbnail(person.id)).body).toEqual({ message: 'Not Found', statusCode: 404 });
    await objectCreated((await assetInfo(owner, id)).body.originalPath);
    expect((await personNamed(owner, 'Ada Crop')).thumbnailPath).toBe(
      `thumbs/${accounts.user1.userId}/${person.id.slice(0, 2)}/${person.id.slice(2, 4)}/${person.id}.jpeg`,
    );
    const reply = await thumbnail(person.id);
    expect(reply.headers).toMatchObject({ 'content-type': 'image/jpeg', 'cache-control': 'private, no-cache, no-transform' });
    // The face is 120×120 px of the 600×400 image: the square crop is 10% wider (132 px), at most 250 px, never enlarged.
    expect(dimensions(reply.body)).toEqual([132, 132]);
    expect((await thumbnail(person.id, accounts.user2.accessToken)).body.message).toBe('Not found or no person.read access');
  });

  it('crops a new thumbnail when PUT /person/:id picks another feature face (a job handed to the media function)', async () => {
    const owner = accounts.user1.accessToken;
    const faces = (x: number) => [{ name: 'Grace Feature', x, y: 0.25, w: 0.2, h: 0.5 }];
    const first = (await upload(owner, { data: makeJpeg({ width: 400, height: 400, color: [220, 30, 30], mwgFaces: faces(0.1) }) })).body
      .id;
    const second = (await upload(owner, { data: makeJpeg({ width: 800, height: 400, color: [30, 30, 220], mwgFaces: faces(0.6) }) })).body
      .id;
    for (const id of [first, second]) await objectCreated((await assetInfo(owner, id)).body.originalPath);
    const person = await personNamed(owner, 'Grace Feature');
    const cropped = async () => {
      const reply = await invoke(personThumbnailHandler, {
        path: `/api/person/${person.id}/thumbnail`,
        headers: bearer(owner),
        pathParameters: { id: person.id },
      });
      const image = vips.Image.newFromBuffer(Buffer.from(reply.body, 'base64'));
      try {
        return { size: [image.width, image.height], blue: Math.round(image.extractBand(2).avg()) };
      } finally {
        image.delete();
      }
    };
    // The first asset it was seen on: a red picture; the face's centre is 80 px from the left edge,
    // so the square (220 px wanted) is kept inside the picture: 160 px.
    expect(await cropped()).toMatchObject({ size: [160, 160] });
    expect((await cropped()).blue).toBeLessThan(80);

    // The API function carries no codecs: it hands the job on (here, to this test, as the local server does).
    const media = mediaJobsInProcess();
    media.start();
    try {
      const reply = await invoke(updatePersonHandler, {
        method: 'PUT',
        path: `/api/person/${person.id}`,
        headers: bearer(owner),
        pathParameters: { id: person.id },
        body: { featureFaceAssetId: second },
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(media.runs).toHaveLength(1);
      expect(await media.runs[0]).toEqual({ outcomes: { [`person/${person.id}`]: 'made' } });
      // The blue picture's face, 160×200 px, far from the edges: a square 10% wider than its height.
      expect(await cropped()).toMatchObject({ size: [220, 220] });
      expect((await cropped()).blue).toBeGreaterThan(150);
      // Choosing the same face again hands on nothing.
      await invoke(updatePersonHandler, {
        method: 'PUT',
        path: `/api/person/${person.id}`,
        headers: bearer(owner),
        pathParameters: { id: person.id },
        body: { featureFaceAssetId: second },
      });
      expect(media.runs).toHaveLength(1);
    } finally {
      media.stop();
    }
  });
});

describe('shared-link visitors (?key=) on the file routes', () => {
  it('see the link’s assets only; originals and downloads only when the link allows downloads', async () => {
    const owner = accounts.user1.accessToken;
    const shared = makeJpeg({ width: 300, height: 300, make: 'Shared' });
    const inLink = (await upload(owner, { data: shared, fileName: 'shared.jpg' })).body.id as string;
    const notInLink = (await upload(owner, { data: makeJpeg({ make: 'Private' }) })).body.id as string;
    for (const id of [inLink, notInLink]) await objectCreated((await assetInfo(owner, id)).body.originalPath);
    const link = async (body: Record<string, unknown>) =>
      (await invoke(createSharedLinkHandler, { method: 'POST', path: '/api/shared-link', headers: bearer(owner), body })).body as {
        key: string;
      };
    const viewOnly = await link({ type: 'INDIVIDUAL', assetIds: [inLink], allowDownload: false });
    const visit = (
      handler: typeof serveFileHandler,
      path: string,
      id: string,
      key: string,
      query: Record<string, string> = {},
      method = 'GET',
    ) => invoke(handler, { method, path, query: { key, ...query }, pathParameters: { id } });

    const thumb = await visit(thumbnailHandler, `/api/asset/thumbnail/${inLink}`, inLink, viewOnly.key);
    expect([thumb.status, thumb.headers['content-type']]).toEqual([200, 'image/webp']);
    expect((await visit(thumbnailHandler, `/api/asset/thumbnail/${notInLink}`, notInLink, viewOnly.key)).body.message).toBe(
      'Not found or no asset.view access',
    );
    // Without downloads the "original" is the thumbnail, and the download is refused.
    const file = await visit(serveFileHandler, `/api/asset/file/${inLink}`, inLink, viewOnly.key);
    expect(file.headers['content-type']).toBe('image/webp');
    const refused = await visit(downloadHandler, `/api/download/asset/${inLink}`, inLink, viewOnly.key, {}, 'POST');
    expect(refused.body.message).toBe('Not found or no asset.download access');

    const withDownloads = await link({ type: 'INDIVIDUAL', assetIds: [inLink], allowDownload: true });
    const original = await visit(serveFileHandler, `/api/asset/file/${inLink}`, inLink, withDownloads.key);
    expect(Buffer.from(original.body, 'base64').equals(shared)).toBe(true);
    expect((await visit(downloadHandler, `/api/download/asset/${inLink}`, inLink, withDownloads.key, {}, 'POST')).status).toBe(200);

    // GET /asset/:id: the asset without its owner and people; reduced when the link hides metadata.
    const info = await visit(assetInfoHandler, `/api/asset/${inLink}`, inLink, viewOnly.key);
    expect(info.body).toMatchObject({ id: inLink, people: [], exifInfo: expect.objectContaining({ make: 'Shared' }) });
    expect(info.body.owner).toBeUndefined();
    const hidden = await link({ type: 'INDIVIDUAL', assetIds: [inLink], showMetadata: false });
    expect((await visit(assetInfoHandler, `/api/asset/${inLink}`, inLink, hidden.key)).body).toEqual({
      id: inLink,
      type: 'IMAGE',
      thumbhash: expect.any(String),
      localDateTime: expect.any(String),
      resized: true,
      duration: expect.any(String),
      livePhotoVideoId: null,
      hasMetadata: false,
    });
    expect((await visit(assetInfoHandler, `/api/asset/${notInLink}`, notInLink, viewOnly.key)).body.message).toBe(
      'Not found or no asset.read access',
    );

    // An album link shows its album's assets.
    const album = await createAlbum(owner, { albumName: 'Shared album' });
    await addToAlbum(owner, album.id, [notInLink]);
    const albumLink = await link({ type: 'ALBUM', albumId: album.id });
    expect((await visit(thumbnailHandler, `/api/asset/thumbnail/${notInLink}`, notInLink, albumLink.key)).status).toBe(200);
    expect((await visit(thumbnailHandler, `/api/asset/thumbnail/${inLink}`, inLink, albumLink.key)).status).toBe(400);
    // A person's thumbnail is not a shared-link route.
    const person = await invoke(personThumbnailHandler, {
      path: `/api/person/${inLink}/thumbnail`,
      query: { key: albumLink.key },
      pathParameters: { id: inLink },
    });
    expect(person.status).toBe(403);
  });
});
