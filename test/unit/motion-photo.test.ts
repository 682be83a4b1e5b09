import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ByteRange, motionVideoOf, motionVideoRange, readMotionVideo } from '#shared/media/motion-photo.ts';
import { makeJpeg } from '../support/photos.ts';
import { makeVideo } from '../support/videos.ts';

// The ranged search for a motion photo's video (docs/large-uploads.md, "Metadata by ranged reads")
// answers what motionVideoOf answers over the whole file, reading only a few small ranges.

/** A reader over `file` that records every range it is asked for. */
const recording = (file: Buffer) => {
  const reads: ByteRange[] = [];
  const read = async (start: number, end: number) => {
    expect(start).toBeGreaterThanOrEqual(0);
    expect(end).toBeLessThan(file.length);
    expect(end).toBeGreaterThanOrEqual(start);
    reads.push({ start, end });
    return Buffer.from(file.subarray(start, end + 1));
  };
  const bytesRead = () => reads.reduce((sum, { start, end }) => sum + end - start + 1, 0);
  return { read, reads, bytesRead };
};

const headOf = (file: Buffer) => file.subarray(0, 4 * 1024 * 1024);

/** The range motionVideoOf's answer has in the file (it is a view of the file's buffer). */
const wholeFileRange = (file: Buffer): ByteRange | undefined => {
  const video = motionVideoOf(file);
  if (!video) return undefined;
  const start = video.byteOffset - file.byteOffset;
  return { start, end: start + video.length - 1 };
};

/** A JPEG with an XMP segment right after its SOI (a Pixel writes its motion-photo tags there). */
const withXmp = (jpeg: Buffer, rdf: string): Buffer => {
  const xmp = Buffer.from(
    `http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">${rdf}</rdf:RDF></x:xmpmeta>`,
    'utf8',
  );
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(xmp.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, xmp, jpeg.subarray(2)]);
};

const google =
  'xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" xmlns:Container="http://ns.google.com/photos/1.0/container/" xmlns:Item="http://ns.google.com/photos/1.0/container/item/"';

/** A Pixel's motion photo: the XMP's container directory (primary with its padding, then the video's length), then the video. */
const pixel = (jpeg: Buffer, video: Buffer, options: { primaryPadding?: number; microVideo?: boolean; elements?: boolean } = {}) => {
  const padding = options.primaryPadding ?? 0;
  const videoItem = options.elements
    ? `<Container:Item><Item:Mime>video/mp4</Item:Mime><Item:Semantic>MotionPhoto</Item:Semantic><Item:Length>${video.length}</Item:Length></Container:Item>`
    : `<Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="${video.length}"/>`;
  const micro = options.microVideo ? ` GCamera:MicroVideo="1" GCamera:MicroVideoOffset="${video.length}"` : '';
  const rdf =
    `<rdf:Description ${google} GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1"${micro}><Container:Directory><rdf:Seq>` +
    `<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="${padding}"/></rdf:li>` +
    `<rdf:li rdf:parseType="Resource">${videoItem}</rdf:li></rdf:Seq></Container:Directory></rdf:Description>`;
  return Buffer.concat([withXmp(jpeg, rdf), Buffer.alloc(padding), video]);
};

/** A Samsung JPEG that also writes Google's XMP, its directory's video item counting the `MotionPhoto_Data` marker in, the SEF trailer as padding. */
const samsungWithXmp = (jpeg: Buffer, video: Buffer) => {
  const plain = samsung(jpeg, video, { videoFirst: true });
  const markerAt = plain.indexOf('MotionPhoto_Data');
  const length = 16 + video.length;
  const padding = plain.length - markerAt - length;
  const rdf =
    `<rdf:Description ${google} GCamera:MotionPhoto="1"><Container:Directory><rdf:Seq>` +
    '<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary"/></rdf:li>' +
    `<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="${length}" Item:Padding="${padding}"/></rdf:li>` +
    '</rdf:Seq></Container:Directory></rdf:Description>';
  return Buffer.concat([withXmp(jpeg, rdf), plain.subarray(jpeg.length)]);
};

/** An older Pixel's (and Xiaomi's) MicroVideo: only the video's distance from the file's end. */
const microVideo = (jpeg: Buffer, video: Buffer) =>
  Buffer.concat([withXmp(jpeg, `<rdf:Description ${google} GCamera:MicroVideo="1" GCamera:MicroVideoOffset="${video.length}"/>`), video]);

