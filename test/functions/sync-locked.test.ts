import { beforeAll, describe, expect, it } from 'vitest';
import { handler as addAssetsToAlbum } from '#functions/v3/album/add-assets-to-album.ts';
import { handler as getAlbumInfo } from '#functions/v3/album/get-album-info.ts';
import { handler as getAssetInfo } from '#functions/v3/asset/get-asset-info.ts';
import { handler as updateAssetHandler } from '#functions/v3/asset/update-asset.ts';
import { handler as updateAssetsHandler } from '#functions/v3/asset/update-assets.ts';
import { handler as createPartner } from '#functions/v3/partner/create-partner.ts';
import { handler as createStackHandler } from '#functions/v3/stack/create-stack.ts';
import { handler as getStackHandler } from '#functions/v3/stack/get-stack.ts';
import { bearer, freshUser, login, setupAccounts, unlockSession } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, createAlbum } from '../support/library.ts';
import { SyncClient, type SyncLine } from '../support/sync-client.ts';

// High 1 and Low 4 of issue 49: an asset moved into its owner's locked folder reaches no partner
// and no album member through the sync stream (docs/immich-compatibility.md, "The locked folder").

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const put = (token: string, id: string, body: unknown) =>
  invoke(updateAssetHandler, { method: 'PUT', path: `/api/assets/${id}`, headers: bearer(token), pathParameters: { id }, body });
const putMany = (token: string, body: unknown) =>
  invoke(updateAssetsHandler, { method: 'PUT', path: '/api/assets', headers: bearer(token), body });
const partnerWith = async (token: string, sharedWithId: string) =>
  expect(
    (await invoke(createPartner, { method: 'POST', path: '/api/partners', headers: bearer(token), body: { sharedWithId } })).status,
  ).toBe(201);
