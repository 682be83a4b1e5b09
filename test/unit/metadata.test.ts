import { describe, expect, it } from 'vitest';
import { extractMetadata } from '#shared/media/metadata.ts';
import { type ImageFormat, makeImage, makeJpeg, makeSidecar, type PhotoSpec } from '../support/photos.ts';
import { makeVideo } from '../support/videos.ts';

/** What Immich records of a file's date: the instant, the wall-clock time and the zone. */
const taken = async (file: Buffer, sidecar?: Buffer) => {
  const { exif, takenAt } = await extractMetadata(file, sidecar);
  return { instant: takenAt?.instant ?? null, local: takenAt?.localDateTime ?? null, timeZone: exif.timeZone };
};

const camera: PhotoSpec = {
  make: 'Google',
  model: 'Pixel 8',
  lensModel: 'Pixel 8 back camera 6.9mm f/1.68',
  dateTimeOriginal: '2023:08:16 14:00:00',
  offsetTimeOriginal: '+02:00',
};

describe('the formats Immich reads dates, camera and lens from (exiftool: every one the product accepts)', () => {
  it.each<ImageFormat>(['webp', 'avif', 'jxl', 'png', 'tiff', 'dng'])(
    'reads the EXIF of a %s file: date with its offset, make, model and lens',
    async (format) => {
      const metadata = await extractMetadata(await makeImage(format, camera));
      expect(metadata.exif).toMatchObject({
        make: 'Google',
        model: 'Pixel 8',
        lensModel: 'Pixel 8 back camera 6.9mm f/1.68',
        dateTimeOriginal: '2023-08-16T12:00:00.000Z',
        timeZone: 'UTC+2',
        exifImageWidth: 64,
        exifImageHeight: 48,
      });
      expect(metadata.takenAt).toEqual({
        instant: '2023-08-16T12:00:00.000Z',
        localDateTime: '2023-08-16T14:00:00.000Z',
        timeZone: 'UTC+2',
      });
    },
  );

  it.each<ImageFormat>(['webp', 'avif', 'jxl', 'png', 'tiff', 'gif'])(
    'reads the XMP of a %s file: a date in exif:DateTimeOriginal and the keywords',
    async (format) => {
      const spec: PhotoSpec = { xmp: { 'exif:DateTimeOriginal': '2022-12-24T18:30:00-05:00' }, tagsList: ['Holidays/Christmas'] };
      const metadata = await extractMetadata(await makeImage(format, spec));
      expect(metadata.takenAt).toEqual({
        instant: '2022-12-24T23:30:00.000Z',
        localDateTime: '2022-12-24T18:30:00.000Z',
        timeZone: 'UTC-5',
      });
      expect(metadata.keywords).toEqual(['Holidays/Christmas']);
    },
  );

  it('a WebP whose EXIF chunk is the bare TIFF block (as the WebP specification and exiftool write it; libvips adds `Exif\\0\\0`)', async () => {
    const webp = await makeImage('webp', camera);
    const at = webp.indexOf('EXIF');
    const size = webp.readUInt32LE(at + 4);
    expect(webp.toString('latin1', at + 8, at + 14)).toBe('Exif\0\0');
    const bare = webp.subarray(at + 14, at + 8 + size);
    const chunk = Buffer.concat([Buffer.from('EXIF', 'latin1'), Buffer.alloc(4), bare, Buffer.alloc(bare.length % 2)]);
    chunk.writeUInt32LE(bare.length, 4);
    const rebuilt = Buffer.concat([webp.subarray(0, at), chunk, webp.subarray(at + 8 + size + (size % 2))]);
    rebuilt.writeUInt32LE(rebuilt.length - 8, 4);
    expect((await extractMetadata(rebuilt)).exif).toMatchObject({ make: 'Google', dateTimeOriginal: '2023-08-16T12:00:00.000Z' });
  });
});

