import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAllPeopleV1 } from '#functions/person/get-all-people.ts';
import { handler as getPersonThumbnailV1 } from '#functions/person/get-person-thumbnail.ts';
import { handler as mergePersonV1 } from '#functions/person/merge-person.ts';
import { handler as searchPerson } from '#functions/search/search-person.ts';
import { handler as restoreAssets } from '#functions/trash/restore-assets.ts';
import { handler as deleteAssets } from '#functions/v3/asset/delete-assets.ts';
import { handler as updateAssets } from '#functions/v3/asset/update-assets.ts';
import { handler as createFace } from '#functions/v3/face/create-face.ts';
import { handler as createPerson } from '#functions/v3/person/create-person.ts';
import { handler as getAllPeopleV3 } from '#functions/v3/person/get-all-people.ts';
import { handler as getPersonStatistics } from '#functions/v3/person/get-person-statistics.ts';
import { handler as getPersonThumbnailV3 } from '#functions/v3/person/get-person-thumbnail.ts';
import { db } from '#shared/db/client.ts';
import * as keys from '#shared/db/item-keys.ts';
import { bearer, freshUser, login, setupAccounts, unlockSession } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, assetInfo } from '../support/library.ts';
import { changeConfig, objectCreated } from '../support/media.ts';
import { tableItems } from '../support/table-items.ts';

/**
 * Issue 49, Medium 2: people are counted and listed through their faces on photos in the caller's
 * timeline, as Immich's person repository joins them (not archived, trashed, hidden or locked): a
 * person seen only in locked photos is not listed, searched or counted, and no face of a locked
 * photo is served as a person's thumbnail.
 */
let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
  // The files' regions alone: no face is looked for, which saves the detector's time.
  await changeConfig(accounts.admin.accessToken, (config) => ({
    ...config,
    machineLearning: { ...config.machineLearning, enabled: false },
  }));
});

type Json = Record<string, any>;
const withId = (id: string) => ({ pathParameters: { id } });
const peopleV3 = async (token: string): Promise<Json> =>
  (await invoke(getAllPeopleV3, { path: '/api/people', query: { withHidden: 'true' }, headers: bearer(token) })).body;
const peopleV1 = async (token: string): Promise<Json> =>
  (await invoke(getAllPeopleV1, { path: '/api/person', query: { withHidden: 'true' }, headers: bearer(token) })).body;
const names = (list: Json) => list.people.map((person: Json) => person.name);
const searched = async (token: string, name: string): Promise<string[]> =>
  (await invoke(searchPerson, { path: '/api/search/person', query: { name, withHidden: 'true' }, headers: bearer(token) })).body.map(
    (person: Json) => person.name,
  );
const thumbnail = async (token: string, id: string, v3 = true) =>
  (
    await invoke(v3 ? getPersonThumbnailV3 : getPersonThumbnailV1, {
      path: `/api/${v3 ? 'people' : 'person'}/${id}/thumbnail`,
      headers: bearer(token),
      ...withId(id),
    })
  ).status;
const statistics = async (token: string, id: string) =>
  (await invoke(getPersonStatistics, { path: `/api/people/${id}/statistics`, headers: bearer(token), ...withId(id) })).body.assets;
