import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as checkBulkUploadHandler } from '#functions/asset/check-bulk-upload.ts';
import { handler as checkExistingHandler } from '#functions/asset/check-existing-assets.ts';
import { handler as deviceAssetsHandler } from '#functions/asset/get-all-user-assets-by-device-id.ts';
import { handler as uploadHandler } from '#functions/asset/upload-file.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { assetInfo, trash } from '../support/library.ts';
import { makeJpeg, makeSidecar, type PhotoSpec } from '../support/photos.ts';
import { countRoundTrips } from '../support/round-trips.ts';
import { uploadFootprint } from '../support/table-items.ts';
import { cliFields, multipart, sha1, storedFiles, upload } from '../support/uploads.ts';
import { makeVideo } from '../support/videos.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;

beforeAll(async () => {
  accounts = await setupAccounts();
});

const bulkCheck = (token: string, body: unknown) =>
  invoke(checkBulkUploadHandler, { method: 'POST', path: '/api/asset/bulk-upload-check', headers: bearer(token), body });

const camera: PhotoSpec = {
  make: 'Canon',
  model: 'EOS R5',
  lensModel: 'RF 24-105mm F4 L IS USM',
  exposureTime: 1 / 250,
  fNumber: 4,
  focalLength: 35,
  iso: 200,
  orientation: 1,
  description: 'Harbour at dusk',
  dateTimeOriginal: '2023:06:01 19:30:15',
  offsetTimeOriginal: '+02:00',
  modifyDate: '2023:06:02 08:00:00',
  latitude: 59.9139,
  longitude: 10.7522,
  city: 'Oslo',
  state: 'Oslo',
  country: 'Norway',
};

/** Expects a 400/413 and that the refused upload left nothing in the table or the store. */
const expectRefused = async (reply: Awaited<ReturnType<typeof upload>>, status: number, message: unknown) => {
  expect({ status: reply.status, body: reply.body }).toEqual({
    status,
    body: { message, error: status === 413 ? 'Payload Too Large' : 'Bad Request', statusCode: status },
  });
};

