import { beforeAll, describe, expect, it } from 'vitest';
import { handler as searchAssetsHandler } from '#functions/search/search-assets.ts';
import { bearer, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, createAlbum, personNamed, trash, updateAsset } from '../support/library.ts';
import { makeJpeg } from '../support/photos.ts';
import { cliFields, sha1, upload } from '../support/uploads.ts';

// A small library like Immich's e2e one, uploaded through the real upload handler.
let accounts: Awaited<ReturnType<typeof setupAccounts>>;
const ids: Record<string, string> = {};
let checksumOfOslo = '';

const search = (query: Record<string, string | string[]>, token = accounts.user1.accessToken) =>
  invoke(searchAssetsHandler, { path: '/api/assets', query, headers: bearer(token) });
const found = async (query: Record<string, string | string[]>) => {
  const reply = await search(query);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.map((asset: { id: string }) => Object.entries(ids).find(([, id]) => id === asset.id)?.[0] ?? asset.id);
};
const d = (iso: string) => new Date(iso);

beforeAll(async () => {
  accounts = await setupAccounts();
  const t = accounts.user1.accessToken;
  const face = (name: string, x: number) => ({ name, x, y: 0.1, w: 0.2, h: 0.2 });
  ids.ralston = await addPhoto(
    t,
    {
      make: 'Canon',
      model: 'Canon EOS 7D',
      city: 'Ralston',
      state: 'Douglas County, Nebraska',
      country: 'United States of America',
      mwgFaces: [face('Ann', 0.1)],
    },
    d('2019-01-01T00:00:00.000Z'),
  );
  ids.oslo = await addPhoto(
    t,
    {
      make: 'Canon',
      model: 'Canon EOS R5',
      lensModel: 'RF 50mm',
      city: 'Oslo',
      country: 'Norway',
      mwgFaces: [face('Ann', 0.1), face('Bo', 0.5)],
    },
    d('2020-01-01T00:00:00.000Z'),
  );
  ids.paris = await addPhoto(
    t,
    { make: 'NIKON', city: 'Paris', country: 'France', mwgFaces: [face('Bo', 0.5)] },
    d('2021-01-01T00:00:00.000Z'),
  );
  ids.plain = await addPhoto(t, {}, d('2022-01-01T00:00:00.000Z'));
  const rocks = makeJpeg({ make: 'SAMSUNG' });
  ids.rocks = (
    await upload(t, {
      data: rocks,
      fileName: 'el_torcal_rocks.jpg',
      fields: cliFields('el_torcal_rocks.jpg', rocks.length, d('2023-01-01T00:00:00.000Z')),
    })
  ).body.id;
  const one = makeJpeg({ make: 'SAMSUNG' });
  ids.samsung = (
    await upload(t, {
      data: one,
      fileName: 'Samsung One UI.jpg',
      fields: { ...cliFields('s.jpg', one.length, d('2023-06-01T00:00:00.000Z')), isFavorite: 'true' },
    })
  ).body.id;
  const clip = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(32, 7)]);
  ids.video = (
    await upload(t, {
      data: clip,
      fileName: 'clip.mp4',
      fields: { ...cliFields('clip.mp4', clip.length, d('2018-01-01T00:00:00.000Z')), isVisible: 'false' },
    })
  ).body.id;
  ids.archived = await addPhoto(t, { make: 'Canon' }, d('2024-01-01T00:00:00.000Z'));
  await updateAsset(t, ids.archived, { isArchived: true });
  ids.trashed = await addPhoto(t, { make: 'Canon' }, d('2024-02-01T00:00:00.000Z'));
  await trash(t, [ids.trashed]);
  await createAlbum(t, { albumName: 'in an album', assetIds: [ids.oslo] });
  checksumOfOslo = (await search({ id: ids.oslo })).body[0].checksum;
  // Another user's library with the same values.
  await addPhoto(accounts.user2.accessToken, { make: 'Canon', city: 'Oslo' });
});

