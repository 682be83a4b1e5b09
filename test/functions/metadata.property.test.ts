import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractMetadata, type Metadata, metadataOf } from '#shared/media/metadata.ts';
import type { ContainerMetadata } from '#shared/media/quicktime.ts';
import { makeJpeg, makeSidecar, type RawExifEntry } from '../support/photos.ts';

// Property: whatever values a file's tags hold (NaN, ±Infinity, numbers too large or too small for
// DynamoDB, negative ones, strings, lists, objects, rationals with a zero denominator), every number
// the metadata reader answers is finite and storable, the answer marshals for DynamoDB, and DynamoDB
// Local stores it: no upload is a 500 for its EXIF (docs/immich-compatibility.md, "Media").

const numbers = fc.oneof(
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e308, -1e308, 5e-324, -5e-324, 1e-200, 0, -0, 2 ** 53),
  fc.double(),
  fc.integer(),
  fc.double({ min: -200, max: 200, noNaN: true }),
);
const scalar = fc.oneof(
  numbers,
  fc.string(),
  fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e400', '1/0', '0/0', '', ' ', '52,31.2N', '2023:06:01 10:30:00', '+02:00', 'Z'),
  fc.constantFrom(null, undefined, true, false),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('any'), { maxLength: 4 }),
    fc.dictionary(fc.string(), tie('any'), { maxKeys: 3 }),
  ),
})).any;

// Every tag the reader looks at, and then some.
const tagNames = [
  'GPSLatitude',
  'GPSLongitude',
  'GPSLatitudeRef',
  'GPSLongitudeRef',
  'latitude',
  'longitude',
  'GPSDateTime',
  'GPSDateStamp',
  'GPSTimeStamp',
  'FNumber',
  'FocalLength',
  'ISO',
  'ExposureTime',
  'ExifImageWidth',
  'ExifImageHeight',
  'ImageWidth',
  'ImageHeight',
  'Orientation',
  'Rating',
  'Make',
  'Model',
  'LensModel',
  'DateTimeOriginal',
  'SubSecTimeOriginal',
  'OffsetTimeOriginal',
  'CreateDate',
  'OffsetTimeDigitized',
  'TimeZoneOffset',
  'ModifyDate',
  'OffsetTime',
  'DateCreated',
  'DateTimeCreated',
  'SourceImageCreateTime',
  'ProjectionType',
  'City',
  'description',
  'Regions',
  'RegionInfo',
  'TagsList',
  'HierarchicalSubject',
  'Subject',
  'Keywords',
];
const tags = fc.dictionary(fc.constantFrom(...tagNames), value, { maxKeys: 12 });
const regions = fc.record({
  AppliedToDimensions: fc.record({ w: numbers, h: numbers, unit: fc.constant('pixel') }),
  RegionList: fc.record({
    Area: fc.record({ x: numbers, y: numbers, w: numbers, h: numbers }),
    Type: fc.constant('Face'),
    Name: fc.string(),
  }),
});

const container = fc.record(
  {
    durationSeconds: numbers,
    width: numbers,
    height: numbers,
    rotation: numbers,
    latitude: numbers,
    longitude: numbers,
    make: fc.string(),
    creationDate: scalar,
    createdAt: fc.oneof(fc.date(), fc.constant(new Date(Number.NaN))),
  },
  { requiredKeys: [] },
);

/** Every number in a value, with where it is. */
const numbersIn = (value: unknown, path = ''): [string, number][] => {
  if (typeof value === 'number') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((each, i) => numbersIn(each, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, each]) => numbersIn(each, `${path}.${key}`));
  return [];
};

const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
let stored = 0;

/** The answer is storable: its numbers, its marshalling, and DynamoDB Local's put. */
const storable = async (metadata: Metadata) => {
  for (const [path, n] of numbersIn(metadata)) {
    expect(Number.isFinite(n), `${path} = ${n}`).toBe(true);
    expect(n === 0 || (Math.abs(n) >= 1e-130 && Math.abs(n) <= 1e125), `${path} = ${n}`).toBe(true);
  }
  expect(() => marshall(metadata)).not.toThrow();
  await db.send(
    new PutCommand({ TableName: process.env.TABLE_NAME, Item: { pk: 'METADATA#property', sk: `RUN#${++stored}`, ...metadata } }),
  );
};