describe('POST /asset/upload', () => {
  it('stores a new photo: 201 {id, duplicate:false}; GET /asset/:id gives the spec fields and EXIF', async () => {
    const data = makeJpeg({ ...camera, color: [10, 20, 30] });
    const reply = await upload(accounts.user1.accessToken, { data, fileName: 'harbour.jpg' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toEqual({ id: expect.any(String), duplicate: false });

    const asset = await assetInfo(accounts.user1.accessToken, reply.body.id);
    expect(asset.status).toBe(200);
    expect(asset.body).toEqual({
      id: reply.body.id,
      deviceAssetId: `harbour.jpg-${data.length}`,
      ownerId: accounts.user1.userId,
      owner: expect.objectContaining({ id: accounts.user1.userId, email: 'user1@immich.cloud' }),
      deviceId: 'CLI',
      libraryId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'IMAGE',
      originalPath: `upload/${accounts.user1.userId}/${reply.body.id.slice(0, 2)}/${reply.body.id.slice(2, 4)}/${reply.body.id}.jpg`,
      originalFileName: 'harbour.jpg',
      resized: false,
      thumbhash: null,
      // The date the photo was taken (19:30:15 at UTC+2), not the client's file date.
      fileCreatedAt: '2023-06-01T17:30:15.000Z',
      fileModifiedAt: '2024-01-02T03:04:05.000Z',
      localDateTime: '2023-06-01T19:30:15.000Z',
      updatedAt: expect.any(String),
      isFavorite: false,
      isArchived: false,
      isTrashed: false,
      duration: '0:00:00.00000',
      exifInfo: {
        make: 'Canon',
        model: 'EOS R5',
        exifImageWidth: 64,
        exifImageHeight: 48,
        fileSizeInByte: data.length,
        orientation: '1',
        dateTimeOriginal: '2023-06-01T17:30:15.000Z',
        // ModifyDate has no offset of its own: the file's (OffsetTimeOriginal, +02:00) applies, as exiftool-vendored infers one zone per file.
        modifyDate: '2023-06-02T06:00:00.000Z',
        timeZone: 'UTC+2',
        lensModel: 'RF 24-105mm F4 L IS USM',
        fNumber: 4,
        focalLength: 35,
        iso: 200,
        exposureTime: '1/250',
        latitude: expect.closeTo(59.9139, 5),
        longitude: expect.closeTo(10.7522, 5),
        city: 'Oslo',
        state: 'Oslo',
        country: 'Norway',
        description: 'Harbour at dusk',
        projectionType: null,
      },
      livePhotoVideoId: null,
      tags: [],
      people: [],
      checksum: sha1(data, 'base64'),
      stackCount: null,
      isExternal: false,
      isOffline: false,
      isReadOnly: false,
      hasMetadata: true,
    });
    expect(asset.body.checksum).toHaveLength(28);
    expect(await storedFiles()).toContain(asset.body.originalPath);
  });

  it('costs six DynamoDB calls, five in sequence: auth; checksum and user together; names; search postings; one transaction', async () => {
    const data = makeJpeg({ mwgFaces: [{ name: 'Counted', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] });
    let reply: Awaited<ReturnType<typeof upload>> | undefined;
    const calls = await countRoundTrips(async () => {
      reply = await upload(accounts.user1.accessToken, { data });
    });
    expect(reply?.status).toBe(201);
    expect(calls.sort()).toEqual([
      'BatchGetItemCommand',
      'BatchGetItemCommand',
      'BatchWriteItemCommand',
      'GetItemCommand',
      'GetItemCommand',
      'TransactWriteItemsCommand',
    ]);
    // A duplicate stops after the checksum read (which runs beside the user read).
    const again = await countRoundTrips(() => upload(accounts.user1.accessToken, { data }));
    expect(again.sort()).toEqual(['BatchGetItemCommand', 'GetItemCommand', 'GetItemCommand']);
  });

  it('the same file again is 200 {id of the first, duplicate:true} and stores nothing more', async () => {
    const data = makeJpeg({ color: [1, 2, 3] });
    const first = await upload(accounts.user1.accessToken, { data, fileName: 'a.jpg' });
    expect(first.status).toBe(201);
    const before = { footprint: await uploadFootprint(), files: await storedFiles() };
    const again = await upload(accounts.user1.accessToken, { data, fileName: 'renamed.jpg' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ id: first.body.id, duplicate: true });
    expect({ footprint: await uploadFootprint(), files: await storedFiles() }).toEqual(before);
  });

  it('duplicates are per owner: another user uploading the same file gets their own asset', async () => {
    const data = makeJpeg({ color: [4, 5, 6] });
    const mine = await upload(accounts.user1.accessToken, { data });
    const theirs = await upload(accounts.user2.accessToken, { data });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('two concurrent uploads of one new file: one 201, one 200 duplicate of it, one stored file', async () => {
    const data = makeJpeg({ color: [7, 8, 9] });
    const filesBefore = (await storedFiles()).length;
    const replies = await Promise.all([upload(accounts.user1.accessToken, { data }), upload(accounts.user1.accessToken, { data })]);
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses).toEqual([200, 201]);
    const created = replies.find((reply) => reply.status === 201);
    expect(replies.find((reply) => reply.status === 200)?.body).toEqual({ id: created?.body.id, duplicate: true });
    expect((await storedFiles()).length).toBe(filesBefore + 1);
  });

  it('without EXIF dates the client dates are used and the time zone is unknown', async () => {
    const data = makeJpeg({ color: [11, 12, 13] });
    const reply = await upload(accounts.user1.accessToken, {
      data,
      fields: cliFields('plain.jpg', data.length, new Date('2020-05-06T07:08:09.000Z')),
    });
    const asset = await assetInfo(accounts.user1.accessToken, reply.body.id);
    expect(asset.body).toMatchObject({
      fileCreatedAt: '2020-05-06T07:08:09.000Z',
      localDateTime: '2020-05-06T07:08:09.000Z',
      exifInfo: { dateTimeOriginal: '2020-05-06T07:08:09.000Z', timeZone: null, make: null, description: '' },
    });
  });

  it('a date without an offset is taken as wall-clock UTC, as Immich does', async () => {
    const data = makeJpeg({ dateTimeOriginal: '2019:12:31 23:59:59', make: 'X' });
    const reply = await upload(accounts.user1.accessToken, { data });
    const asset = await assetInfo(accounts.user1.accessToken, reply.body.id);
    expect(asset.body).toMatchObject({
      fileCreatedAt: '2019-12-31T23:59:59.000Z',
      localDateTime: '2019-12-31T23:59:59.000Z',
      exifInfo: { timeZone: null },
    });
  });

  it('reads IPTC location fields, XMP projection type, and the form flags', async () => {
    const data = makeJpeg({
      city: 'Paris',
      state: 'Île-de-France',
      country: 'France',
      iptcLocation: true,
      projectionType: 'equirectangular',
    });
    const reply = await upload(accounts.user1.accessToken, {
      data,
      fields: { ...cliFields('p.jpg', data.length), isFavorite: 'true', isArchived: 'true' },
    });
    const asset = await assetInfo(accounts.user1.accessToken, reply.body.id);
    expect(asset.body).toMatchObject({
      isFavorite: true,
      isArchived: true,
      exifInfo: { city: 'Paris', state: 'Île-de-France', country: 'France', projectionType: 'EQUIRECTANGULAR' },
    });
  });

  it("a sidecar's XMP wins over the file's values, and is stored beside the original", async () => {
    const data = makeJpeg({ ...camera, color: [20, 21, 22] });
    const sidecar = makeSidecar({
      description: 'From the sidecar',
      dateTimeOriginal: '2021:07:04 12:00:00',
      offsetTimeOriginal: '-04:00',
      city: 'Boston',
    });
    const reply = await upload(accounts.user1.accessToken, { data, fileName: 'with-sidecar.jpg', sidecar });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const asset = await assetInfo(accounts.user1.accessToken, reply.body.id);
    expect(asset.body).toMatchObject({
      fileCreatedAt: '2021-07-04T16:00:00.000Z',
      localDateTime: '2021-07-04T12:00:00.000Z',
      exifInfo: { description: 'From the sidecar', city: 'Boston', timeZone: 'UTC-4', make: 'Canon', country: 'Norway' },
    });
    expect(await storedFiles()).toContain(`${asset.body.originalPath}.xmp`);
  });

  it('keeps the fraction of a second of the date taken, and gives a file without an offset the time zone of its position', async () => {
    // Immich's own sample: taken 16:04:22.348 in Illinois, no offset written (exiftool's geo lookup gives the zone).
    const data = makeJpeg({ dateTimeOriginal: '2019:03:21 16:04:22', subSecTimeOriginal: '348', latitude: 41.8781, longitude: -87.6298 });
    const reply = await upload(accounts.user1.accessToken, { data, fileName: 'subsec.jpg' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect((await assetInfo(accounts.user1.accessToken, reply.body.id)).body).toMatchObject({
      fileCreatedAt: '2019-03-21T21:04:22.348Z',
      localDateTime: '2019-03-21T16:04:22.348Z',
      exifInfo: { dateTimeOriginal: '2019-03-21T21:04:22.348Z', timeZone: 'America/Chicago' },
    });
    // An offset in the file wins over the place; a leading zero of the fraction counts.
    const offset = makeJpeg({
      dateTimeOriginal: '2019:03:21 16:04:22',
      subSecTimeOriginal: '048',
      offsetTimeOriginal: '+09:00',
      latitude: 41.8781,
      longitude: -87.6298,
    });
    const second = await upload(accounts.user1.accessToken, { data: offset, fileName: 'offset.jpg' });
    expect((await assetInfo(accounts.user1.accessToken, second.body.id)).body).toMatchObject({
      fileCreatedAt: '2019-03-21T07:04:22.048Z',
      localDateTime: '2019-03-21T16:04:22.048Z',
      exifInfo: { timeZone: 'UTC+9' },
    });
  });

  it('accepts a video by extension (type VIDEO, no EXIF values)', async () => {
    const data = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(64, 1)]);
    const reply = await upload(accounts.user1.accessToken, { data, fileName: 'clip.mp4' });
    expect(reply.status).toBe(201);
    const asset = await assetInfo(accounts.user1.accessToken, reply.body.id);
    expect(asset.body).toMatchObject({ type: 'VIDEO', duration: '0:00:00.00000', exifInfo: { make: null, fileSizeInByte: data.length } });
  });
});

describe('POST /asset/upload refuses bad input with a 4xx and stores nothing', () => {
  const refusals: [string, () => Promise<Awaited<ReturnType<typeof upload>>>, number, unknown][] = [
    [
      'unsupported file type',
      () => upload(accounts.user1.accessToken, { data: Buffer.from('hello'), fileName: 'notes.txt' }),
      400,
      'Unsupported file type notes.txt',
    ],
    [
      'a sidecar that is not .xmp',
      () => upload(accounts.user1.accessToken, { extraFiles: { sidecarData: { data: Buffer.from('x'), fileName: 'side.txt' } } }),
      400,
      'Unsupported file type side.txt',
    ],
    [
      'a corrupt JPEG',
      () => upload(accounts.user1.accessToken, { data: Buffer.from('this is not a jpeg at all'), fileName: 'broken.jpg' }),
      400,
      'Corrupt or unreadable image file broken.jpg',
    ],
    [
      'a truncated JPEG',
      () => upload(accounts.user1.accessToken, { data: makeJpeg({ color: [99, 99, 99] }).subarray(0, 40), fileName: 'cut.jpg' }),
      400,
      'Corrupt or unreadable image file cut.jpg',
    ],
    [
      'a sidecar that is not XMP',
      () => upload(accounts.user1.accessToken, { data: makeJpeg({ color: [98, 1, 1] }), sidecar: Buffer.from('{"not":"xmp"}') }),
      400,
      'Invalid XMP sidecar photo.jpg.xmp',
    ],
    ['an empty file', () => upload(accounts.user1.accessToken, { data: Buffer.alloc(0) }), 400, 'Field(s) assetData should not be empty'],
    [
      'no file part',
      async () => {
        const { body, contentType } = await multipart(cliFields('x.jpg', 1), {});
        return invoke(uploadHandler, {
          method: 'POST',
          path: '/api/asset/upload',
          headers: { ...bearer(accounts.user1.accessToken), 'content-type': contentType },
          body,
        });
      },
      400,
      'Field(s) assetData should not be empty',
    ],
    [
      'a JSON body instead of multipart',
      () =>
        invoke(uploadHandler, {
          method: 'POST',
          path: '/api/asset/upload',
          headers: bearer(accounts.user1.accessToken),
          body: cliFields('x.jpg', 1),
        }),
      400,
      'Field(s) assetData should not be empty',
    ],
    [
      'a multipart body without a boundary',
      () =>
        invoke(uploadHandler, {
          method: 'POST',
          path: '/api/asset/upload',
          headers: { ...bearer(accounts.user1.accessToken), 'content-type': 'multipart/form-data' },
          body: Buffer.from('--x\r\n'),
        }),
      400,
      'Multipart: Boundary not found',
    ],
    [
      'a truncated multipart body',
      async () => {
        const { body, contentType } = await multipart(cliFields('t.jpg', 1), {
          assetData: { data: makeJpeg({ color: [97, 1, 1] }), fileName: 't.jpg' },
        });
        return invoke(uploadHandler, {
          method: 'POST',
          path: '/api/asset/upload',
          headers: { ...bearer(accounts.user1.accessToken), 'content-type': contentType },
          body: body.subarray(0, body.length - 60),
        });
      },
      400,
      'Unexpected end of form',
    ],
    [
      'two asset files',
      () => upload(accounts.user1.accessToken, { extraFiles: { other: { data: makeJpeg(), fileName: 'b.jpg' } } }),
      400,
      'Unexpected field - other',
    ],
    [
      'missing text fields',
      () => upload(accounts.user1.accessToken, { fields: {} }),
      400,
      [
        'deviceAssetId must be a string',
        'deviceAssetId should not be empty',
        'deviceId must be a string',
        'deviceId should not be empty',
        'fileCreatedAt must be a Date instance',
        'fileCreatedAt should not be empty',
        'fileModifiedAt must be a Date instance',
        'fileModifiedAt should not be empty',
      ],
    ],
    [
      'a date that is not a date string',
      () => upload(accounts.user1.accessToken, { fields: { ...cliFields('photo.jpg', 1), fileCreatedAt: 'yesterday' } }),
      400,
      'fileCreatedAt must be a date string',
    ],
    [
      'a flag that is not a boolean',
      () => upload(accounts.user1.accessToken, { fields: { ...cliFields('photo.jpg', 1), isFavorite: 'yes' } }),
      400,
      ['isFavorite must be a boolean value'],
    ],
    [
      'a library id that is not a UUID',
      () => upload(accounts.user1.accessToken, { fields: { ...cliFields('photo.jpg', 1), libraryId: 'lib' } }),
      400,
      ['libraryId must be a UUID'],
    ],
    [
      'another library',
      () =>
        upload(accounts.user1.accessToken, { fields: { ...cliFields('photo.jpg', 1), libraryId: '3fa85f64-5717-4562-b3fc-2c963f66afa6' } }),
      400,
      'Not found or no asset.upload access',
    ],
    [
      'a live-photo part that is not a video',
      () => upload(accounts.user1.accessToken, { extraFiles: { livePhotoData: { data: Buffer.from('jpg'), fileName: 'live.jpg' } } }),
      400,
      'Unsupported file type live.jpg',
    ],
  ];

  it.each(refusals)('%s', async (_name, send, status, message) => {
    const before = { footprint: await uploadFootprint(), files: await storedFiles() };
    await expectRefused(await send(), status, message);
    expect({ footprint: await uploadFootprint(), files: await storedFiles() }).toEqual(before);
  });

  it('a body over the upload limit is a 413 that names the limit', async () => {
    const previous = process.env.MAX_UPLOAD_MB;
    process.env.MAX_UPLOAD_MB = '0.01';
    try {
      const before = { footprint: await uploadFootprint(), files: await storedFiles() };
      const big = makeJpeg({ width: 200, height: 150, noise: true });
      expect(big.length).toBeGreaterThan(0.01 * 1024 * 1024);
      await expectRefused(
        await upload(accounts.user1.accessToken, { data: big }),
        413,
        'Request body is larger than the upload limit of 0.01 MB',
      );
      expect({ footprint: await uploadFootprint(), files: await storedFiles() }).toEqual(before);
    } finally {
      if (previous === undefined) delete process.env.MAX_UPLOAD_MB;
      else process.env.MAX_UPLOAD_MB = previous;
    }
  });

  it('a quota that the file would exceed: 400 "Quota has been exceeded!"', async () => {
    const { createUser, login } = await import('../support/accounts.ts');
    await createUser(accounts.admin.accessToken, {
      email: 'quota@immich.cloud',
      password: 'password',
      name: 'Quota',
      quotaSizeInBytes: 1000,
    });
    const quota = await login({ email: 'quota@immich.cloud', password: 'password' });
    const data = makeJpeg({ width: 40, height: 40, noise: true });
    expect(data.length).toBeGreaterThan(1000);
    await expectRefused(await upload(quota.accessToken, { data }), 400, 'Quota has been exceeded!');
  });

  it('needs a signed-in user', async () => {
    const reply = await invoke(uploadHandler, { method: 'POST', path: '/api/asset/upload' });
    expect(reply.status).toBe(401);
  });
});

describe('POST /asset/bulk-upload-check', () => {
  it('accepts new checksums and rejects the owner’s duplicates with the existing id (hex and base64)', async () => {
    const data = makeJpeg({ color: [30, 31, 32] });
    const uploaded = await upload(accounts.user1.accessToken, { data });
    const fresh = makeJpeg({ color: [33, 34, 35] });
    const reply = await bulkCheck(accounts.user1.accessToken, {
      assets: [
        { id: '/photos/a.jpg', checksum: sha1(data) },
        { id: '/photos/b.jpg', checksum: sha1(fresh) },
        { id: '/photos/c.jpg', checksum: sha1(data, 'base64') },
        { id: '/photos/d.jpg', checksum: sha1(data).toUpperCase() },
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      results: [
        { id: '/photos/a.jpg', assetId: uploaded.body.id, action: 'reject', reason: 'duplicate' },
        { id: '/photos/b.jpg', action: 'accept' },
        { id: '/photos/c.jpg', assetId: uploaded.body.id, action: 'reject', reason: 'duplicate' },
        { id: '/photos/d.jpg', assetId: uploaded.body.id, action: 'reject', reason: 'duplicate' },
      ],
    });
    // Another user's duplicates are not theirs.
    const other = await bulkCheck(accounts.user2.accessToken, { assets: [{ id: 'a', checksum: sha1(data) }] });
    expect(other.body).toEqual({ results: [{ id: 'a', action: 'accept' }] });
  });

  it('checks more than 100 files in one request', async () => {
    const assets = Array.from({ length: 250 }, (_, i) => ({ id: `f${i}`, checksum: sha1(Buffer.from(`file ${i}`)) }));
    const reply = await bulkCheck(accounts.user1.accessToken, { assets });
    expect(reply.body.results).toHaveLength(250);
    expect(reply.body.results.every((result: { action: string }) => result.action === 'accept')).toBe(true);
  });

  it.each([
    [{}, ['assets must be an array']],
    [{ assets: 'x' }, ['assets must be an array']],
    [{ assets: [{ id: 'a' }] }, ['assets.0.checksum should not be empty', 'assets.0.checksum must be a string']],
    [{ assets: [{ id: 1, checksum: '' }] }, ['assets.0.id must be a string', 'assets.0.checksum should not be empty']],
  ])('%j → 400 %j', async (body, message) => {
    const reply = await bulkCheck(accounts.user1.accessToken, body);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toEqual(message);
  });
});

describe('GET /asset/:id', () => {
  it("another user's asset, a missing one: 400 Not found or no asset.read access; a bad id: 400", async () => {
    const mine = await upload(accounts.user1.accessToken, { data: makeJpeg({ color: [40, 41, 42] }) });
    for (const id of [mine.body.id, '3fa85f64-5717-4562-b3fc-2c963f66afa6']) {
      const reply = await assetInfo(accounts.user2.accessToken, id);
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ message: 'Not found or no asset.read access', error: 'Bad Request', statusCode: 400 });
    }
    const bad = await assetInfo(accounts.user1.accessToken, 'not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(['id must be a UUID']);
  });
});

describe('the mobile app’s backup checks: GET /asset/device/:deviceId and POST /asset/exist', () => {
  const device = (token: string, deviceId: string) =>
    invoke(deviceAssetsHandler, { path: `/api/asset/device/${deviceId}`, pathParameters: { deviceId }, headers: bearer(token) });
  const exist = (token: string, body: unknown) =>
    invoke(checkExistingHandler, { method: 'POST', path: '/api/asset/exist', headers: bearer(token), body });
  const fromPhone = (token: string, deviceAssetId: string, extra: Record<string, string> = {}) => {
    const data = makeJpeg({ comment: `${deviceAssetId}-${Math.random()}` });
    return upload(token, { data, fields: { ...cliFields('p.jpg', data.length), deviceId: 'pixel-8', deviceAssetId, ...extra } });
  };

  it('lists what a device uploaded (visible, trashed too) and answers which ids exist (hidden too); per user and device', async () => {
    const token = accounts.user1.accessToken;
    const first = await fromPhone(token, 'phone-1');
    const second = await fromPhone(token, 'phone-2');
    await fromPhone(token, 'phone-hidden', { isVisible: 'false' });
    await fromPhone(accounts.user2.accessToken, 'phone-other-user');
    expect((await trash(token, [second.body.id])).status).toBe(204);

    const listed = await device(token, 'pixel-8');
    expect(listed.status).toBe(200);
    expect([...listed.body].sort()).toEqual(['phone-1', 'phone-2']);
    expect((await device(token, 'another-phone')).body).toEqual([]);

    const reply = await exist(token, { deviceId: 'pixel-8', deviceAssetIds: ['phone-1', 'phone-hidden', 'phone-other-user', 'never'] });
    expect(reply.status).toBe(200);
    expect([...reply.body.existingIds].sort()).toEqual(['phone-1', 'phone-hidden']);

    // Deleted for good: no longer there.
    expect((await trash(token, [first.body.id], true)).status).toBe(204);
    expect([...(await device(token, 'pixel-8')).body]).toEqual(['phone-2']);
  });

  it('validates as Immich', async () => {
    const token = accounts.user1.accessToken;
    expect((await exist(token, {})).body.message).toEqual([
      'each value in deviceAssetIds should not be empty',
      'each value in deviceAssetIds must be a string',
      'deviceAssetIds should not be empty',
      'deviceId should not be empty',
    ]);
    expect((await exist(token, { deviceId: 'x', deviceAssetIds: [] })).body.message).toEqual(['deviceAssetIds should not be empty']);
    expect((await exist(token, { deviceId: 'x', deviceAssetIds: ['a', 3] })).body.message).toEqual([
      'each value in deviceAssetIds must be a string',
    ]);
  });
});

describe('an upload’s transaction stays within DynamoDB’s 100 writes', () => {
  it('a motion photo with 40 named faces, all new people: 201, 31 faces kept', async () => {
    const token = accounts.user1.accessToken;
    const faces = Array.from({ length: 40 }, (_, index) => ({
      name: `Crowd Member ${index}`,
      x: (index % 8) / 8,
      y: Math.floor(index / 8) / 5,
      w: 0.1,
      h: 0.1,
    }));
    const data = Buffer.concat([
      makeJpeg({ width: 800, height: 500, mwgFaces: faces }),
      makeVideo({ seconds: 1, width: 160, height: 120 }),
    ]);
    const reply = await upload(token, { data, fileName: 'crowd.MP.jpg' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const asset = (await assetInfo(token, reply.body.id)).body;
    expect(asset.people).toHaveLength(31);
    expect(asset.livePhotoVideoId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('live photos sent in two parts (livePhotoData, the iOS app)', () => {
  it('the video becomes a hidden video asset linked by livePhotoVideoId; sent again it is linked, not stored twice', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Live${Date.now()}`)).accessToken;
    const video = makeVideo({ seconds: 1, width: 160, height: 120 });
    const send = (comment: string) =>
      upload(token, {
        data: makeJpeg({ comment }),
        fileName: 'IMG_0001.HEIC.jpg',
        extraFiles: { livePhotoData: { data: video, fileName: 'IMG_0001.mov' } },
      });
    const before = await storedFiles();
    const first = await send('live one');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const photo = (await assetInfo(token, first.body.id)).body;
    expect(photo.livePhotoVideoId).toMatch(/^[0-9a-f-]{36}$/);
    const motion = (await assetInfo(token, photo.livePhotoVideoId)).body;
    expect(motion).toMatchObject({
      type: 'VIDEO',
      originalFileName: 'IMG_0001.mov',
      deviceAssetId: photo.deviceAssetId,
      checksum: createHash('sha1').update(video).digest('base64'),
    });
    expect(motion.originalPath).toMatch(/\.mov$/);
    expect((await storedFiles()).length - before.length).toBe(2);

    // Another photo with the same video: linked to the stored one.
    const second = await send('live two');
    expect((await assetInfo(token, second.body.id)).body.livePhotoVideoId).toBe(photo.livePhotoVideoId);
    expect((await storedFiles()).length - before.length).toBe(3);
    // The same photo again: a duplicate, nothing stored.
    expect((await send('live one')).body).toEqual({ id: first.body.id, duplicate: true });
  });
});