/**
 * A Samsung (One UI) motion photo: after the JPEG, SEF blocks (each: 2 zero bytes, its type, its
 * name's length, its name, its data), the video in `MotionPhoto_Data`; then the SEF directory
 * (`SEFH`, version, count, 12-byte entries: type, offset back from SEFH, length), its length and `SEFT`.
 */
const samsung = (jpeg: Buffer, video: Buffer, options: { videoFirst?: boolean } = {}) => {
  const block = (type: number, name: string, data: Buffer) => {
    const header = Buffer.alloc(8);
    header.writeUInt16LE(type, 2);
    header.writeUInt32LE(name.length, 4);
    return { type, bytes: Buffer.concat([header, Buffer.from(name, 'latin1'), data]) };
  };
  const motion = block(0x0a30, 'MotionPhoto_Data', video);
  const time = block(0x0a01, 'Image_UTC_Data', Buffer.from('1700000000000', 'latin1'));
  const blocks = options.videoFirst ? [motion, time] : [time, motion];
  const body = Buffer.concat(blocks.map((each) => each.bytes));
  const directory = Buffer.alloc(12 + 12 * blocks.length);
  directory.write('SEFH', 0, 'latin1');
  directory.writeUInt32LE(106, 4);
  directory.writeUInt32LE(blocks.length, 8);
  let at = 0;
  blocks.forEach((each, index) => {
    directory.writeUInt16LE(each.type, 12 + index * 12 + 2);
    directory.writeUInt32LE(body.length - at, 12 + index * 12 + 4);
    directory.writeUInt32LE(each.bytes.length, 12 + index * 12 + 8);
    at += each.bytes.length;
  });
  const end = Buffer.alloc(8);
  end.writeUInt32LE(directory.length, 0);
  end.write('SEFT', 4, 'latin1');
  return Buffer.concat([jpeg, body, directory, end]);
};

const box = (type: string, payload: Buffer, large = false): Buffer => {
  const header = Buffer.alloc(large ? 16 : 8);
  header.write(type, 4, 'latin1');
  if (large) {
    header.writeUInt32BE(1, 0);
    header.writeBigUInt64BE(BigInt(16 + payload.length), 8);
  } else header.writeUInt32BE(8 + payload.length, 0);
  return Buffer.concat([header, payload]);
};

/** Samsung's HEIC: the video in a top-level `mpvd` box after the picture's boxes. */
const samsungHeic = (heic: Buffer, video: Buffer) => Buffer.concat([heic, box('mpvd', video)]);

