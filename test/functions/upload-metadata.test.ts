import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAssetInfo } from '#functions/v3/asset/get-asset-info.ts';
import { handler as uploadAsset } from '#functions/v3/asset/upload-asset.ts';
import { bearer, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { assetInfo } from '../support/library.ts';
import { type ImageFormat, makeImage, makeJpeg, makeSidecar, type RawExifEntry } from '../support/photos.ts';
import { multipart, upload } from '../support/uploads.ts';

let token: string;
beforeAll(async () => {
  token = (await setupAccounts()).user1.accessToken;
});

/** POST /assets as @immich/cli 3.2.2 sends a file (its client date: 2024-05-06), and the asset as GET /assets/:id answers it. */
const uploadV3 = async (data: Buffer, fileName: string, sidecar?: Buffer) => {
  const fields = { fileCreatedAt: '2024-05-06T07:08:09.000Z', fileModifiedAt: '2024-05-06T07:08:09.000Z', isFavorite: 'false' };
  const files = { assetData: { data, fileName }, ...(sidecar ? { sidecarData: { data: sidecar, fileName: `${fileName}.xmp` } } : {}) };
  const { body, contentType } = await multipart(fields, files);
  const reply = await invoke(uploadAsset, {
    method: 'POST',
    path: '/api/assets',
    headers: { ...bearer(token), 'content-type': contentType },
    body,
  });
  expect(reply.status, `${fileName}: ${JSON.stringify(reply.body)}`).toBe(201);
  const id = reply.body.id as string;
  return (await invoke(getAssetInfo, { path: `/api/assets/${id}`, headers: bearer(token), pathParameters: { id } })).body;
};

// Three rationals of 0/0: GPS tags a Motorola moto g(9) plus writes without a fix.
const emptyCoordinate = [0, 0, 0, 0, 0, 0];
const emptyGps: RawExifEntry[] = [
  { ifd: 'gps', tag: 0x0001, type: 2, values: 'N' },
  { ifd: 'gps', tag: 0x0002, type: 5, values: emptyCoordinate },
  { ifd: 'gps', tag: 0x0003, type: 2, values: 'E' },
  { ifd: 'gps', tag: 0x0004, type: 5, values: emptyCoordinate },
  { ifd: 'gps', tag: 0x0006, type: 5, values: [0, 0] },
];

describe('an empty GPS block (Android phones without a fix) is a photo without a position, never a 500', () => {
  it('POST /asset/upload and POST /assets: 201, no position, and its other numbers as written', async () => {
    const data = makeJpeg({ make: 'motorola', model: 'moto g(9) plus', dateTimeOriginal: '2024:02:10 09:15:00', rawExif: emptyGps });
    const reply = await upload(token, { data, fileName: 'IMG_20240210_091500.jpg' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const asset = (await assetInfo(token, reply.body.id)).body;
    expect(asset.exifInfo).toMatchObject({ make: 'motorola', model: 'moto g(9) plus', latitude: null, longitude: null, city: null });
    expect(asset.localDateTime).toBe('2024-02-10T09:15:00.000Z');

    // Every rational of the photo at 0/0 or n/0, through v3's route.
    const zeros: RawExifEntry[] = [
      ...emptyGps,
      { ifd: 'exif', tag: 0x829a, type: 5, values: [1, 0] },
      { ifd: 'exif', tag: 0x829d, type: 5, values: [0, 0] },
      { ifd: 'exif', tag: 0x920a, type: 5, values: [28, 0] },
    ];
    const v3 = await uploadV3(makeJpeg({ make: 'motorola', rawExif: zeros }), 'zeros.jpg');
    expect(v3.exifInfo).toMatchObject({ latitude: null, longitude: null, exposureTime: null, fNumber: null, focalLength: null });
  });
});

describe('sidecars as cataloguers write them', () => {
  it('a UTF-16 sidecar (with or without its byte-order mark, either byte order) or a UTF-8 one with a mark is read, not refused', async () => {
    const text = makeSidecar({ xmp: { 'xmp:CreateDate': '2010-09-27T10:00:00' } }).toString('utf8');
    const littleEndian = Buffer.from(text, 'utf16le');
    const bigEndian = Buffer.from(littleEndian).swap16();
    const encodings: [string, Buffer][] = [
      ['utf-16le with mark', Buffer.concat([Buffer.from([0xff, 0xfe]), littleEndian])],
      ['utf-16be with mark', Buffer.concat([Buffer.from([0xfe, 0xff]), bigEndian])],
      ['utf-16le without mark', littleEndian],
      ['utf-16be without mark', bigEndian],
      ['utf-8 with mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')])],
    ];
    for (const [index, [name, sidecar]] of encodings.entries()) {
      const asset = await uploadV3(makeJpeg({ color: [index, 9, 9] }), `${name.replaceAll(' ', '-')}.jpg`, sidecar);
      expect(asset.localDateTime, name).toBe('2010-09-27T10:00:00.000Z');
    }
  });
});

describe("dates, camera and lens of every format Immich's metadata job reads", () => {
  const spec = {
    make: 'Google',
    model: 'Pixel 8',
    lensModel: 'Pixel 8 back camera 6.9mm f/1.68',
    dateTimeOriginal: '2023:08:16 14:00:00',
    offsetTimeOriginal: '+02:00',
  };

  it.each<[ImageFormat, string]>([
    ['webp', 'denali.webp'],
    ['avif', 'photo.avif'],
    ['jxl', 'photo.jxl'],
    ['png', 'photo.png'],
    ['tiff', 'photo.tiff'],
    ['dng', 'photo.dng'],
  ])('a %s file lands on the day it was taken, with its camera and lens', async (format, fileName) => {
    const asset = await uploadV3(await makeImage(format, spec), fileName);
    expect(asset).toMatchObject({
      fileCreatedAt: '2023-08-16T12:00:00.000Z',
      localDateTime: '2023-08-16T14:00:00.000Z',
      exifInfo: {
        make: 'Google',
        model: 'Pixel 8',
        lensModel: 'Pixel 8 back camera 6.9mm f/1.68',
        dateTimeOriginal: '2023-08-16T12:00:00.000Z',
        timeZone: 'UTC+2',
      },
    });
  });

  it('a GIF’s XMP date; a date only in XMP’s GPSDateTime (in the file or its sidecar) is the date taken', async () => {
    const gif = await uploadV3(await makeImage('gif', { xmp: { 'exif:DateTimeOriginal': '2019-11-11T11:11:11+01:00' } }), 'anim.gif');
    expect(gif).toMatchObject({ fileCreatedAt: '2019-11-11T10:11:11.000Z', localDateTime: '2019-11-11T11:11:11.000Z' });
    const gps = { xmp: { 'exif:GPSTimeStamp': '2021-07-04T16:20:00Z' } };
    for (const asset of [
      await uploadV3(makeJpeg(gps), 'gps-time.jpg'),
      await uploadV3(makeJpeg({ color: [1, 2, 3] }), 'gps-time-sidecar.jpg', makeSidecar(gps)),
    ])
      expect(asset).toMatchObject({
        fileCreatedAt: '2021-07-04T16:20:00.000Z',
        localDateTime: '2021-07-04T16:20:00.000Z',
        exifInfo: { dateTimeOriginal: '2021-07-04T16:20:00.000Z', timeZone: 'UTC+0' },
      });
  });
});
