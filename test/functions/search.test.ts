import { beforeAll, describe, expect, it } from 'vitest';
import { handler as updatePersonHandler } from '#functions/person/update-person.ts';
import { handler as searchHandler } from '#functions/search/search.ts';
import { bearer, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, personNamed, trash, updateAsset } from '../support/library.ts';
import { makeJpeg } from '../support/photos.ts';
import { cliFields, upload } from '../support/uploads.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
const ids: Record<string, string> = {};
const d = (iso: string) => new Date(iso);

const search = (query: Record<string, string>, token = accounts.user1.accessToken) =>
  invoke(searchHandler, { path: '/api/search', query, headers: bearer(token) });
const found = async (q: string, extra: Record<string, string> = {}) => {
  const reply = await search({ q, ...extra });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.assets.items.map((asset: { id: string }) => Object.entries(ids).find(([, id]) => id === asset.id)?.[0] ?? asset.id);
};

beforeAll(async () => {
  accounts = await setupAccounts();
  const t = accounts.user1.accessToken;
  ids.oslo = await addPhoto(
    t,
    {
      make: 'Canon',
      model: 'EOS R5',
      city: 'Oslo',
      country: 'Norway',
      description: 'Harbour at dusk',
      mwgFaces: [{ name: 'Astrid Berg', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }],
    },
    d('2020-01-01T00:00:00.000Z'),
  );
  ids.ile = await addPhoto(t, { make: 'NIKON', city: 'Île-de-Bréhat', country: 'France' }, d('2021-01-01T00:00:00.000Z'));
  ids.bergen = await addPhoto(t, { make: 'Canon', city: 'Bergen', country: 'Norway' }, d('2022-01-01T00:00:00.000Z'));
  const rocks = makeJpeg({});
  ids.rocks = (
    await upload(t, {
      data: rocks,
      fileName: 'el_torcal_rocks.jpg',
      fields: cliFields('r.jpg', rocks.length, d('2019-01-01T00:00:00.000Z')),
    })
  ).body.id;
  ids.archived = await addPhoto(t, { city: 'Oslo' }, d('2023-01-01T00:00:00.000Z'));
  await updateAsset(t, ids.archived, { isArchived: true });
  ids.trashed = await addPhoto(t, { city: 'Oslo' }, d('2023-02-01T00:00:00.000Z'));
  await trash(t, [ids.trashed]);
  const hidden = makeJpeg({ city: 'Oslo' });
  ids.hidden = (await upload(t, { data: hidden, fields: { ...cliFields('h.jpg', hidden.length), isVisible: 'false' } })).body.id;
  await addPhoto(accounts.user2.accessToken, { city: 'Oslo' });
});

describe('GET /search (text)', () => {
  it("answers Immich's envelope with the matching assets, newest first, with EXIF and smartInfo", async () => {
    const reply = await search({ q: 'norway' });
    expect(reply.body).toEqual({
      albums: { total: 0, count: 0, items: [], facets: [] },
      assets: {
        total: 2,
        count: 2,
        items: [expect.objectContaining({ id: ids.bergen }), expect.objectContaining({ id: ids.oslo })],
        facets: [],
        nextPage: null,
      },
    });
    expect(reply.body.assets.items[0]).toMatchObject({ exifInfo: { city: 'Bergen' }, smartInfo: { tags: [], objects: [] }, people: [] });
  });

  it.each([
    ['a city, any case', 'OSLO', ['oslo']],
    ['words must all match', 'canon norway', ['bergen', 'oslo']],
    ['…all of them', 'canon france', []],
    ['accents are ignored', 'ile brehat', ['ile']],
    ['a model', 'r5', ['oslo']],
    ['the description', 'dusk', ['oslo']],
    ['a file name word', 'torcal', ['rocks']],
    ['a person’s name', 'astrid', ['oslo']],
    ['nothing', 'tokyo', []],
  ])('%s: %s', async (_name, q, expected) => {
    expect(await found(q)).toEqual(expected);
  });

  it('leaves out archived, trashed and hidden assets, and other users’ assets; size limits', async () => {
    expect(await found('oslo')).toEqual(['oslo']);
    expect(await found('canon', { size: '1' })).toEqual(['bergen']);
    expect((await search({ query: 'oslo' }, accounts.user2.accessToken)).body.assets.count).toBe(1);
  });

  it('finds by a new person name and an edited description', async () => {
    const t = accounts.user1.accessToken;
    const astrid = await personNamed(t, 'Astrid Berg');
    await invoke(updatePersonHandler, {
      method: 'PUT',
      path: `/api/person/${astrid.id}`,
      headers: bearer(t),
      pathParameters: { id: astrid.id },
      body: { name: 'Astrid Solberg' },
    });
    expect(await found('solberg')).toEqual(['oslo']);
    expect(await found('astrid berg')).toEqual([]);
    await updateAsset(t, ids.bergen ?? '', { description: 'Bryggen wharf' });
    expect(await found('wharf')).toEqual(['bergen']);
  });

  it.each<[Record<string, string>, unknown]>([
    [{}, 'Missing query'],
    [{ q: '' }, ['q should not be empty']],
    [{ q: 'oslo', smart: 'true' }, 'Smart search is not enabled'],
    [{ q: 'oslo', clip: 'true' }, 'Smart search is not enabled'],
    [{ q: 'oslo', size: '0' }, ['size must not be less than 1']],
    [{ q: 'oslo', type: 'PHOTO' }, ['type must be one of the following values: IMAGE, VIDEO, AUDIO, OTHER']],
  ])('%j → 400 %j', async (query, message) => {
    const reply = await search(query);
    expect({ status: reply.status, body: reply.body }).toEqual({ status: 400, body: { message, error: 'Bad Request', statusCode: 400 } });
  });
});