const stackOf = async (token: string, assetIds: string[]) => {
  const reply = await invoke(createStackHandler, { method: 'POST', path: '/api/stacks', headers: bearer(token), body: { assetIds } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
};
/** The owner's PIN code set and their session unlocked with it: only then may they edit a locked asset. */
const unlocked = (token: string) => unlockSession(token, '123456');
const getStack = (token: string, id: string) =>
  invoke(getStackHandler, { path: `/api/stacks/${id}`, headers: bearer(token), pathParameters: { id } });

/** The lines that name the asset anywhere in their data, as `[type, data]`. */
const naming = (lines: SyncLine[], id: string) => lines.filter((line) => JSON.stringify(line.data).includes(id)).map((line) => line.type);

const gps = { latitude: 48.8584, longitude: 2.2945, description: 'the secret one' };

describe('the sync stream and the locked folder', () => {
  it('sends a partner the deletion of an asset moved into the locked folder, nothing of it while there, and all of it once out', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'LockOwner');
    const partner = await freshUser(accounts.admin.accessToken, 'LockPartner');
    const [a, b] = [await addPhoto(owner.accessToken, { color: [10, 20, 30] }), await addPhoto(owner.accessToken, { color: [30, 20, 10] })];
    expect((await put(owner.accessToken, a, gps)).status).toBe(200);
    await unlocked(owner.accessToken);
    await partnerWith(owner.accessToken, partner.id);
    const ownSync = new SyncClient(owner.accessToken);
    const partnerSync = new SyncClient(partner.accessToken);
    await ownSync.sync();
    await partnerSync.sync();
    expect(partnerSync.exifs.get(a)).toMatchObject({ description: 'the secret one' });

    expect((await put(owner.accessToken, a, { visibility: 'locked' })).status).toBe(200);
    const lines = await partnerSync.sync();
    expect(naming(lines, a)).toEqual(['PartnerAssetDeleteV1']);
    expect(partnerSync.assets.has(a)).toBe(false);
    expect(partnerSync.exifs.has(a)).toBe(false);
    expect(partnerSync.assets.has(b)).toBe(true);
    // The owner's own apps keep it, as locked (the app's locked folder is made of these).
    await ownSync.sync();
    expect(ownSync.assets.get(a)).toMatchObject({ visibility: 'locked' });

    // Changed while locked: nothing of it goes to the partner, not even its deletion again.
    expect((await put(owner.accessToken, a, { description: 'still secret', isFavorite: true })).status).toBe(200);
    expect(naming(await partnerSync.sync(), a)).toEqual([]);
    // Nor to a partner's app that starts from nothing (a new session: its backfill and its run).
    const fresh = new SyncClient((await login({ email: partner.email, password: 'password-LockPartner' })).accessToken);
    expect(naming(await fresh.sync(), a)).toEqual([]);
    expect(fresh.assets.has(b)).toBe(true);

    // Out again: the asset and its EXIF, as they are now.
    expect((await put(owner.accessToken, a, { visibility: 'timeline' })).status).toBe(200);
    expect(naming(await partnerSync.sync(), a)).toEqual(['PartnerAssetV2', 'PartnerAssetExifV1']);
    expect(partnerSync.assets.get(a)).toMatchObject({ visibility: 'timeline', isFavorite: false });
    expect(partnerSync.exifs.get(a)).toMatchObject({ description: 'still secret' });
    expect(naming(await fresh.sync(), a)).toEqual(['PartnerAssetV2', 'PartnerAssetExifV1']);
  });

  it('sends the deletions of assets locked through PUT /assets, to partners and album members alike', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'BulkLockOwner');
    const partner = await freshUser(accounts.admin.accessToken, 'BulkLockPartner');
    const member = await freshUser(accounts.admin.accessToken, 'BulkLockMember');
    const [a, b, c] = [
      await addPhoto(owner.accessToken, { color: [1, 200, 3] }),
      await addPhoto(owner.accessToken, { color: [3, 200, 1] }),
      await addPhoto(owner.accessToken, { color: [100, 200, 3] }),
    ];
    const album = (await createAlbum(owner.accessToken, { albumName: 'Shared', assetIds: [a, b, c], sharedWithUserIds: [member.id] }))
      .id as string;
    await partnerWith(owner.accessToken, partner.id);
    const partnerSync = new SyncClient(partner.accessToken);
    const memberSync = new SyncClient(member.accessToken);
    const clients = [partnerSync, memberSync];
    for (const client of clients) await client.sync();
    for (const client of clients) expect([...client.assets.keys()].sort()).toEqual([a, b, c].sort());

    expect((await putMany(owner.accessToken, { ids: [a, b], visibility: 'locked' })).status).toBe(204);
    const partnerLines = await partnerSync.sync();
    const memberLines = await memberSync.sync();
    for (const id of [a, b]) {
      expect(naming(partnerLines, id)).toEqual(['PartnerAssetDeleteV1']);
      // The member: the asset gone from their app, and its place in the album.
      expect(naming(memberLines, id)).toEqual(['PartnerAssetDeleteV1', 'AlbumToAssetDeleteV1']);
    }
    expect(memberLines.find((line) => line.type === 'AlbumToAssetDeleteV1')?.data).toMatchObject({ albumId: album });
    for (const client of clients) expect([...client.assets.keys()]).toEqual([c]);
    expect([...memberSync.albumAssets.values()]).toEqual([{ albumId: album, assetId: c }]);
    // The album's cover, which was a locked asset, is one the member may see.
    expect(memberSync.albums.get(album)?.thumbnailAssetId).toBe(c);
  });

  it("tells a member nothing of the owner's other locked assets, and moves the cover of the member's own album off one", async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'CoverOwner');
    const member = await freshUser(accounts.admin.accessToken, 'CoverMember');
    const [inAlbum, elsewhere] = [
      await addPhoto(owner.accessToken, { color: [9, 9, 90] }),
      await addPhoto(owner.accessToken, { color: [90, 9, 9] }),
    ];
    // The member's album, shared with the owner, who adds their photo: it becomes the cover.
    const album = (await createAlbum(member.accessToken, { albumName: 'Theirs', sharedWithUserIds: [owner.id] })).id as string;
    const added = await invoke(addAssetsToAlbum, {
      method: 'PUT',
      path: `/api/albums/${album}/assets`,
      headers: bearer(owner.accessToken),
      pathParameters: { id: album },
      body: { ids: [inAlbum] },
    });
    expect(added.body).toEqual([{ id: inAlbum, success: true }]);
    const info = await invoke(getAlbumInfo, {
      path: `/api/albums/${album}`,
      headers: bearer(member.accessToken),
      pathParameters: { id: album },
    });
    expect(info.body.albumThumbnailAssetId).toBe(inAlbum);
    const memberSync = new SyncClient(member.accessToken);
    await memberSync.sync();
    expect(memberSync.albums.get(album)?.thumbnailAssetId).toBe(inAlbum);

    expect((await putMany(owner.accessToken, { ids: [inAlbum, elsewhere], visibility: 'locked' })).status).toBe(204);
    const lines = await memberSync.sync();
    expect(naming(lines, elsewhere)).toEqual([]);
    expect(memberSync.assets.has(inAlbum)).toBe(false);
    expect(memberSync.albums.get(album)?.thumbnailAssetId).toBeNull();
    const after = await invoke(getAlbumInfo, {
      path: `/api/albums/${album}`,
      headers: bearer(member.accessToken),
      pathParameters: { id: album },
    });
    expect(after.body.albumThumbnailAssetId).toBeNull();
  });

  it('takes a locked asset out of its stack: partners see the stack led by a visible asset, or gone (Low 4)', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'StackLocker');
    const partner = await freshUser(accounts.admin.accessToken, 'StackPartner');
    const [a, b, c, d, e] = [
      await addPhoto(owner.accessToken, { color: [200, 1, 1] }),
      await addPhoto(owner.accessToken, { color: [200, 1, 2] }),
      await addPhoto(owner.accessToken, { color: [200, 1, 3] }),
      await addPhoto(owner.accessToken, { color: [200, 1, 4] }),
      await addPhoto(owner.accessToken, { color: [200, 1, 5] }),
    ];
    await unlocked(owner.accessToken);
    const three = await stackOf(owner.accessToken, [a, b, c]);
    const two = await stackOf(owner.accessToken, [d, e]);
    await partnerWith(owner.accessToken, partner.id);
    const partnerSync = new SyncClient(partner.accessToken);
    await partnerSync.sync();
    expect(partnerSync.stacks.get(three)).toMatchObject({ primaryAssetId: a });

    // The primary of three locked: the next one leads; one of two locked: the stack goes.
    expect((await putMany(owner.accessToken, { ids: [a, d], visibility: 'locked' })).status).toBe(204);
    const stack = await getStack(owner.accessToken, three);
    expect(stack.body).toMatchObject({ primaryAssetId: b });
    expect(stack.body.assets.map((asset: { id: string }) => asset.id)).toEqual([b, c]);
    expect((await getStack(owner.accessToken, two)).status).toBe(400);
    const info = await invoke(getAssetInfo, { path: `/api/assets/${e}`, headers: bearer(owner.accessToken), pathParameters: { id: e } });
    expect(info.body.stack).toBeNull();

    const lines = await partnerSync.sync();
    expect(naming(lines, a)).toEqual(['PartnerAssetDeleteV1']);
    expect(partnerSync.stacks.get(three)).toMatchObject({ primaryAssetId: b });
    expect(partnerSync.stacks.has(two)).toBe(false);
    expect(partnerSync.assets.get(e)).toMatchObject({ stackId: null });
    // Out again, it stays out of the stack (as it stays out of its albums).
    expect((await put(owner.accessToken, a, { visibility: 'timeline' })).status).toBe(200);
    await partnerSync.sync();
    expect(partnerSync.assets.get(a)).toMatchObject({ stackId: null });
  });
});