const setVisibility = async (token: string, ids: string[], visibility: string) => {
  const reply = await invoke(updateAssets, { method: 'PUT', path: '/api/assets', headers: bearer(token), body: { ids, visibility } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(204);
};
const photoOf = (token: string, ...people: string[]) =>
  addPhoto(token, {
    width: 320,
    height: 240,
    mwgFaces: people.map((name, index) => ({ name, x: 0.05 + index * 0.3, y: 0.1, w: 0.2, h: 0.3 })),
  });
const idOf = (list: Json, name: string): string => list.people.find((person: Json) => person.name === name)?.id;

/** A user with a PIN code: a session unlocked with it, and another that is not. */
const lockerUser = async (name: string) => {
  const user = await freshUser(accounts.admin.accessToken, name);
  const unlocked = user.accessToken;
  await unlockSession(unlocked, '123456');
  const plain = (await login({ email: user.email, password: `password-${name}` })).accessToken;
  return { unlocked, plain };
};

describe('people seen only in locked photos', () => {
  it('are not listed, searched or counted, and their thumbnail (a crop of the locked photo) is not served', async () => {
    const { unlocked, plain } = await lockerUser('FaceLocker');
    const secret = await photoOf(plain, 'Harriet Hidden', 'Vera Visible');
    const open = await photoOf(plain, 'Vera Visible');
    await objectCreated((await assetInfo(plain, secret)).body.originalPath);
    const before = await peopleV3(plain);
    expect(before).toMatchObject({ total: 2, hidden: 0 });
    const harriet = idOf(before, 'Harriet Hidden');
    const vera = idOf(before, 'Vera Visible');
    expect(await thumbnail(plain, harriet)).toBe(200);

    await setVisibility(plain, [secret], 'locked');
    for (const token of [plain, unlocked]) {
      // Both generations' lists and counts, as Immich's join of faces to timeline assets gives them.
      const v3 = await peopleV3(token);
      expect(names(v3)).toEqual(['Vera Visible']);
      expect(v3).toMatchObject({ total: 1, hidden: 0 });
      const v1 = await peopleV1(token);
      expect(names(v1)).toEqual(['Vera Visible']);
      expect(v1).toMatchObject({ total: 1, hidden: 0 });
      expect(await searched(token, 'Harriet')).toEqual([]);
      expect(await searched(token, 'Vera')).toEqual(['Vera Visible']);
      expect(await statistics(token, vera)).toBe(1);
      expect(await statistics(token, harriet)).toBe(0);
    }
    // The crop of the locked photo is served to no session that cannot read it (v3 and v1.100).
    expect(await thumbnail(plain, harriet)).toBe(404);
    expect(await thumbnail(plain, harriet, false)).toBe(404);
    expect(await thumbnail(unlocked, harriet)).toBe(200);

    // Out of the locked folder again: listed and served as before.
    await setVisibility(unlocked, [secret], 'timeline');
    const after = await peopleV3(plain);
    expect(after).toMatchObject({ total: 2, hidden: 0 });
    expect(names(after)).toEqual(['Vera Visible', 'Harriet Hidden']);
    expect(await searched(plain, 'Harriet')).toEqual(['Harriet Hidden']);
    expect(await thumbnail(plain, harriet)).toBe(200);
    expect(open).toBeTruthy();
  });

  it('nor are people seen only in trashed or archived photos (as Immich), until the photo is back in the timeline', async () => {
    const { plain } = await lockerUser('FaceBinner');
    const binned = await photoOf(plain, 'Tom Trashed', 'Both Ways');
    const archived = await photoOf(plain, 'Arch Ived', 'Both Ways');
    await invoke(deleteAssets, { method: 'DELETE', path: '/api/assets', headers: bearer(plain), body: { ids: [binned] } });
    await setVisibility(plain, [archived], 'archive');
    expect(names(await peopleV3(plain))).toEqual([]);
    expect(await peopleV1(plain)).toMatchObject({ total: 0, hidden: 0, people: [] });
    const restored = await invoke(restoreAssets, {
      method: 'POST',
      path: '/api/trash/restore/assets',
      headers: bearer(plain),
      body: { ids: [binned] },
    });
    expect(restored.status, JSON.stringify(restored.body)).toBe(204);
    expect(names(await peopleV3(plain)).sort()).toEqual(['Both Ways', 'Tom Trashed']);
    await setVisibility(plain, [archived], 'timeline');
    // Ordered by their faces in the timeline: two for one, one each for the others.
    const all = await peopleV3(plain);
    expect(all.total).toBe(3);
    expect(names(all)[0]).toBe('Both Ways');
  });

  it('a face drawn or moved onto a locked photo, and a merge of people, keep the count of faces in the timeline', async () => {
    const { unlocked, plain } = await lockerUser('FaceDrawerLocked');
    const secret = await photoOf(plain, 'Lena Locked');
    const open = await photoOf(plain, 'Otto Open');
    await setVisibility(plain, [secret], 'locked');
    // A person of no face yet, given a face drawn on the locked photo (an unlocked session may).
    const dora = (
      await invoke(createPerson, { method: 'POST', path: '/api/people', headers: bearer(unlocked), body: { name: 'Dora Drawn' } })
    ).body;
    const drawn = await invoke(createFace, {
      method: 'POST',
      path: '/api/faces',
      headers: bearer(unlocked),
      body: { assetId: secret, personId: dora.id, imageWidth: 320, imageHeight: 240, x: 200, y: 20, width: 40, height: 40 },
    });
    expect(drawn.status, JSON.stringify(drawn.body)).toBe(201);
    expect(names(await peopleV3(plain))).toEqual(['Otto Open']);
    // Merging the locked-only people into one another keeps them out; into Otto, Otto keeps his one face in the timeline.
    const lena = (await tableItems('person')).find((item) => item.name === 'Lena Locked')?.id as string;
    const merged = await invoke(mergePersonV1, {
      method: 'POST',
      path: `/api/person/${dora.id}/merge`,
      headers: bearer(unlocked),
      body: { ids: [lena] },
      ...withId(dora.id),
    });
    expect(merged.status, JSON.stringify(merged.body)).toBe(201);
    expect(await peopleV3(plain)).toMatchObject({ total: 1 });
    const otto = idOf(await peopleV3(plain), 'Otto Open');
    const mergedIn = await invoke(mergePersonV1, {
      method: 'POST',
      path: `/api/person/${otto}/merge`,
      headers: bearer(unlocked),
      body: { ids: [dora.id] },
      ...withId(otto),
    });
    expect(mergedIn.status, JSON.stringify(mergedIn.body)).toBe(201);
    expect(await peopleV3(plain)).toMatchObject({ total: 1, people: [{ name: 'Otto Open' }] });
    // Out of the locked folder: Otto's two faces there count too.
    await setVisibility(unlocked, [secret], 'timeline');
    const person = (await tableItems('person')).find((item) => item.id === otto);
    expect(person).toMatchObject({ faceCount: 3, timelineFaceCount: 3 });
    expect(open).toBeTruthy();
  });

  it('a person stored before the count is counted once, from their faces, then kept', async () => {
    const { plain } = await lockerUser('FaceEarlier');
    const secret = await photoOf(plain, 'Early Bird', 'Early Both');
    await photoOf(plain, 'Early Both');
    await setVisibility(plain, [secret], 'locked');
    // As an earlier version stored them: no count of faces in the timeline (a stray one from an ADD at most).
    for (const person of (await tableItems('person')).filter((item) => String(item.name).startsWith('Early')))
      await db.send(
        new UpdateCommand({
          TableName: process.env.TABLE_NAME,
          Key: keys.person(String(person.ownerId), String(person.id)),
          UpdateExpression: 'SET timelineFaceCount = :stray REMOVE timelineCounted',
          ExpressionAttributeValues: { ':stray': 7 },
        }),
      );
    expect(await peopleV3(plain)).toMatchObject({ total: 1, people: [{ name: 'Early Both' }] });
    const stored = (await tableItems('person')).filter((item) => String(item.name).startsWith('Early'));
    expect(stored.map((item) => [item.name, item.timelineFaceCount, item.timelineCounted]).sort()).toEqual([
      ['Early Bird', 0, true],
      ['Early Both', 1, true],
    ]);
  });
});
