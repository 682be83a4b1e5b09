import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAllPeopleHandler } from '#functions/person/get-all-people.ts';
import { handler as getPersonHandler } from '#functions/person/get-person.ts';
import { handler as updatePersonHandler } from '#functions/person/update-person.ts';
import { bearer, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, assetInfo, personNamed } from '../support/library.ts';
import { makeJpeg, makeSidecar } from '../support/photos.ts';
import { tableItems } from '../support/table-items.ts';
import { upload } from '../support/uploads.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;

beforeAll(async () => {
  accounts = await setupAccounts();
});

const people = (token: string, query: Record<string, string> = {}) =>
  invoke(getAllPeopleHandler, { path: '/api/person', query, headers: bearer(token) });
const person = (token: string, id: string) =>
  invoke(getPersonHandler, { path: `/api/person/${id}`, headers: bearer(token), pathParameters: { id } });
const update = (token: string, id: string, body: unknown) =>
  invoke(updatePersonHandler, { method: 'PUT', path: `/api/person/${id}`, headers: bearer(token), pathParameters: { id }, body });

const uploaded = async (token: string, ...args: Parameters<typeof makeJpeg>) => {
  const reply = await upload(token, { data: makeJpeg(...args) });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
};

describe('people from face regions', () => {
  it('MWG and Microsoft regions become faces with pixel boxes; names match case-insensitively per owner', async () => {
    const token = accounts.user1.accessToken;
    const first = await uploaded(token, {
      width: 200,
      height: 100,
      mwgFaces: [
        { name: 'Alice Smith', x: 0.1, y: 0.2, w: 0.2, h: 0.4 },
        { name: 'Bob', x: 0.6, y: 0.1, w: 0.1, h: 0.3 },
        { x: 0.8, y: 0.8, w: 0.1, h: 0.1 }, // unnamed: no person
        { name: 'Rex', x: 0.4, y: 0.5, w: 0.1, h: 0.1, type: 'Pet' }, // not a face
      ],
    });
    const second = await uploaded(token, {
      width: 100,
      height: 100,
      microsoftFaces: [{ name: 'alice smith', x: 0.5, y: 0.5, w: 0.25, h: 0.25 }],
    });

    const list = await people(token);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      total: 2,
      hidden: 0,
      people: [
        { id: expect.any(String), name: 'Alice Smith', birthDate: null, thumbnailPath: '', isHidden: false },
        { id: expect.any(String), name: 'Bob', birthDate: null, thumbnailPath: '', isHidden: false },
      ],
    });
    const [alice, bob] = list.body.people;

    const firstAsset = await assetInfo(token, first);
    expect(firstAsset.body.people).toEqual([
      {
        ...alice,
        faces: [
          {
            id: expect.any(String),
            imageWidth: 200,
            imageHeight: 100,
            boundingBoxX1: 20,
            boundingBoxX2: 60,
            boundingBoxY1: 20,
            boundingBoxY2: 60,
          },
        ],
      },
      {
        ...bob,
        faces: [
          {
            id: expect.any(String),
            imageWidth: 200,
            imageHeight: 100,
            boundingBoxX1: 120,
            boundingBoxX2: 140,
            boundingBoxY1: 10,
            boundingBoxY2: 40,
          },
        ],
      },
    ]);
    const secondAsset = await assetInfo(token, second);
    expect(secondAsset.body.people).toEqual([
      {
        ...alice,
        faces: [
          {
            id: expect.any(String),
            imageWidth: 100,
            imageHeight: 100,
            boundingBoxX1: 50,
            boundingBoxX2: 75,
            boundingBoxY1: 50,
            boundingBoxY2: 75,
          },
        ],
      },
    ]);

    // Another user's "Alice Smith" is their own person; neither sees the other's.
    await uploaded(accounts.user2.accessToken, { mwgFaces: [{ name: 'Alice Smith', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] });
    const theirs = await people(accounts.user2.accessToken);
    expect(theirs.body.people).toHaveLength(1);
    expect(theirs.body.people[0].id).not.toBe(alice.id);
    expect((await people(token)).body.people.map((p: { id: string }) => p.id)).toEqual([alice.id, bob.id]);
    for (const id of [alice.id, bob.id]) {
      expect((await person(accounts.user2.accessToken, id)).body).toEqual({
        message: 'Not found or no person.read access',
        error: 'Bad Request',
        statusCode: 400,
      });
      expect((await update(accounts.user2.accessToken, id, { name: 'Mallory' })).body).toEqual({
        message: 'Not found or no person.write access',
        error: 'Bad Request',
        statusCode: 400,
      });
    }
    expect((await person(token, alice.id)).body.name).toBe('Alice Smith');
  });

  it('people with more faces come first; hidden people only with withHidden, counted in hidden', async () => {
    const token = accounts.user2.accessToken;
    await uploaded(token, { mwgFaces: [{ name: 'Zoe', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] });
    await uploaded(token, {
      mwgFaces: [
        { name: 'zoe', x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
        { name: 'Yann', x: 0.5, y: 0.5, w: 0.2, h: 0.2 },
      ],
    });
    const before = await people(token);
    const names = before.body.people.map((p: { name: string }) => p.name);
    expect(names.slice(0, 1)).toEqual(['Zoe']); // two faces
    const yann = before.body.people.find((p: { name: string }) => p.name === 'Yann');
    expect((await update(token, yann.id, { isHidden: true })).body).toMatchObject({ id: yann.id, isHidden: true });
    const visible = await people(token);
    expect(visible.body.people.map((p: { name: string }) => p.name)).not.toContain('Yann');
    expect(visible.body).toMatchObject({ total: before.body.total, hidden: 1 });
    const all = await people(token, { withHidden: 'true' });
    expect(all.body.people.at(-1)).toMatchObject({ name: 'Yann', isHidden: true });
  });

  it("a sidecar's regions replace the file's MWG regions", async () => {
    const token = accounts.admin.accessToken;
    const id = (
      await upload(token, {
        data: makeJpeg({ mwgFaces: [{ name: 'In File', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] }),
        sidecar: makeSidecar({ mwgFaces: [{ name: 'In Sidecar', x: 0.5, y: 0.5, w: 0.2, h: 0.2 }] }),
      })
    ).body.id;
    expect((await assetInfo(token, id)).body.people.map((p: { name: string }) => p.name)).toEqual(['In Sidecar']);
  });

  it('concurrent uploads naming the same new person create one person', async () => {
    const token = accounts.admin.accessToken;
    await Promise.all(
      Array.from({ length: 4 }, () => uploaded(token, { mwgFaces: [{ name: 'Concurrent Carla', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] })),
    );
    const carlas = (await people(token)).body.people.filter((p: { name: string }) => p.name === 'Concurrent Carla');
    expect(carlas).toHaveLength(1);
    const stored = (await tableItems('person')).filter((item) => item.name === 'Concurrent Carla');
    expect(stored).toHaveLength(1);
    expect(stored[0]?.faceCount).toBe(4);
  });
});

describe('PUT /person/:id', () => {
  it('updates name, birth date and hidden; a rename is matched by later uploads', async () => {
    const token = accounts.user1.accessToken;
    const assetId = await uploaded(token, { mwgFaces: [{ name: 'Renamed Ron', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] });
    const ron = (await people(token)).body.people.find((p: { name: string }) => p.name === 'Renamed Ron');
    const reply = await update(token, ron.id, { name: 'Ronald', birthDate: '1990-04-01', isHidden: false, featureFaceAssetId: assetId });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ id: ron.id, name: 'Ronald', birthDate: '1990-04-01', thumbnailPath: '', isHidden: false });
    expect((await person(token, ron.id)).body).toEqual(reply.body);
    // The new name now finds Ron; the old one is free for someone new.
    await uploaded(token, {
      mwgFaces: [
        { name: 'RONALD', x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
        { name: 'Renamed Ron', x: 0.5, y: 0.5, w: 0.2, h: 0.2 },
      ],
    });
    const list = (await people(token, { withHidden: 'true' })).body.people;
    expect(list.filter((p: { id: string }) => p.id === ron.id)).toHaveLength(1);
    expect(list.filter((p: { name: string }) => p.name === 'Renamed Ron')).toHaveLength(1);
    expect((await update(token, ron.id, { birthDate: null })).body.birthDate).toBeNull();
    // A full ISO date-time is the day it falls on (PostgreSQL's date column).
    expect((await update(token, ron.id, { birthDate: '1990-01-01T05:00:00.000Z' })).body.birthDate).toBe('1990-01-01');
  });

  it.each([
    // Immich's ValidateDate: not a date string stops the request with one message.
    [{ birthDate: '1990-13-01' }, 'birthDate must be a date string'],
    [{ birthDate: 'yesterday' }, 'birthDate must be a date string'],
    [{ birthDate: '2999-01-01' }, ['Birth date cannot be in the future']],
    [{ birthDate: new Date(Date.now() + 3_600_000).toISOString() }, ['Birth date cannot be in the future']],
    [{ name: 5 }, ['name must be a string']],
    [{ isHidden: 'maybe' }, ['isHidden must be a boolean value']],
    [{ featureFaceAssetId: null }, ['featureFaceAssetId must be a string']],
    [{ featureFaceAssetId: 'x' }, 'Not found or no asset.read access'],
  ])('%j → 400 %j', async (body, message) => {
    const token = accounts.user1.accessToken;
    await addPhoto(token, { mwgFaces: [{ name: 'Val Idation', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] });
    const someone = await personNamed(token, 'Val Idation');
    const reply = await update(token, someone.id, body);
    expect({ status: reply.status, message: reply.body.message }).toEqual({ status: 400, message });
  });

  it('a feature face asset without this person is refused', async () => {
    const token = accounts.user1.accessToken;
    await addPhoto(token, { mwgFaces: [{ name: 'Fay Ceface', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] });
    const someone = await personNamed(token, 'Fay Ceface');
    const faceless = await uploaded(token, {});
    expect((await update(token, someone.id, { featureFaceAssetId: faceless })).body.message).toBe('Invalid assetId for feature face');
    const othersAsset = await uploaded(accounts.user2.accessToken, {});
    expect((await update(token, someone.id, { featureFaceAssetId: othersAsset })).body.message).toBe('Not found or no asset.read access');
  });

  it('a missing person: 400; a bad id: 400', async () => {
    const token = accounts.user1.accessToken;
    expect((await person(token, '3fa85f64-5717-4562-b3fc-2c963f66afa6')).body.message).toBe('Not found or no person.read access');
    expect((await person(token, 'nope')).body.message).toEqual(['id must be a UUID']);
    expect((await people(token, { withHidden: 'perhaps' })).body.message).toEqual(['withHidden must be a boolean value']);
  });
});
