import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createPersonHandler } from '#functions/person/create-person.ts';
import { handler as getPersonHandler } from '#functions/person/get-person.ts';
import { handler as getPersonAssetsHandler } from '#functions/person/get-person-assets.ts';
import { handler as mergePersonHandler } from '#functions/person/merge-person.ts';
import { handler as updatePeopleHandler } from '#functions/person/update-people.ts';
import { handler as searchHandler } from '#functions/search/search.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, assetInfo, personNamed } from '../support/library.ts';
import { tableItems } from '../support/table-items.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const create = (token: string, body: unknown) =>
  invoke(createPersonHandler, { method: 'POST', path: '/api/person', headers: bearer(token), body });
const updateAll = (token: string, people: unknown) =>
  invoke(updatePeopleHandler, { method: 'PUT', path: '/api/person', headers: bearer(token), body: { people } });
const merge = (token: string, id: string, ids: unknown) =>
  invoke(mergePersonHandler, {
    method: 'POST',
    path: `/api/person/${id}/merge`,
    headers: bearer(token),
    pathParameters: { id },
    body: { ids },
  });
const get = (token: string, id: string) =>
  invoke(getPersonHandler, { path: `/api/person/${id}`, headers: bearer(token), pathParameters: { id } });
const face = (name: string, x = 0.1) => ({ name, x, y: 0.1, w: 0.2, h: 0.2 });

describe('POST /person, PUT /person', () => {
  it('creates a person (201) and updates several at once, per id', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Creator${Date.now()}`)).accessToken;
    const created = await create(token, { name: 'Newly Made', birthDate: '1999-09-09', isHidden: false });
    expect(created.status).toBe(201);
    // Immich answers its create with the instant the date names; it keeps the day (then answered).
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'Newly Made',
      birthDate: '1999-09-09T00:00:00.000Z',
      thumbnailPath: '',
      isHidden: false,
    });
    expect((await get(token, created.body.id)).body.birthDate).toBe('1999-09-09');
    // Immich's e2e cases: POST answers the instant sent, PUT the day.
    const e2e = await create(token, { name: 'New Person', birthDate: '1990-01-01T05:00:00.000Z' });
    expect(e2e.body).toMatchObject({ id: expect.any(String), name: 'New Person', birthDate: '1990-01-01T05:00:00.000Z' });
    expect((await get(token, e2e.body.id)).body.birthDate).toBe('1990-01-01');
    const blank = await create(token, {});
    expect(blank.body).toMatchObject({ name: '', birthDate: null, isHidden: false });
    expect((await create(token, { name: 5 })).body.message).toEqual(['name must be a string']);

    const reply = await updateAll(token, [
      { id: created.body.id, name: 'Renamed', isHidden: true },
      { id: blank.body.id, birthDate: '2000-01-01' },
      { id: '00000000-0000-4000-a000-000000000000', name: 'nobody' },
    ]);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([
      { id: created.body.id, success: true },
      { id: blank.body.id, success: true },
      { id: '00000000-0000-4000-a000-000000000000', success: false, error: 'unknown' },
    ]);
    expect((await get(token, created.body.id)).body).toMatchObject({ name: 'Renamed', isHidden: true });
    expect((await get(token, blank.body.id)).body.birthDate).toBe('2000-01-01');
    expect((await updateAll(token, [{ name: 'no id' }])).body.message).toEqual([
      'people.0.id should not be empty',
      'people.0.id must be a string',
    ]);
    expect((await updateAll(token, 'x')).body.message).toEqual(['people must be an array']);
  });
});

describe('POST /person/:id/merge', () => {
  it("moves the merged people's faces, takes over a missing name, deletes them; the counts and search follow", async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Merger${Date.now()}`)).accessToken;
    const both = await addPhoto(token, { mwgFaces: [face('Anna Keep'), face('Anne Dup', 0.5)] });
    const dupOnly = await addPhoto(token, { mwgFaces: [face('Anne Dup')] });
    const keepOnly = await addPhoto(token, { mwgFaces: [face('Anna Keep')] });
    const keep = await personNamed(token, 'Anna Keep');
    const dup = await personNamed(token, 'Anne Dup');
    const unnamed = (await create(token, {})).body;
    const theirs = (await create(accounts.user2.accessToken, { name: 'Not Yours' })).body;

    const reply = await merge(token, keep.id, [dup.id, theirs.id]);
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual([
      { id: dup.id, success: true },
      { id: theirs.id, success: false, error: 'no_permission' },
    ]);
    expect((await get(token, dup.id)).status).toBe(400);
    const assets = await invoke(getPersonAssetsHandler, {
      path: `/api/person/${keep.id}/assets`,
      headers: bearer(token),
      pathParameters: { id: keep.id },
    });
    expect(assets.body.map((asset: { id: string }) => asset.id).sort()).toEqual([both, dupOnly, keepOnly].sort());
    // The asset with both faces shows one person, with both faces.
    const merged = (await assetInfo(token, both)).body.people;
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ id: keep.id, name: 'Anna Keep' });
    expect(merged[0].faces).toHaveLength(2);
    // Stored counts agree with the faces.
    const items = await tableItems();
    const person = items.find((item) => item.type === 'person' && item.id === keep.id);
    expect(person?.faceCount).toBe(items.filter((item) => item.type === 'face' && item.personId === keep.id).length);
    expect(person?.faceCount).toBe(4);
    // The dup-only photo is found by the kept person's name.
    const found = await invoke(searchHandler, { path: '/api/search', query: { q: 'anna keep' }, headers: bearer(token) });
    expect(found.body.assets.items.map((asset: { id: string }) => asset.id)).toContain(dupOnly);

    // An unnamed person takes over the name of the one merged into them.
    expect((await merge(token, unnamed.id, [keep.id])).body).toEqual([{ id: keep.id, success: true }]);
    expect((await get(token, unnamed.id)).body.name).toBe('Anna Keep');
    expect((await merge(token, unnamed.id, [unnamed.id])).body).toMatchObject({
      statusCode: 400,
      message: 'Cannot merge a person into themselves',
    });
    expect((await merge(accounts.user2.accessToken, unnamed.id, [theirs.id])).body).toMatchObject({
      message: 'Not found or no person.write access',
    });
    expect((await merge(token, unnamed.id, ['x'])).body.message).toEqual(['each value in ids must be a UUID']);
    // Ids are checked all at once (not one read each), at most 1,000; one merged twice is not_found the second time.
    const other = (await create(token, { name: 'Merged Twice' })).body;
    const many = [other.id, other.id, ...Array.from({ length: 998 }, () => randomUUID())];
    const bulk = await merge(token, unnamed.id, many);
    expect(bulk.body.slice(0, 3)).toEqual([
      { id: other.id, success: true },
      { id: other.id, success: false, error: 'not_found' },
      { id: many[2], success: false, error: 'no_permission' },
    ]);
    expect(bulk.body.filter((result: { error?: string }) => result.error === 'no_permission')).toHaveLength(998);
    expect((await merge(token, unnamed.id, [...many, randomUUID()])).body).toMatchObject({
      statusCode: 400,
      message: ['ids must contain no more than 1000 elements'],
    });
  });
});
