import * as v3 from '@immich/sdk-v3';
import { beforeAll, describe, expect, it } from 'vitest';
import { Phone } from '../support/app-phone.ts';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg } from '../support/photos.ts';
import { useServer } from '../support/server.ts';

/**
 * A family's day with Immich's mobile app 3.x, on both targets (`npm start`, and the template as
 * deployed): each person's phone is the app as it behaves (./support/app-phone.ts: the session
 * cookie, the sync applied in whole batches into the app's tables with their foreign keys, a
 * failed sync failing the test), and after every step each phone shows what the REST API says.
 */
describe('a day in the life of the mobile app', () => {
  const server = useServer();
  const password = 'family-password';
  let admin: { baseUrl: string; headers: Record<string, string> };
  let ana: Phone;
  let ben: Phone;
  let cy: Phone;
  /** Every asset the test made, whoever owns it: each phone is checked against REST for all of them. */
  const everyAsset: string[] = [];
  const photo = (name: string, color: [number, number, number], takenAt: string) => ({
    name,
    takenAt,
    data: makeJpeg({
      color,
      width: 64,
      height: 48,
      comment: name,
      dateTimeOriginal: takenAt.slice(0, 19).replaceAll('-', ':').replace('T', ' '),
    }),
  });
  const all = () => [ana, ben, cy];
  /** Every phone syncs, then shows what REST says. */
  const everyoneAgrees = async (phones: Phone[] = all()) => {
    for (const phone of phones) {
      await phone.sync();
      await phone.matchesRest(everyAsset);
    }
  };

  beforeAll(async () => {
    const { baseUrl } = server;
    await v3.signUpAdmin({ signUpDto: { email: 'admin@family.example', password, name: 'Admin' } }, { baseUrl });
    const session = await v3.login({ loginCredentialDto: { email: 'admin@family.example', password } }, { baseUrl });
    admin = { baseUrl, headers: { Authorization: `Bearer ${session.accessToken}` } };
    // What the phones show is what this file is about: none of the uploads' machine learning.
    await turnOffMlTasks(admin, ['facialRecognition', 'ocr', 'duplicateDetection']);
    for (const name of ['ana', 'ben', 'cy'])
      await v3.createUserAdmin(
        { userAdminCreateDto: { email: `${name}@family.example`, password, name, shouldChangePassword: false } },
        admin,
      );
    ana = await Phone.signIn(baseUrl, 'ana@family.example', password);
    ben = await Phone.signIn(baseUrl, 'ben@family.example', password);
    cy = await Phone.signIn(baseUrl, 'cy@family.example', password);
  });

  it('installs fresh: the first sync holds the user and everyone else, and nothing breaks it', async () => {
    await everyoneAgrees();
    expect(ana.client.authUser).toMatchObject({ id: ana.userId, email: 'ana@family.example' });
    expect([...ana.client.users.keys()].sort()).toEqual(expect.arrayContaining([ana.userId, ben.userId, cy.userId]));
  });

  it('backs up the new photos the server lacks, once, and shows them after the next sync', async () => {
    const camera = [
      photo('IMG_0001.jpg', [200, 30, 30], '2024-07-01T09:00:00.000Z'),
      photo('IMG_0002.jpg', [30, 200, 30], '2024-07-01T10:00:00.000Z'),
      photo('IMG_0003.jpg', [30, 30, 200], '2024-07-02T11:00:00.000Z'),
      photo('IMG_0004.jpg', [200, 200, 30], '2024-07-03T12:00:00.000Z'),
      photo('IMG_0005.jpg', [200, 30, 200], '2024-12-24T18:00:00.000Z'),
    ];
    // Ana's app is open: its socket tells it of each photo once the server has made its previews.
    const socket = ana.listen(server.origin);
    await socket.connected();
    const first = await ana.backUp(camera);
    expect([...first.keys()].sort()).toEqual(camera.map((shot) => shot.name));
    everyAsset.push(...first.values());
    // Shown as backed up before any sync, from the socket's AssetUploadReadyV2 alone.
    await socket.applyUploadsReady([...first.values()]);
    for (const id of first.values())
      expect(ana.client.assets.get(id)).toMatchObject({ id, ownerId: ana.userId, thumbhash: expect.any(String) });
    socket.close();
    // The next backup run finds them all on the server: nothing is sent again.
    expect((await ana.backUp(camera)).size).toBe(0);
    const bens = await ben.backUp([
      photo('PXL_1.jpg', [90, 90, 90], '2024-07-01T09:30:00.000Z'),
      photo('PXL_2.jpg', [60, 120, 180], '2024-07-02T14:00:00.000Z'),
    ]);
    everyAsset.push(...bens.values());
    const cys = await cy.backUp([photo('cy-1.jpg', [10, 10, 10], '2024-12-24T19:00:00.000Z')]);
    everyAsset.push(...cys.values());
    await everyoneAgrees();
    for (const id of first.values()) expect(ana.client.exifs.get(id)).toBeDefined();
  });

  it('shares albums both ways, with one photo in several albums and members adding their own', async () => {
    const [a1, a2, a3, a4, a5] = everyAsset as [string, string, string, string, string];
    const [b1, b2, c1] = everyAsset.slice(5) as [string, string, string];
    const trip = await v3.createAlbum({ createAlbumDto: { albumName: 'Trip', assetIds: [a1, a2, a3, a4] } }, ana.sdk);
    const favourites = await v3.createAlbum({ createAlbumDto: { albumName: 'Favourites of 2024', assetIds: [a1, a2, a5] } }, ana.sdk);
    await v3.addUsersToAlbum(
      { id: trip.id, addUsersDto: { albumUsers: [{ userId: ben.userId, role: v3.AlbumUserRole.Editor }] } },
      ana.sdk,
    );
    await v3.addUsersToAlbum(
      { id: favourites.id, addUsersDto: { albumUsers: [{ userId: cy.userId, role: v3.AlbumUserRole.Editor }] } },
      ana.sdk,
    );
    // Ben adds his own to Ana's trip, and shares an album of his with her that also holds her photo.
    await v3.addAssetsToAlbum({ id: trip.id, bulkIdsDto: { ids: [b1] } }, ben.sdk);
    await v3.addAssetsToAlbum({ id: favourites.id, bulkIdsDto: { ids: [c1] } }, cy.sdk);
    const bensAlbum = await v3.createAlbum(
      { createAlbumDto: { albumName: "Ben's", assetIds: [b1, b2], albumUsers: [{ userId: ana.userId, role: v3.AlbumUserRole.Editor }] } },
      ben.sdk,
    );
    const added = await v3.addAssetsToAlbum({ id: bensAlbum.id, bulkIdsDto: { ids: [a1] } }, ana.sdk);
    expect(added).toEqual([{ id: a1, success: true }]);
    await everyoneAgrees();
    // Ana's first photo is in three albums (two of hers, one of Ben's): her app holds it once, in each.
    expect(
      [...ana.client.albumAssets.values()]
        .filter((entry) => entry.assetId === a1)
        .map((entry) => entry.albumId)
        .sort(),
    ).toEqual([trip.id, favourites.id, bensAlbum.id].sort());
    expect(
      [...ben.client.albumAssets.values()]
        .filter((entry) => entry.assetId === a1)
        .map((entry) => entry.albumId)
        .sort(),
    ).toEqual([trip.id, bensAlbum.id].sort());
  });

  it('shares a library with a partner, in the timeline', async () => {
    await v3.createPartner({ partnerCreateDto: { sharedWithId: ana.userId } }, ben.sdk);
    await v3.updatePartner({ id: ben.userId, partnerUpdateDto: { inTimeline: true } }, ana.sdk);
    // Cy shares hers with Ana too, and an album of her own.
    await v3.createPartner({ partnerCreateDto: { sharedWithId: ana.userId } }, cy.sdk);
    const [c1] = everyAsset.slice(7) as [string];
    await v3.createAlbum(
      { createAlbumDto: { albumName: 'Christmas', assetIds: [c1], albumUsers: [{ userId: ana.userId, role: v3.AlbumUserRole.Editor }] } },
      cy.sdk,
    );
    await everyoneAgrees();
    expect([...ana.client.partners.values()]).toEqual(
      expect.arrayContaining([expect.objectContaining({ sharedById: ben.userId, sharedWithId: ana.userId, inTimeline: true })]),
    );
    // Ben's whole library is on Ana's phone.
    for (const id of everyAsset.slice(5, 7)) expect(ana.client.assets.get(id)).toMatchObject({ ownerId: ben.userId });
  });

  it("signs in the home-screen widget and Google Cast with the phone's session (`?sessionKey=`)", async () => {
    const trip = (await v3.getAllAlbums({}, ana.sdk)).find((album) => album.albumName === 'Trip');
    const random = await fetch(`${server.baseUrl}/search/random?sessionKey=${ana.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'IMAGE', size: 1, albumIds: [trip?.id] }),
    });
    expect(random.status).toBe(200);
    const [pick] = (await random.json()) as { id: string }[];
    expect(everyAsset).toContain(pick?.id);
    const memories = await fetch(`${server.baseUrl}/memories?sessionKey=${ana.token}&for=${new Date().toISOString().slice(0, 10)}`);
    expect(memories.status).toBe(200);
    // Cast: a child session for the receiver, then the photo with its key.
    const cast = await v3.createSession({ sessionCreateDto: { deviceType: 'Cast', deviceOS: 'Google Cast', duration: 900 } }, ana.sdk);
    const full = await fetch(`${server.baseUrl}/assets/${pick?.id}/thumbnail?size=fullsize&edited=true&sessionKey=${cast.token}`);
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toMatch(/^image\//);
    // The widget's calls are the phone's session's too: the app's sync is unaffected.
    await everyoneAgrees([ana]);
  });

  it('favourites, archives and trashes photos: each phone follows', async () => {
    const [a1, a2, a3] = everyAsset as [string, string, string];
    await v3.updateAsset({ id: a1, updateAssetDto: { isFavorite: true } }, ana.sdk);
    await v3.updateAssets({ assetBulkUpdateDto: { ids: [a2], visibility: v3.AssetVisibility.Archive } }, ana.sdk);
    await v3.deleteAssets({ assetBulkDeleteDto: { ids: [a3] } }, ana.sdk);
    await everyoneAgrees();
    expect(ana.client.assets.get(a3)?.deletedAt).not.toBeNull();
  });

  it("moves a photo into the locked folder: it leaves the albums on every phone, and shows only in the owner's locked folder", async () => {
    const [, , , a4] = everyAsset as [string, string, string, string];
    await v3.setupPinCode({ pinCodeSetupDto: { pinCode: '123456' } }, ana.sdk);
    await v3.unlockAuthSession({ sessionUnlockDto: { pinCode: '123456' } }, ana.sdk);
    await v3.updateAssets({ assetBulkUpdateDto: { ids: [a4], visibility: v3.AssetVisibility.Locked } }, ana.sdk);
    await everyoneAgrees();
    expect(ana.client.assets.get(a4)).toMatchObject({ visibility: 'locked' });
    expect([...ben.client.albumAssets.values()].some((entry) => entry.assetId === a4)).toBe(false);
  });

  it('loses a deleted family member: their albums, their photos in others\u2019 albums and their library leave every phone', async () => {
    const cyUser = (await v3.getMyUser(cy.sdk)).id;
    await v3.deleteUserAdmin({ id: cyUser, userAdminDeleteDto: {} }, admin);
    await everyoneAgrees([ana, ben]);
    // Her album and her share are gone from Ana's phone, and nothing of hers is shown.
    expect([...ana.client.albums.values()].map((album) => album.name)).not.toContain('Christmas');
    expect([...ana.client.partners.values()].filter((partner) => partner.sharedById === cyUser)).toEqual([]);
  });
  it('a month on: the trash past its days and the deleted member are gone for good, from every phone', async () => {
    const [, , a3] = everyAsset as [string, string, string];
    const cyUser = (await v3.searchUsersAdmin({ withDeleted: true }, admin)).find((user) => user.email === 'cy@family.example')?.id;
    // The nightly tasks' tick of a night 31 days on (`trash.days` 30, `user.deleteDelay` 7).
    await server.nightly(new Date(Date.now() + 31 * 86_400_000));
    expect((await v3.searchUsersAdmin({ withDeleted: true }, admin)).map((user) => user.id)).not.toContain(cyUser);
    await everyoneAgrees([ana, ben]);
    expect(ana.client.assets.has(a3)).toBe(false);
    expect(ana.client.users.has(cyUser ?? '')).toBe(false);
    // Nothing of hers is left on Ana's phone: her photos went with her (the app's cascade).
    expect([...ana.client.assets.values()].filter((asset) => asset.ownerId === cyUser)).toEqual([]);
  });
});
