import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as reassignByIdV1 } from '#functions/face/reassign-faces-by-id.ts';
import { handler as reassignV1 } from '#functions/person/reassign-faces.ts';
import { handler as searchHandler } from '#functions/search/search.ts';
import { handler as createFaceV3 } from '#functions/v3/face/create-face.ts';
import { handler as deleteFaceV3 } from '#functions/v3/face/delete-face.ts';
import { handler as getFacesV3 } from '#functions/v3/face/get-faces.ts';
import { handler as reassignByIdV3 } from '#functions/v3/face/reassign-faces-by-id.ts';
import { handler as createPersonV3 } from '#functions/v3/person/create-person.ts';
import { handler as reassignV3 } from '#functions/v3/person/reassign-faces.ts';
import { db } from '#shared/db/client.ts';
import * as keys from '#shared/db/item-keys.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, personNamed } from '../support/library.ts';
import { mediaJobsInProcess, turnOffMl } from '../support/media.ts';
import { tableItems } from '../support/table-items.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
// What the edits hand the media function, recorded, not run.
const media = mediaJobsInProcess({ run: false });
beforeAll(async () => {
  accounts = await setupAccounts();
  // Not about OCR or duplicates: off, as each photo's cost (test/support/ml-tasks.ts).
  await turnOffMl(accounts.admin.accessToken, ['ocr', 'duplicateDetection']);
  media.start();
});
afterEach(() => media.forget());
afterAll(() => media.stop());

type Json = Record<string, unknown>;
const withId = (id: string) => ({ pathParameters: { id } });
const faces = async (token: string, assetId: string): Promise<Json[]> =>
  (await invoke(getFacesV3, { path: '/api/faces', query: { id: assetId }, headers: bearer(token) })).body;
const namesOn = async (token: string, assetId: string) => (await faces(token, assetId)).map((face) => (face.person as Json).name);
const personItem = async (personId: string) => (await tableItems('person')).find((item) => item.id === personId);
const assetItem = async (assetId: string) => (await tableItems('asset')).find((item) => item.id === assetId);
const textSearch = async (token: string, q: string) =>
  (await invoke(searchHandler, { path: '/api/search', query: { q, clip: 'false' }, headers: bearer(token) })).body.assets.items.map(
    (asset: Json) => asset.id,
  );

const reassignById = (token: string, personId: string, faceId: string, v3 = true) =>
  invoke(v3 ? reassignByIdV3 : reassignByIdV1, {
    method: 'PUT',
    path: `/api/${v3 ? 'faces' : 'face'}/${personId}`,
    headers: bearer(token),
    body: { id: faceId },
    ...withId(personId),
  });
const reassign = (token: string, personId: string, data: unknown, v3 = false) =>
  invoke(v3 ? reassignV3 : reassignV1, {
    method: 'PUT',
    path: `/api/${v3 ? 'people' : 'person'}/${personId}/reassign`,
    headers: bearer(token),
    body: { data },
    ...withId(personId),
  });
const createFace = (token: string, body: unknown) =>
  invoke(createFaceV3, { method: 'POST', path: '/api/faces', headers: bearer(token), body });
const deleteFace = (token: string, faceId: string, body: unknown = { force: true }) =>
  invoke(deleteFaceV3, { method: 'DELETE', path: `/api/faces/${faceId}`, headers: bearer(token), body, ...withId(faceId) });

/** A photo of these people, side by side (one XMP face region each, in the file's order). */
const photoOf = (token: string, ...names: string[]) =>
  addPhoto(token, {
    mwgFaces: names.map((name, index) => ({ name, x: 0.05 + index * 0.3, y: 0.1 + index * 0.2, w: 0.2, h: 0.2 })),
  });