describe('the metadata reader answers only numbers DynamoDB can store, whatever the tags hold', () => {
  it('for any tag values (the reader fed directly)', async () => {
    await fc.assert(
      fc.asyncProperty(
        tags,
        tags,
        fc.option(fc.tuple(tags, regions)),
        container,
        fc.boolean(),
        fc.option(fc.record({ width: fc.integer({ min: 1, max: 70_000 }), height: fc.integer({ min: 1, max: 70_000 }) })),
        async (exif, xmp, sidecar, video, isVideo, dimensions) => {
          const metadata = await metadataOf({
            file: { exif, xmp },
            ...(sidecar ? { sidecar: { ...sidecar[0], Regions: sidecar[1] } } : {}),
            // Any values, those a container reader would never give included.
            container: video as ContainerMetadata,
            ...(dimensions ? { dimensions } : {}),
            size: 1234,
            video: isVideo,
          });
          await storable(metadata);
        },
      ),
      { numRuns: 300 },
    );
  });

  // EXIF as cameras write it, with any numerator and denominator (zero ones too) in its rationals.
  const u32 = fc.oneof(fc.constantFrom(0, 1, 0xffffffff), fc.nat());
  const rationals = (count: number) => fc.array(u32, { minLength: count * 2, maxLength: count * 2 });
  const entry = (ifd: RawExifEntry['ifd'], tag: number, type: RawExifEntry['type'], values: fc.Arbitrary<number[]>) =>
    values.map((each): RawExifEntry => ({ ifd, tag, type, values: each }));
  const exifEntries = fc
    .tuple(
      ...[
        entry('gps', 0x0002, 5, rationals(3)),
        entry('gps', 0x0004, 5, rationals(3)),
        entry('gps', 0x0006, 5, rationals(1)),
        entry('gps', 0x0007, 5, rationals(3)),
        entry('exif', 0x829a, 5, rationals(1)),
        entry('exif', 0x829d, 5, rationals(1)),
        entry('exif', 0x920a, 5, rationals(1)),
        entry('exif', 0x8827, 3, fc.array(fc.nat({ max: 0xffff }), { minLength: 1, maxLength: 2 })),
        entry('exif', 0xa002, 4, fc.array(u32, { minLength: 1, maxLength: 1 })),
        entry('exif', 0x882a, 9, fc.array(fc.integer({ min: -0x80000000, max: 0x7fffffff }), { minLength: 1, maxLength: 2 })),
        entry('ifd0', 0x0112, 3, fc.array(fc.nat({ max: 0xffff }), { minLength: 1, maxLength: 1 })),
        entry('ifd0', 0x4746, 3, fc.array(fc.nat({ max: 0xffff }), { minLength: 1, maxLength: 1 })),
      ].map((arbitrary) => fc.option(arbitrary, { nil: undefined })),
    )
    .map((picked) => picked.filter((each): each is RawExifEntry => each !== undefined));
  const xmpText = fc.oneof(fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e400', '-1e-400', '1/0', '0,0N', ''), fc.string());

  it('for any EXIF rationals and XMP numbers in a file and its sidecar (the reader fed files)', async () => {
    await fc.assert(
      fc.asyncProperty(
        exifEntries,
        fc.dictionary(fc.constantFrom('exif:FNumber', 'exif:GPSLatitude', 'exif:GPSLongitude', 'tiff:ImageWidth', 'xmp:Rating'), xmpText),
        fc.boolean(),
        async (rawExif, xmp, withSidecar) => {
          const file = makeJpeg({ rawExif, xmp, latitude: 10, longitude: 20 });
          const metadata = await extractMetadata(file, withSidecar ? makeSidecar({ xmp }) : undefined);
          await storable(metadata);
        },
      ),
      { numRuns: 120 },
    );
  });
});