describe("the date taken: Immich's tags in Immich's order", () => {
  it('an XMP GPSDateTime alone (UTC) is the date, in UTC+0 as Immich names a date written in UTC without a zone', async () => {
    const file = makeJpeg({ xmp: { 'exif:GPSTimeStamp': '2021-07-04T16:20:00Z' } });
    expect(await taken(file)).toEqual({ instant: '2021-07-04T16:20:00.000Z', local: '2021-07-04T16:20:00.000Z', timeZone: 'UTC+0' });
    // The same in a sidecar.
    expect(await taken(makeJpeg(), makeSidecar({ xmp: { 'exif:GPSTimeStamp': '2021-07-04T16:20:00Z' } }))).toMatchObject({
      instant: '2021-07-04T16:20:00.000Z',
    });
  });

  it('EXIF GPS date and time give the zone of a date written without one (the nearest offset in use)', async () => {
    // 09:31 on the camera's clock, 16:30 UTC by the satellites: UTC-7.
    const file = makeJpeg({ dateTimeOriginal: '2021:07:04 09:31:10', gpsDateStamp: '2021:07:04', gpsTimeStamp: '16:30:00' });
    expect(await taken(file)).toEqual({ instant: '2021-07-04T16:31:10.000Z', local: '2021-07-04T09:31:10.000Z', timeZone: 'UTC-7' });
  });

  it('SubSecDateTimeOriginal, then SubSecCreateDate, before XMP’s DateTimeOriginal, XMP CreateDate and IPTC’s', async () => {
    const xmpDates = { 'exif:DateTimeOriginal': '2020-01-01T01:00:00', 'xmp:CreateDate': '2020-02-02T02:00:00' };
    expect(
      (await taken(makeJpeg({ dateTimeOriginal: '2021:03:03 03:00:00', createDate: '2021:04:04 04:00:00', xmp: xmpDates }))).local,
    ).toBe('2021-03-03T03:00:00.000Z');
    expect((await taken(makeJpeg({ createDate: '2021:04:04 04:00:00', xmp: xmpDates }))).local).toBe('2021-04-04T04:00:00.000Z');
    expect((await taken(makeJpeg({ xmp: xmpDates }))).local).toBe('2020-01-01T01:00:00.000Z');
    expect((await taken(makeJpeg({ xmp: { 'xmp:CreateDate': '2020-02-02T02:00:00' } }))).local).toBe('2020-02-02T02:00:00.000Z');
    // IPTC DateCreated with TimeCreated (exiftool's DateTimeCreated), its offset too.
    expect(await taken(makeJpeg({ iptcDateCreated: '20190505', iptcTimeCreated: '101500+0300' }))).toEqual({
      instant: '2019-05-05T07:15:00.000Z',
      local: '2019-05-05T10:15:00.000Z',
      timeZone: 'UTC+3',
    });
    // A date alone (no time) is no date taken, as exiftool's.
    expect((await taken(makeJpeg({ xmp: { 'photoshop:DateCreated': '2019-05-05' } }))).instant).toBeNull();
    // Insta360's GPano:SourceImageCreateTime, last.
    expect((await taken(makeJpeg({ xmp: { 'GPano:SourceImageCreateTime': '2018-06-06T06:06:06' } }))).local).toBe(
      '2018-06-06T06:06:06.000Z',
    );
  });

  it("a sidecar with a date takes the file's dates and the file's zone with it; without one, the file's date stays", async () => {
    const file = makeJpeg({ dateTimeOriginal: '2021:03:03 03:00:00', offsetTimeOriginal: '+09:00' });
    expect(await taken(file, makeSidecar({ xmp: { 'xmp:CreateDate': '2020-02-02T02:00:00' } }))).toEqual({
      instant: '2020-02-02T02:00:00.000Z',
      local: '2020-02-02T02:00:00.000Z',
      timeZone: null,
    });
    expect(await taken(file, makeSidecar({ city: 'Osaka' }))).toEqual({
      instant: '2021-03-02T18:00:00.000Z',
      local: '2021-03-03T03:00:00.000Z',
      timeZone: 'UTC+9',
    });
  });

  it("the zone: an offset tag, else the position's, else an offset written into a date (as exiftool-vendored orders them)", async () => {
    const newYork = { latitude: 40.7128, longitude: -74.006 };
    const written = { 'exif:DateTimeOriginal': '2022-06-01T12:00:00+02:00' };
    // The position's zone names the zone; the written offset still fixes the instant.
    expect(await taken(makeJpeg({ ...newYork, xmp: written }))).toEqual({
      instant: '2022-06-01T10:00:00.000Z',
      local: '2022-06-01T06:00:00.000Z',
      timeZone: 'America/New_York',
    });
    expect(await taken(makeJpeg({ xmp: written }))).toMatchObject({ timeZone: 'UTC+2', local: '2022-06-01T12:00:00.000Z' });
    expect(await taken(makeJpeg({ ...newYork, dateTimeOriginal: '2022:06:01 12:00:00', offsetTimeDigitized: '-03:00' }))).toEqual({
      instant: '2022-06-01T15:00:00.000Z',
      local: '2022-06-01T12:00:00.000Z',
      timeZone: 'UTC-3',
    });
    // A position without a date still names the zone (Immich's timeZone is the file's zone).
    expect(await taken(makeJpeg(newYork))).toEqual({ instant: null, local: null, timeZone: 'America/New_York' });
  });

  it('a video’s movie-header time is UTC, and a video without a zone of its own is in UTC', async () => {
    expect(await taken(makeVideo({ seconds: 1, width: 160, height: 120, creationTime: '2020-10-10T10:10:10Z' }))).toEqual({
      instant: '2020-10-10T10:10:10.000Z',
      local: '2020-10-10T10:10:10.000Z',
      timeZone: 'UTC',
    });
  });

  it('a date that is no date (zeros, a 30 February, an hour 25) is passed over for the next', async () => {
    for (const bad of ['0000:00:00 00:00:00', '2023:02:30 10:00:00', '2023:01:01 25:00:00', '    :  :     :  :  '])
      expect((await taken(makeJpeg({ dateTimeOriginal: bad, createDate: '2021:04:04 04:00:00' }))).local, bad).toBe(
        '2021-04-04T04:00:00.000Z',
      );
  });
});