describe('editing who is on a photo (both generations)', () => {
  it('moves a face to another person: faces, counts, the asset’s people, search and feature photos follow', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'FaceEditor');
    const token = user.accessToken;
    const photo = await photoOf(token, 'Ada Lovelace', 'Bob Marley');
    const [ada, bob] = [await personNamed(token, 'Ada Lovelace'), await personNamed(token, 'Bob Marley')];
    const [adaFace] = await faces(token, photo);
    expect((await personItem(ada.id))?.faceAssetId).toBe(photo);
    expect(await textSearch(token, 'lovelace')).toEqual([photo]);

    const moved = await reassignById(token, bob.id, String(adaFace?.id));
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ id: bob.id, name: 'Bob Marley' });
    expect(await namesOn(token, photo)).toEqual(['Bob Marley', 'Bob Marley']);
    expect(await personItem(ada.id)).toMatchObject({ faceCount: 0, faceAssetId: null });
    expect(await personItem(bob.id)).toMatchObject({ faceCount: 2, faceAssetId: photo });
    expect((await assetItem(photo))?.personIds).toEqual([bob.id]);
    expect(await textSearch(token, 'lovelace')).toEqual([]);
    expect(await textSearch(token, 'marley')).toEqual([photo]);

    // v1.100's reassign by asset: Bob's faces on it become Ada's; the person once per item.
    const back = await reassign(token, ada.id, [{ assetId: photo, personId: bob.id }]);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toEqual([expect.objectContaining({ id: ada.id, name: 'Ada Lovelace' })]);
    expect(await namesOn(token, photo)).toEqual(['Ada Lovelace', 'Ada Lovelace']);
    expect(await personItem(ada.id)).toMatchObject({ faceCount: 2, faceAssetId: photo });
    expect(await personItem(bob.id)).toMatchObject({ faceCount: 0, faceAssetId: null });
    expect(await textSearch(token, 'marley')).toEqual([]);
    // Ada had no feature photo: she takes this asset, and the media function is asked for her thumbnail.
    expect(media.handed).toContainEqual({ kind: 'person-thumbnail', ownerId: user.userId, personId: ada.id });

    // v1.100's PUT /face/:id, and v3's reassign, answer in their generation's shape.
    const v1 = await reassignById(token, bob.id, String(adaFace?.id), false);
    expect(v1.body).toEqual({ id: bob.id, name: 'Bob Marley', birthDate: null, thumbnailPath: expect.any(String), isHidden: false });
    const v3 = await reassign(token, ada.id, [{ assetId: photo, personId: bob.id }], true);
    expect(v3.body[0]).toMatchObject({ id: ada.id, isFavorite: false, updatedAt: expect.any(String) });
  });

  it('draws a face by hand and deletes one (v3), with its person’s feature photo', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'FaceDrawer');
    const token = user.accessToken;
    const photo = await photoOf(token, 'Cleo');
    const dan = (await invoke(createPersonV3, { method: 'POST', path: '/api/people', headers: bearer(token), body: { name: 'Dan' } })).body;
    const drawn = await createFace(token, {
      assetId: photo,
      personId: dan.id,
      imageWidth: 640,
      imageHeight: 480,
      x: 10,
      y: 20,
      width: 30,
      height: 40,
    });
    expect(drawn.status, JSON.stringify(drawn.body)).toBe(201);
    const listed = await faces(token, photo);
    expect(listed.map((face) => (face.person as Json).name)).toEqual(['Cleo', 'Dan']);
    expect(listed[1]).toMatchObject({
      sourceType: 'manual',
      imageWidth: 640,
      imageHeight: 480,
      boundingBoxX1: 10,
      boundingBoxY1: 20,
      boundingBoxX2: 40,
      boundingBoxY2: 60,
    });
    expect(await personItem(dan.id)).toMatchObject({ faceCount: 1, faceAssetId: photo });
    expect(await textSearch(token, 'dan')).toEqual([photo]);

    expect((await deleteFace(token, String(listed[1]?.id))).status).toBe(204);
    expect(await namesOn(token, photo)).toEqual(['Cleo']);
    expect(await personItem(dan.id)).toMatchObject({ faceCount: 0, faceAssetId: null });
    expect((await assetItem(photo))?.faceIds).toEqual([listed[0]?.id]);
    expect(await textSearch(token, 'dan')).toEqual([]);
    // The apps learn of it (AssetFaceDeleteV1).
    expect((await tableItems('deletion')).some((item) => item.assetFaceId === listed[1]?.id)).toBe(true);
    expect((await deleteFace(token, String(listed[1]?.id))).body).toEqual({ message: 'Not found or no face.delete access' });
  });

  it('refuses someone else’s faces, people and assets, and bad boxes', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'FaceOwner');
    const photo = await photoOf(owner.accessToken, 'Eve');
    const eve = await personNamed(owner.accessToken, 'Eve');
    const [face] = await faces(owner.accessToken, photo);
    const stranger = await freshUser(accounts.admin.accessToken, 'FaceStranger');
    const mallory = (
      await invoke(createPersonV3, {
        method: 'POST',
        path: '/api/people',
        headers: bearer(stranger.accessToken),
        body: { name: 'Mallory' },
      })
    ).body;

    expect((await reassignById(stranger.accessToken, mallory.id, String(face?.id))).body).toMatchObject({
      message: 'Not found or no person.create access',
    });
    expect((await reassignById(owner.accessToken, mallory.id, String(face?.id))).body).toMatchObject({
      message: 'Not found or no person.write access',
    });
    expect((await deleteFace(stranger.accessToken, String(face?.id))).body).toMatchObject({
      message: 'Not found or no face.delete access',
    });
    const box = { assetId: photo, personId: mallory.id, imageWidth: 100, imageHeight: 100, x: 1, y: 1, width: 5, height: 5 };
    expect((await createFace(stranger.accessToken, box)).status).toBe(400);
    expect((await createFace(owner.accessToken, { ...box, personId: eve.id, width: 0 })).status).toBe(400);
    expect((await createFace(owner.accessToken, { ...box, personId: eve.id, x: 1.5 })).status).toBe(400);
    expect((await deleteFace(owner.accessToken, String(face?.id), {})).status).toBe(400);
    // A stranger's reassign of the owner's asset moves nothing.
    await reassign(stranger.accessToken, mallory.id, [{ assetId: photo, personId: eve.id }]);
    expect(await namesOn(owner.accessToken, photo)).toEqual(['Eve']);
    expect((await reassign(owner.accessToken, eve.id, [{ assetId: 'nope', personId: eve.id }])).status).toBe(400);
  });

  it('finds a face stored before faces were findable by id, indexing its owner’s faces once', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'OldFaces');
    const token = user.accessToken;
    const photo = await photoOf(token, 'Fay', 'Gus');
    const gus = await personNamed(token, 'Gus');
    const [fay] = await faces(token, photo);
    // As an item written before: no gsi1 key on the faces, no mark on the user.
    for (const item of (await tableItems('face')).filter((each) => each.assetId === photo))
      await db.send(
        new UpdateCommand({
          TableName: process.env.TABLE_NAME,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: 'REMOVE gsi1pk, gsi1sk',
        }),
      );
    await db.send(
      new UpdateCommand({ TableName: process.env.TABLE_NAME, Key: keys.user(user.userId), UpdateExpression: 'REMOVE facesIndexed' }),
    );
    expect((await reassignById(token, gus.id, String(fay?.id))).status).toBe(200);
    expect(await namesOn(token, photo)).toEqual(['Gus', 'Gus']);
    expect((await tableItems('face')).filter((each) => each.assetId === photo).every((item) => item.gsi1pk === `FACE#${item.id}`)).toBe(
      true,
    );
    expect((await tableItems('user')).find((item) => item.id === user.userId)?.facesIndexed).toBe(true);
  });

  it('keeps counts right when two edits of one photo’s faces arrive together', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'FaceRacer');
    const token = user.accessToken;
    const photo = await photoOf(token, 'Hal', 'Ivy', 'Jon');
    const [hal, ivy, jon] = [await personNamed(token, 'Hal'), await personNamed(token, 'Ivy'), await personNamed(token, 'Jon')];
    const [halFace, ivyFace] = await faces(token, photo);
    const replies = await Promise.all([reassignById(token, jon.id, String(halFace?.id)), reassignById(token, jon.id, String(ivyFace?.id))]);
    for (const reply of replies) expect(reply.status).toBe(200);
    expect(await namesOn(token, photo)).toEqual(['Jon', 'Jon', 'Jon']);
    expect((await assetItem(photo))?.personIds).toEqual([jon.id]);
    expect(await personItem(jon.id)).toMatchObject({ faceCount: 3 });
    expect(await personItem(hal.id)).toMatchObject({ faceCount: 0 });
    expect(await personItem(ivy.id)).toMatchObject({ faceCount: 0 });
  });
});

