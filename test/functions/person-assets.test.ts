import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getPersonAssetsHandler } from '#functions/person/get-person-assets.ts';
import { bearer, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, personNamed, trash, updateAsset } from '../support/library.ts';
import { countRoundTrips } from '../support/round-trips.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const personAssets = (token: string, id: string) =>
  invoke(getPersonAssetsHandler, { path: `/api/person/${id}/assets`, headers: bearer(token), pathParameters: { id } });

describe('GET /person/:id/assets', () => {
  it('the assets showing the person, newest first (ties by id), with EXIF and only this person with their faces', async () => {
    const token = accounts.user1.accessToken;
    const face = (name: string, x: number) => ({ name, x, y: 0.1, w: 0.2, h: 0.2 });
    const old = await addPhoto(token, { make: 'Old', mwgFaces: [face('Dana', 0.1)] }, new Date('2020-01-01T00:00:00.000Z'));
    const both = await addPhoto(
      token,
      { make: 'Both', mwgFaces: [face('Dana', 0.1), face('Eli', 0.5), face('Dana', 0.7)] },
      new Date('2023-01-01T00:00:00.000Z'),
    );
    const tieA = await addPhoto(token, { mwgFaces: [face('Dana', 0.2)] }, new Date('2022-06-01T00:00:00.000Z'));
    const tieB = await addPhoto(token, { mwgFaces: [face('Dana', 0.3)] }, new Date('2022-06-01T00:00:00.000Z'));
    await addPhoto(token, { mwgFaces: [face('Eli', 0.1)] });
    const dana = await personNamed(token, 'Dana');

    const reply = await personAssets(token, dana.id);
    expect(reply.status).toBe(200);
    expect(reply.body.map((asset: { id: string }) => asset.id)).toEqual([both, ...[tieA, tieB].sort(), old]);
    const [first] = reply.body;
    expect(first).toMatchObject({ id: both, exifInfo: { make: 'Both' }, isFavorite: false, isArchived: false });
    expect(first.owner).toBeUndefined();
    expect(first.people).toEqual([
      {
        ...dana,
        birthDate: null,
        thumbnailPath: '',
        isHidden: false,
        // Edges floored, as Immich's (0.7 × 64 = 44.8).
        faces: [expect.objectContaining({ boundingBoxX1: 6 }), expect.objectContaining({ boundingBoxX1: 44 })],
      },
    ]);
  });

  it('drops trashed, archived and hidden assets; a restore by un-archiving brings it back', async () => {
    const token = accounts.user2.accessToken;
    const face = [{ name: 'Finn', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }];
    const kept = await addPhoto(token, { mwgFaces: face });
    const archived = await addPhoto(token, { mwgFaces: face });
    const trashed = await addPhoto(token, { mwgFaces: face });
    const alsoKept = await addPhoto(token, { mwgFaces: face });
    await (await import('../support/uploads.ts')).upload(token, {}); // unrelated
    expect((await updateAsset(token, archived, { isArchived: true })).body.isArchived).toBe(true);
    expect((await trash(token, [trashed])).status).toBe(204);
    // isVisible=false arrives with the upload (Immich's hidden live-photo parts)
    const { makeJpeg } = await import('../support/photos.ts');
    const { upload, cliFields } = await import('../support/uploads.ts');
    const data = makeJpeg({ mwgFaces: face });
    expect((await upload(token, { data, fields: { ...cliFields('h.jpg', data.length), isVisible: 'false' } })).status).toBe(201);
    const finn = await personNamed(token, 'Finn');
    expect((await personAssets(token, finn.id)).body.map((asset: { id: string }) => asset.id).sort()).toEqual([kept, alsoKept].sort());
    await updateAsset(token, archived, { isArchived: false });
    expect((await personAssets(token, finn.id)).body).toHaveLength(3);
  });

  it('another user, an unknown id: 400 Not found or no person.read access; a bad id: 400', async () => {
    await addPhoto(accounts.user1.accessToken, { mwgFaces: [{ name: 'Gus', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] });
    const gus = await personNamed(accounts.user1.accessToken, 'Gus');
    for (const [token, id] of [
      [accounts.user2.accessToken, gus.id],
      [accounts.user1.accessToken, '00000000-0000-4000-a000-000000000000'],
    ] as const) {
      const reply = await personAssets(token, id);
      expect(reply).toMatchObject({
        status: 400,
        body: { message: 'Not found or no person.read access', error: 'Bad Request', statusCode: 400 },
      });
    }
    expect((await personAssets(accounts.user1.accessToken, 'invalid-uuid')).body.message).toEqual(['id must be a UUID']);
  });

  it('is one Query on the person’s faces and one BatchGet of the assets (plus auth and the person)', async () => {
    const face = { name: 'Hal', x: 0.1, y: 0.1, w: 0.2, h: 0.2 };
    await addPhoto(accounts.user1.accessToken, { mwgFaces: [face] });
    await addPhoto(accounts.user1.accessToken, { mwgFaces: [face] });
    const hal = await personNamed(accounts.user1.accessToken, 'Hal');
    const calls = await countRoundTrips(() => personAssets(accounts.user1.accessToken, hal.id));
    expect(calls.sort()).toEqual(['BatchGetItemCommand', 'GetItemCommand', 'GetItemCommand', 'QueryCommand']);
  });
});