describe('keywords (Immich v3’s tag list)', () => {
  const keywords = async (spec: PhotoSpec, sidecar?: PhotoSpec) =>
    (await extractMetadata(makeJpeg(spec), sidecar ? makeSidecar(sidecar) : undefined)).keywords;

  it("digiKam's TagsList, else Lightroom's HierarchicalSubject (| levels; a / in a level kept as |), else dc:subject, else IPTC", async () => {
    const all = { tagsList: ['Places/Rome'], hierarchicalSubject: ['Music|AC/DC'], subject: ['Rome'], keywords: ['Picasa'] };
    expect(await keywords(all)).toEqual(['Places/Rome']);
    expect(await keywords({ ...all, tagsList: undefined })).toEqual(['Music/AC|DC']);
    expect(await keywords({ subject: ['Rome', 'Italy'], keywords: ['Picasa'] })).toEqual(['Rome', 'Italy']);
    expect(await keywords({ keywords: ['Picasa', 'Web Albums'] })).toEqual(['Picasa', 'Web Albums']);
    // A sidecar's list wins over the file's list of the same tag; the file's TagsList over a sidecar's subject.
    expect(await keywords({ tagsList: ['File'] }, { tagsList: ['Sidecar/One'] })).toEqual(['Sidecar/One']);
    expect(await keywords({ tagsList: ['File'] }, { subject: ['Sidecar'] })).toEqual(['File']);
    expect(await keywords({ keywords: ['File'] }, { subject: ['Sidecar'] })).toEqual(['Sidecar']);
  });

  it('empty, padded, repeated keywords and empty levels make no empty or repeated path', async () => {
    expect(await keywords({ tagsList: ['', '   ', 'Trips/', '/Trips', ' Trips ', 'Trips//Rome', 'a||b', 'Trips/Rome/'] })).toEqual([
      'Trips',
      'Trips/Rome',
      'a||b',
    ]);
    expect(await keywords({ hierarchicalSubject: ['a||b', 'a|b|', '|', ' | x | '] })).toEqual(['a/b', 'x']);
  });

  it('stops at 200 tags a file (each level of a path is a tag)', async () => {
    const many = Array.from({ length: 300 }, (_, i) => `Deep/${i}`);
    const read = await keywords({ tagsList: many });
    expect(read).toHaveLength(199);
    expect(read.at(-1)).toBe('Deep/198');
  });
});