describe('GET /assets filters (Immich v1.100 semantics)', () => {
  it.each<[string, Record<string, string | string[]>, string[]]>([
    [
      'no filter: newest first, not archived, not trashed, hidden included',
      {},
      ['samsung', 'rocks', 'plain', 'paris', 'oslo', 'ralston', 'video'],
    ],
    ['size=1 gives the newest', { size: '1' }, ['samsung']],
    ['order=asc, size=2', { order: 'asc', size: '2' }, ['video', 'ralston']],
    ['order=asc, size=2, page=2', { order: 'asc', size: '2', page: '2' }, ['oslo', 'paris']],
    ['make exact and case-sensitive', { make: 'Canon' }, ['oslo', 'ralston']],
    ['make in another case finds nothing', { make: 'canon' }, []],
    ['model', { model: 'Canon EOS 7D' }, ['ralston']],
    ['lensModel', { lensModel: 'RF 50mm' }, ['oslo']],
    ['city', { city: 'Ralston' }, ['ralston']],
    ['state', { state: 'Douglas County, Nebraska' }, ['ralston']],
    ['country', { country: 'United States of America' }, ['ralston']],
    ['city and make together', { city: 'Oslo', make: 'Canon' }, ['oslo']],
    ['originalFileName partial, case-insensitive', { originalFileName: 'rocks' }, ['rocks']],
    ['originalFileName partial with spaces', { originalFileName: 'Samsung One' }, ['samsung']],
    ['type VIDEO (the hidden one too)', { type: 'VIDEO' }, ['video']],
    ['isVisible=true drops hidden assets', { isVisible: 'true', order: 'asc', size: '1' }, ['ralston']],
    ['isFavorite=true', { isFavorite: 'true' }, ['samsung']],
    ['isArchived=true', { isArchived: 'true' }, ['archived']],
    ['withArchived=true', { withArchived: 'true', make: 'Canon' }, ['archived', 'oslo', 'ralston']],
    ['withDeleted=true', { withDeleted: 'true', make: 'Canon' }, ['trashed', 'oslo', 'ralston']],
    ['trashedAfter includes trashed assets only', { trashedAfter: '2000-01-01T00:00:00.000Z' }, ['trashed']],
    ['trashedBefore in the past: none', { trashedBefore: '2000-01-01T00:00:00.000Z' }, []],
    [
      'takenAfter / takenBefore are inclusive',
      { takenAfter: '2020-01-01T00:00:00.000Z', takenBefore: '2021-01-01T00:00:00.000Z' },
      ['paris', 'oslo'],
    ],
    ['takenBefore', { takenBefore: '2019-01-01T00:00:00.000Z' }, ['ralston', 'video']],
    ['a reversed taken window: none', { takenAfter: '2022-01-01T00:00:00.000Z', takenBefore: '2020-01-01T00:00:00.000Z' }, []],
    ['isNotInAlbum=true (visible, in no album)', { isNotInAlbum: 'true', make: 'Canon' }, ['ralston']],
    ['isMotion=true: no live photos here', { isMotion: 'true' }, []],
    ['isEncoded=false is ignored', { isEncoded: 'false', size: '1' }, ['samsung']],
    ['isFavorite=false', { isFavorite: 'false', make: 'SAMSUNG' }, ['rocks']],
    ['isVisible=false', { isVisible: 'false' }, ['video']],
    ['isArchived=false', { isArchived: 'false', make: 'Canon' }, ['oslo', 'ralston']],
    ['withArchived=false is the default', { withArchived: 'false', make: 'Canon' }, ['oslo', 'ralston']],
    ['withDeleted=false is the default', { withDeleted: 'false', make: 'Canon' }, ['oslo', 'ralston']],
    ['isNotInAlbum=false is ignored', { isNotInAlbum: 'false', make: 'Canon' }, ['oslo', 'ralston']],
    ['isMotion=false is ignored', { isMotion: 'false', make: 'Canon' }, ['oslo', 'ralston']],
    ['type IMAGE', { type: 'IMAGE', takenBefore: '2019-06-01T00:00:00.000Z' }, ['ralston']],
    [
      'isOffline / isReadOnly / isExternal false',
      { isOffline: 'false', isReadOnly: 'false', isExternal: 'false', make: 'NIKON' },
      ['paris'],
    ],
    ['isReadOnly=true: none', { isReadOnly: 'true' }, []],
    ['deviceId and deviceAssetId', { deviceId: 'CLI', originalFileName: 'el_torcal' }, ['rocks']],
    ['createdAfter in the future: none', { createdAfter: '2100-01-01T00:00:00.000Z' }, []],
    ['updatedBefore in the past: none', { updatedBefore: '2000-01-01T00:00:00.000Z' }, []],
    ['originalFileName: % and _ are wildcards', { originalFileName: 'el_torcal%rocks' }, ['rocks']],
    [
      'takenAfter with order=asc and paging',
      { takenAfter: '2019-01-01T00:00:00.000Z', order: 'asc', size: '2', page: '3' },
      ['rocks', 'samsung'],
    ],
  ])('%s', async (_name, query, expected) => {
    expect(await found(query)).toEqual(expected);
  });

  it('checksum in base64 and hex; id; originalPath', async () => {
    expect(await found({ checksum: checksumOfOslo })).toEqual(['oslo']);
    expect(await found({ checksum: Buffer.from(checksumOfOslo, 'base64').toString('hex') })).toEqual(['oslo']);
    expect(await found({ id: ids.oslo ?? '' })).toEqual(['oslo']);
    const path = (await search({ id: ids.paris ?? '' })).body[0].originalPath;
    expect(await found({ originalPath: path })).toEqual(['paris']);
    expect(await found({ checksum: sha1(Buffer.from('nothing'), 'base64') })).toEqual([]);
  });

  it('personIds: all of them; a single value works too', async () => {
    const ann = await personNamed(accounts.user1.accessToken, 'Ann');
    const bo = await personNamed(accounts.user1.accessToken, 'Bo');
    expect(await found({ personIds: ann.id })).toEqual(['oslo', 'ralston']);
    expect(await found({ personIds: [ann.id, bo.id] })).toEqual(['oslo']);
    expect(await found({ personIds: [bo.id] })).toEqual(['paris', 'oslo']);
    expect(await found({ personIds: '00000000-0000-4000-a000-000000000000' })).toEqual([]);
  });

  it('withExif and withPeople fill exifInfo and people; the owner sees isFavorite', async () => {
    const plain = (await search({ city: 'Oslo' })).body[0];
    expect(plain.exifInfo).toBeUndefined();
    expect(plain.people).toEqual([]);
    const full = (await search({ city: 'Oslo', withExif: 'true', withPeople: 'true' })).body[0];
    expect(full.exifInfo).toMatchObject({ city: 'Oslo', make: 'Canon' });
    expect(full.people.map((p: { name: string }) => p.name)).toEqual(['Ann', 'Bo']);
    expect(full.people[0].faces).toHaveLength(1);
    expect((await search({ isFavorite: 'true' })).body[0].isFavorite).toBe(true);
  });

  it("never returns another user's assets", async () => {
    const theirs = await search({}, accounts.user2.accessToken);
    expect(theirs.body).toHaveLength(1);
    expect(Object.values(ids)).not.toContain(theirs.body[0].id);
    expect(await found({ city: 'Oslo' })).toEqual(['oslo']);
  });
});

