import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteAlbumHandler } from '#functions/album/delete-album.ts';
import { handler as getAllAssetsHandler } from '#functions/asset/get-all-assets.ts';
import { handler as getAuditDeletesHandler } from '#functions/audit/get-audit-deletes.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, assetInfo, createAlbum, trash, updateAsset } from '../support/library.ts';
import { objectCreated, turnOffMl } from '../support/media.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
let token: string;
beforeAll(async () => {
  accounts = await setupAccounts();
  // Not about OCR or duplicates or faces: off, as each photo's cost (test/support/ml-tasks.ts).
  await turnOffMl(accounts.admin.accessToken, ['facialRecognition', 'ocr', 'duplicateDetection']);
  token = (await freshUser(accounts.admin.accessToken, `Sync${Date.now()}`)).accessToken;
});

const allAssets = (who: string, query: Record<string, string> = {}) =>
  invoke(getAllAssetsHandler, { path: '/api/asset', query, headers: bearer(who) });
const deletes = (who: string, query: Record<string, string>) =>
  invoke(getAuditDeletesHandler, { path: '/api/audit/deletes', query, headers: bearer(who) });
const ids = (reply: { body: { id: string }[] }) => reply.body.map((asset) => asset.id);
/** Index writes show within a second; a delta sync is asked after that, as an app's would be. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1100));
/** A delta sync also sends what changed in the 5 s before `updatedAfter` (the index's lag, shared/services/sync/sync.service.ts). */
const pastLagWindow = () => new Promise((resolve) => setTimeout(resolve, 5100));

describe('GET /asset and GET /audit/deletes (the mobile app sync)', () => {
  it('a full sync in chunks, then a delta sync that reads only what changed and what was deleted', async () => {
    const taken = (day: number) => addPhoto(token, { dateTimeOriginal: `2022:01:0${day} 10:00:00`, offsetTimeOriginal: '+00:00' });
    const [a, b, c, d] = [await taken(1), await taken(2), await taken(3), await taken(4)];
    const hidden = await addPhoto(token, {});
    expect((await updateAsset(token, hidden, { isArchived: true })).status).toBe(200);
    expect((await trash(token, [c])).status).toBe(204);
    const started = new Date().toISOString();

    // Newest taken first, trashed included, in chunks (the app asks 10,000 at a time).
    const everything = await allAssets(token, { updatedBefore: started });
    expect(everything.status).toBe(200);
    expect(ids(everything)).toEqual([hidden, d, c, b, a]);
    expect(everything.body[2]).toMatchObject({ id: c, isTrashed: true, exifInfo: { make: null }, tags: [] });
    expect(ids(await allAssets(token, { updatedBefore: started, skip: '1', take: '2' }))).toEqual([d, c]);
    expect(ids(await allAssets(token, { updatedBefore: started, skip: '4', take: '2' }))).toEqual([a]);
    expect(ids(await allAssets(token, { isArchived: 'true' }))).toEqual([hidden]);
    expect(ids(await allAssets(token, { isFavorite: 'true' }))).toEqual([]);
    // Assets changed after the sync started are left for the next delta.
    await pastLagWindow();
    const since = new Date().toISOString();
    expect((await updateAsset(token, a, { isFavorite: true })).status).toBe(200);
    expect((await trash(token, [b], true)).status).toBe(204);
    expect(ids(await allAssets(token, { updatedBefore: started }))).not.toContain(a);

    await settle();
    const delta = await allAssets(token, { userId: (await assetInfo(token, a)).body.ownerId, updatedAfter: since });
    expect(ids(delta)).toEqual([a]);
    expect(delta.body[0]).toMatchObject({ isFavorite: true });
    expect((await deletes(token, { after: since, entityType: 'ASSET' })).body).toEqual({ needsFullSync: false, ids: [b] });
    expect((await deletes(token, { after: new Date().toISOString(), entityType: 'ASSET' })).body).toEqual({
      needsFullSync: false,
      ids: [],
    });
    // Older than Immich keeps its audit (100 days): the app must sync in full.
    expect((await deletes(token, { after: new Date(Date.now() - 101 * 86_400_000).toISOString(), entityType: 'ASSET' })).body).toEqual({
      needsFullSync: true,
      ids: [b],
    });
  });

  it('previews made after an upload reach a delta sync (their thumbhash)', async () => {
    const id = await addPhoto(token, { width: 64, height: 48 });
    await pastLagWindow();
    const since = new Date().toISOString();
    await objectCreated((await assetInfo(token, id)).body.originalPath);
    await settle();
    const delta = await allAssets(token, { updatedAfter: since });
    expect(ids(delta)).toEqual([id]);
    expect(delta.body[0]).toMatchObject({ resized: true, thumbhash: expect.any(String) });
  });

  it('records album deletions', async () => {
    const since = new Date().toISOString();
    const album = await createAlbum(token, { albumName: 'gone' });
    expect(
      (
        await invoke(deleteAlbumHandler, {
          method: 'DELETE',
          path: `/api/album/${album.id}`,
          headers: bearer(token),
          pathParameters: { id: album.id },
        })
      ).status,
    ).toBe(200);
    expect((await deletes(token, { after: since, entityType: 'ALBUM' })).body).toEqual({ needsFullSync: false, ids: [album.id] });
    expect((await deletes(token, { after: since, entityType: 'ASSET' })).body.ids).toEqual([]);
  });

  it("never shows another user's assets or deletions", async () => {
    const other = accounts.user2;
    const theirs = await addPhoto(other.accessToken, {});
    const since = new Date(Date.now() - 60_000).toISOString();
    expect((await trash(other.accessToken, [theirs], true)).status).toBe(204);
    expect((await allAssets(token, { userId: other.userId })).body).toMatchObject({
      statusCode: 400,
      message: 'Not found or no timeline.read access',
    });
    expect((await deletes(token, { after: since, entityType: 'ASSET', userId: other.userId })).body).toMatchObject({
      statusCode: 400,
      message: 'Not found or no timeline.read access',
    });
    expect((await deletes(token, { after: since, entityType: 'ASSET' })).body.ids).not.toContain(theirs);
    expect(ids(await allAssets(token))).not.toContain(theirs);
  });

  it('validates as Immich', async () => {
    expect((await deletes(token, {})).body.message).toEqual([
      'after must be a Date instance',
      'after should not be empty',
      'entityType must be one of the following values: ASSET, ALBUM',
    ]);
    expect((await deletes(token, { after: 'yesterday', entityType: 'ASSET' })).body).toMatchObject({
      statusCode: 400,
      message: 'after must be a date string',
    });
    expect((await allAssets(token, { updatedAfter: 'soon' })).body).toMatchObject({
      statusCode: 400,
      message: 'updatedAfter must be a date string',
    });
    expect((await allAssets(token, { skip: 'x', take: '1.5', userId: 'me' })).body.message).toEqual([
      'skip must be an integer number',
      'take must be an integer number',
      'userId must be a UUID',
    ]);
  });
});