describe('motionVideoRange: a motion photo’s video by ranged reads, as motionVideoOf finds it in the whole file', () => {
  let mp4: Buffer;
  let mov: Buffer;
  let heic: Buffer;
  let picture: Buffer;
  beforeAll(() => {
    mp4 = makeVideo({ seconds: 1, width: 320, height: 240 });
    mov = makeVideo({ seconds: 1, width: 144, height: 176, container: 'mov' });
    heic = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'iphone.heic'));
    picture = makeJpeg({ width: 400, height: 300, color: [1, 2, 3] });
  });

  /** Both answers, and the reads the ranged one made. */
  const compare = async (file: Buffer, head = headOf(file)) => {
    const reader = recording(file);
    const range = await motionVideoRange(reader.read, file.length, head);
    const whole = wholeFileRange(file);
    expect(range).toEqual(whole);
    const video = await readMotionVideo(recording(file).read, file.length, head);
    const expected = motionVideoOf(file);
    if (expected) expect(video?.equals(expected)).toBe(true);
    else expect(video).toBeUndefined();
    return { range, reader };
  };

  it('the files the upload tests use: Pixel (appended, with its XMP), Samsung JPEG and HEIC, a crowd with 40 faces', async () => {
    const files: [string, Buffer, Buffer][] = [
      ['appended MP4 without XMP (PXL_0001.MP.jpg)', Buffer.concat([picture, mp4]), mp4],
      [
        'MotionPhoto_Data marker and a short trailer',
        Buffer.concat([picture, Buffer.from('MotionPhoto_Data'), mp4, Buffer.from('SEFH\x01\x00\x00\x00trailer')]),
        mp4,
      ],
      ['Samsung HEIC (mpvd box)', samsungHeic(heic, mp4), mp4],
      ['Pixel XMP (MotionPhoto and MicroVideo) with a QuickTime movie', pixel(picture, mov, { microVideo: true }), mov],
      ['Pixel XMP, items written as elements', pixel(picture, mp4, { elements: true }), mp4],
      ['Pixel XMP with padding after the primary', pixel(picture, mp4, { primaryPadding: 100 }), mp4],
      ['MicroVideo offset only', microVideo(picture, mov), mov],
      ['Samsung SEF trailer, video block last', samsung(picture, mp4), mp4],
      ['Samsung SEF trailer, video block first', samsung(picture, mov, { videoFirst: true }), mov],
      ['Samsung SEF trailer and Google XMP', samsungWithXmp(picture, mp4), mp4],
      [
        'crowd.MP.jpg',
        Buffer.concat([makeJpeg({ width: 800, height: 500, mwgFaces: [{ name: 'A', x: 0.1, y: 0.1, w: 0.1, h: 0.1 }] }), mp4]),
        mp4,
      ],
    ];
    for (const [name, file, video] of files) {
      const { range } = await compare(file);
      expect(range, name).toBeDefined();
      expect(file.subarray((range as ByteRange).start, (range as ByteRange).end + 1).equals(video), name).toBe(true);
      // Without a head (the caller has none), the same answer.
      await compare(file, Buffer.alloc(0));
    }
  });

  it('no video: a plain JPEG or HEIC, a stray `ftyp` in the picture, a file too short, another format', async () => {
    const stray = Buffer.concat([picture, box('ftyp', Buffer.from('isom\0\0\0\0')), Buffer.from('not a box at all')]);
    const brokenMp4 = Buffer.concat([picture, mp4.subarray(0, mp4.length - 100)]);
    for (const file of [
      picture,
      heic,
      stray,
      Buffer.from([0xff, 0xd8, 0xff]),
      Buffer.from('GIF89a, not a motion photo at all'),
      brokenMp4,
    ]) {
      expect(await motionVideoRange(recording(file).read, file.length, headOf(file))).toBeUndefined();
      expect(motionVideoOf(file)).toBeUndefined();
      expect(await readMotionVideo(recording(file).read, file.length, headOf(file))).toBeUndefined();
    }
  });

  it('large photos (over 8 MB): the video is found with a few small reads past the head, never the picture’s bytes', async () => {
    const large = makeJpeg({ width: 2600, height: 1800, noise: true });
    const video = makeVideo({ seconds: 2, width: 640, height: 360 });
    // Whether the XMP in the head locates the video (then the file's end is not read beyond box headers).
    const files: [Buffer, boolean][] = [
      [pixel(large, video), true],
      [pixel(large, video, { elements: true, primaryPadding: 1000 }), true],
      [microVideo(large, video), true],
      [samsungWithXmp(large, video), true],
      [samsung(large, video), false],
    ];
    for (const [file, byXmp] of files) {
      expect(file.length).toBeGreaterThan(8 * 1024 * 1024);
      const { range, reader } = await compare(file);
      expect(file.subarray((range as ByteRange).start, (range as ByteRange).end + 1).equals(video)).toBe(true);
      // Box headers (and the trailer) only: a handful of reads, some KiB, all after the head.
      expect(reader.reads.length).toBeLessThanOrEqual(6);
      expect(reader.bytesRead()).toBeLessThanOrEqual((byXmp ? 0 : 64 * 1024) + 5 * 4 * 1024);
      for (const read of reader.reads) expect(read.start).toBeGreaterThanOrEqual(4 * 1024 * 1024);
      // readMotionVideo reads the video itself once more.
      const videoReader = recording(file);
      expect((await readMotionVideo(videoReader.read, file.length, headOf(file)))?.equals(video)).toBe(true);
      expect(videoReader.reads.at(-1)).toEqual(range);
    }
  });

  it('readMotionVideo: a video over the limit is not read (the caller copies its range instead)', async () => {
    const file = pixel(picture, mp4);
    const reader = recording(file);
    expect(await readMotionVideo(reader.read, file.length, headOf(file), mp4.length - 1)).toBeUndefined();
    expect(reader.bytesRead()).toBeLessThan(mp4.length);
    expect((await readMotionVideo(reader.read, file.length, headOf(file), mp4.length))?.equals(mp4)).toBe(true);
  });

  it('the bound: a JPEG without XMP or SEF directory is searched in its last MiB only', async () => {
    // No camera writes such a file; motionVideoOf (the whole file in memory) finds it anywhere.
    const file = Buffer.concat([picture, mp4, Buffer.alloc(1024 * 1024)]);
    expect(motionVideoOf(file)).toBeDefined();
    const reader = recording(file);
    expect(await motionVideoRange(reader.read, file.length, headOf(file).subarray(0, 1024))).toBeUndefined();
    expect(reader.bytesRead()).toBeLessThanOrEqual(256 * 1024 + 1024 * 1024 + 16 * 4 * 1024);
  });

  describe('property: for generated motion photos, both functions agree', () => {
    /** A synthetic MP4: `ftyp`, then `moov` and `mdat` in either order, maybe `free`/`uuid`/`udta`, maybe 64-bit sizes. */
    const syntheticMp4 = fc
      .record({
        brand: fc.constantFrom('isom', 'mp42', 'qt  ', 'heic'),
        moovFirst: fc.boolean(),
        mdat: fc.uint8Array({ maxLength: 3000 }),
        moov: fc.uint8Array({ maxLength: 500 }),
        extra: fc.subarray(['free', 'uuid', 'udta', 'wide']),
        largeMdat: fc.boolean(),
        withoutMoov: fc.boolean(),
        openEnded: fc.boolean(),
      })
      .map(({ brand, moovFirst, mdat, moov, extra, largeMdat, withoutMoov, openEnded }) => {
        const media = box('mdat', Buffer.from(mdat), largeMdat);
        const movie = withoutMoov ? box('skip', Buffer.from(moov)) : box('moov', Buffer.from(moov));
        const last = moovFirst ? Buffer.from(media) : Buffer.from(movie);
        // Size 0: the last box runs to the file's end (whatever follows it there).
        if (openEnded && last.readUInt32BE(0) !== 1) last.writeUInt32BE(0, 0);
        return Buffer.concat([
          box('ftyp', Buffer.from(`${brand}\0\0\0\0isom`, 'latin1')),
          ...extra.map((type) => box(type, Buffer.alloc(8))),
          ...(moovFirst ? [movie, last] : [media, last]),
        ]);
      });
    const video = fc.oneof(syntheticMp4, fc.constant('mp4'), fc.constant('mov'));
    /** How each layout wraps a video in a file. */
    const layouts = {
      pixel: (clip: Buffer) => pixel(picture, clip),
      'pixel-padded': (clip: Buffer) => pixel(picture, clip, { primaryPadding: 37 }),
      'pixel-elements': (clip: Buffer) => pixel(picture, clip, { elements: true }),
      'micro-video': (clip: Buffer) => microVideo(picture, clip),
      samsung: (clip: Buffer) => samsung(picture, clip),
      'samsung-first': (clip: Buffer) => samsung(picture, clip, { videoFirst: true }),
      'samsung-xmp': (clip: Buffer) => samsungWithXmp(picture, clip),
      heic: (clip: Buffer) => samsungHeic(heic, clip),
      appended: (clip: Buffer) => Buffer.concat([picture, clip]),
      none: (_clip: Buffer) => picture,
    };
    const layout = fc.constantFrom(...(Object.keys(layouts) as (keyof typeof layouts)[]));
    const junk = fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes));

    it('Pixel, MicroVideo, Samsung (JPEG and HEIC), appended and none; with stray bytes after, and any head length', async () => {
      await fc.assert(
        fc.asyncProperty(layout, video, junk, fc.boolean(), fc.nat(), async (kind, chosen, trailing, addTrailing, headCut) => {
          const clip = chosen === 'mp4' ? mp4 : chosen === 'mov' ? mov : chosen;
          const made = layouts[kind](clip);
          const file = addTrailing ? Buffer.concat([made, trailing]) : made;
          const head = file.subarray(0, headCut % (file.length + 1));
          const range = await motionVideoRange(recording(file).read, file.length, head);
          expect(range).toEqual(wholeFileRange(file));
          const read = await readMotionVideo(recording(file).read, file.length, head);
          const expected = motionVideoOf(file);
          expect(read === undefined ? undefined : Buffer.compare(read, expected ?? Buffer.alloc(0))).toBe(expected ? 0 : undefined);
        }),
        { numRuns: 300 },
      );
    });
  });
});