describe('an asset with more faces than a transaction holds (issue 49, Low 1)', () => {
  it('draws 110 faces by hand on one photo, then moves, reassigns and deletes them: every edit answers, nothing half-written', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Crowd');
    const token = user.accessToken;
    const photo = await photoOf(token, 'Eve');
    const newPerson = async (name: string): Promise<string> =>
      (await invoke(createPersonV3, { method: 'POST', path: '/api/people', headers: bearer(token), body: { name } })).body.id;
    const [fay, gus] = [await newPerson('Fay'), await newPerson('Gus')];
    // DynamoDB's transactions hold 100 writes: the edits used to write one for every face of the asset.
    for (let index = 0; index < 110; index++) {
      const drawn = await createFace(token, {
        assetId: photo,
        personId: index % 2 === 0 ? fay : gus,
        imageWidth: 1200,
        imageHeight: 1200,
        x: (index % 12) * 100,
        y: Math.floor(index / 12) * 100,
        width: 90,
        height: 90,
      });
      expect(drawn.status, `face ${index + 1}: ${JSON.stringify(drawn.body)}`).toBe(201);
    }
    const counts = async () => {
      const listed = await faces(token, photo);
      const by = (id: string) => listed.filter((face) => (face.person as Json | null)?.id === id).length;
      return { total: listed.length, fay: by(fay), gus: by(gus) };
    };
    // The asset's lists and the people's counts agree with the faces.
    const consistent = async () => {
      const listed = await faces(token, photo);
      const item = await assetItem(photo);
      expect([...((item?.faceIds ?? []) as string[])].sort()).toEqual(listed.map((face) => String(face.id)).sort());
      const people = new Set(listed.flatMap((face) => ((face.person as Json | null)?.id ? [String((face.person as Json).id)] : [])));
      expect([...((item?.personIds ?? []) as string[])].sort()).toEqual([...people].sort());
      for (const id of [fay, gus]) expect((await personItem(id))?.faceCount).toBe((await counts())[id === fay ? 'fay' : 'gus']);
    };
    expect(await counts()).toEqual({ total: 111, fay: 55, gus: 55 });
    await consistent();

    const listed = await faces(token, photo);
    const aFay = listed.find((face) => (face.person as Json | null)?.id === fay);
    const moved = await reassignById(token, gus, String(aFay?.id));
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await counts()).toEqual({ total: 111, fay: 54, gus: 56 });
    await consistent();

    const removed = await deleteFace(token, String(listed.at(-1)?.id));
    expect(removed.status, JSON.stringify(removed.body)).toBe(204);
    expect(await counts()).toEqual({ total: 110, fay: 54, gus: 55 });
    await consistent();

    // Every one of Gus's 55 faces on the photo to Fay (v1.100's reassign by asset), then all 109 back to Gus.
    const toFay = await reassign(token, fay, [{ assetId: photo, personId: gus }]);
    expect(toFay.status, JSON.stringify(toFay.body)).toBe(200);
    expect(await counts()).toEqual({ total: 110, fay: 109, gus: 0 });
    await consistent();
    const toGus = await reassign(token, gus, [{ assetId: photo, personId: fay }], true);
    expect(toGus.status, JSON.stringify(toGus.body)).toBe(200);
    expect(await counts()).toEqual({ total: 110, fay: 0, gus: 109 });
    await consistent();

    // Two edits of its faces at once: both made, the asset's people and the counts right after.
    const [first, second] = (await faces(token, photo)).filter((face) => (face.person as Json | null)?.id === gus);
    const [one, two] = await Promise.all([reassignById(token, fay, String(first?.id)), deleteFace(token, String(second?.id))]);
    expect([one.status, two.status]).toEqual([200, 204]);
    expect(await counts()).toEqual({ total: 109, fay: 1, gus: 107 });
    await consistent();
    // 110 faces drawn one request at a time.
  });
});