describe('GET /assets validation (Immich messages)', () => {
  it.each<[Record<string, string | string[]>, unknown]>([
    [{ page: 'abc' }, ['page must not be less than 1', 'page must be an integer number']],
    [{ page: '1.5' }, ['page must be an integer number']],
    [{ page: '-10' }, ['page must not be less than 1']],
    [{ page: '0' }, ['page must not be less than 1']],
    [{ size: 'abc' }, ['size must not be greater than 1000', 'size must not be less than 1', 'size must be an integer number']],
    [{ size: '-1.5' }, ['size must not be less than 1', 'size must be an integer number']],
    [{ size: '1001' }, ['size must not be greater than 1000']],
    ...['isArchived', 'isFavorite', 'isReadOnly', 'isExternal', 'isEncoded', 'isMotion', 'isOffline', 'isVisible'].map(
      (key): [Record<string, string>, unknown] => [{ [key]: 'immich' }, [`${key} must be a boolean value`]],
    ),
    [{ takenAfter: 'yesterday' }, 'takenAfter must be a date string'],
    [{ id: 'invalid-uuid' }, ['id must be a UUID']],
    [{ personIds: ['x', 'y'] }, ['each value in personIds must be a UUID']],
    [{ type: 'PHOTO' }, ['type must be one of the following values: IMAGE, VIDEO, AUDIO, OTHER']],
    [{ order: 'up' }, ['order must be one of the following values: asc, desc']],
    [{ make: '' }, ['make should not be empty']],
    // v1.100's order: MetadataSearchDto's own fields, then BaseSearchDto's, each in its class.
    [
      { size: '0', libraryId: 'x', order: 'up', id: 'y' },
      [
        'id must be a UUID',
        'order must be one of the following values: asc, desc',
        'libraryId must be a UUID',
        'size must not be less than 1',
      ],
    ],
  ])('%j → 400 %j', async (query, message) => {
    const reply = await search(query);
    expect({ status: reply.status, body: reply.body }).toEqual({ status: 400, body: { message, error: 'Bad Request', statusCode: 400 } });
  });

  it('needs a signed-in user', async () => {
    expect((await invoke(searchAssetsHandler, { path: '/api/assets' })).status).toBe(401);
  });
});
