import { describe, expect, it } from 'vitest';
import { checksumBase64, mapExif } from '#shared/dto/common/asset.response.ts';
import { avatarColorFor } from '#shared/dto/common/avatar.ts';
import { asHumanReadable, storageInfo } from '#shared/dto/common/server-info.ts';
import { mapSanitizedAsset } from '#shared/dto/v1/asset.response.ts';
import { peopleWithFaces } from '#shared/dto/v1/person.response.ts';
import type { AssetRecord, FaceRecord } from '#shared/model/asset.ts';
import type { PersonRecord } from '#shared/model/person.ts';

describe('mappers', () => {
  it("give every EXIF key, null where unknown, in Immich's order", () => {
    const exif = mapExif({ make: 'Canon', iso: 100 });
    expect(Object.keys(exif)).toEqual([
      'make',
      'model',
      'exifImageWidth',
      'exifImageHeight',
      'fileSizeInByte',
      'orientation',
      'dateTimeOriginal',
      'modifyDate',
      'timeZone',
      'lensModel',
      'fNumber',
      'focalLength',
      'iso',
      'exposureTime',
      'latitude',
      'longitude',
      'city',
      'state',
      'country',
      'description',
      'projectionType',
    ]);
    expect(exif).toMatchObject({ make: 'Canon', iso: 100, model: null, city: null });
  });

  it('send checksums as base64 and avatar colours as Immich derives them from the email', () => {
    expect(checksumBase64('00ff'.repeat(10))).toBe(Buffer.from('00ff'.repeat(10), 'hex').toString('base64'));
    expect(avatarColorFor('admin@immich.cloud')).toBe(avatarColorFor('admin@immich.cloud'));
    expect(['primary', 'pink', 'red', 'yellow', 'blue', 'green', 'purple', 'orange', 'gray', 'amber']).toContain(avatarColorFor('a@b.c'));
  });

  it('reduce an asset to what a visitor of a link without metadata may see', () => {
    const asset = {
      id: 'a',
      type: 'IMAGE',
      thumbhash: null,
      localDateTime: 'x',
      resizePath: null,
      duration: null,
      livePhotoVideoId: null,
    } as unknown as AssetRecord;
    expect(mapSanitizedAsset(asset)).toEqual({
      id: 'a',
      type: 'IMAGE',
      thumbhash: null,
      localDateTime: 'x',
      resized: false,
      duration: '0:00:00.00000',
      livePhotoVideoId: null,
      hasMetadata: false,
    });
  });

  it('list each person once, with their faces in the order given', () => {
    const person = (id: string, name: string) => ({ id, name, birthDate: null, thumbnailPath: '', isHidden: false }) as PersonRecord;
    const face = (id: string, personId: string, x: number) =>
      ({
        id,
        personId,
        imageWidth: 10,
        imageHeight: 10,
        boundingBoxX1: x,
        boundingBoxX2: x + 1,
        boundingBoxY1: 0,
        boundingBoxY2: 1,
      }) as FaceRecord;
    const people = new Map([
      ['p1', person('p1', 'Dana')],
      ['p2', person('p2', 'Eli')],
    ]);
    const result = peopleWithFaces([face('f1', 'p1', 1), face('f2', 'p2', 2), face('f3', 'p1', 3), face('f4', 'gone', 4)], people);
    expect(result.map((entry) => [entry.name, entry.faces.map((f) => f.id)])).toEqual([
      ['Dana', ['f1', 'f3']],
      ['Eli', ['f2']],
    ]);
  });
});

describe('storage figures in Immich’s shape (GET /server-info)', () => {
  it('reports usage against the quota, with Immich’s human-readable sizes', () => {
    expect(storageInfo(1536 * 1024 ** 2, 10 * 1024 ** 3, 40 * 1024 ** 3)).toEqual({
      diskSize: '10.0 GiB',
      diskUse: '1.5 GiB',
      diskAvailable: '8.5 GiB',
      diskSizeRaw: 10 * 1024 ** 3,
      diskUseRaw: 1536 * 1024 ** 2,
      diskAvailableRaw: 8.5 * 1024 ** 3,
      diskUsagePercentage: 15,
    });
    expect(asHumanReadable(1023)).toBe('1023 B');
    expect(asHumanReadable(1024)).toBe('1.0 KiB');
    // Over the quota (a quota lowered later): nothing available, over 100%.
    expect(storageInfo(300, 200, 1000)).toMatchObject({ diskAvailableRaw: 0, diskUsagePercentage: 150 });
  });

  it('without a quota, reports the usage against all that the server stores (a bucket has no size of its own)', () => {
    expect(storageInfo(1024 ** 3, null, 4 * 1024 ** 3)).toEqual({
      diskSize: '4.0 GiB',
      diskUse: '1.0 GiB',
      diskAvailable: '3.0 GiB',
      diskSizeRaw: 4 * 1024 ** 3,
      diskUseRaw: 1024 ** 3,
      diskAvailableRaw: 3 * 1024 ** 3,
      diskUsagePercentage: 25,
    });
    // A server storing nothing yet: no size, no percentage of it.
    expect(storageInfo(0, null, 0)).toMatchObject({ diskSize: '0 B', diskSizeRaw: 0, diskUsagePercentage: 0 });
  });
});
