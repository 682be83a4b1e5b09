import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAssetStatisticsHandler } from '#functions/asset/get-asset-statistics.ts';
import { handler as getTimeBucketsHandler } from '#functions/asset/get-time-buckets.ts';
import { handler as addLinkAssetsHandler } from '#functions/shared-link/add-shared-link-assets.ts';
import { handler as createLinkHandler } from '#functions/shared-link/create-shared-link.ts';
import { handler as removeLinkHandler } from '#functions/shared-link/remove-shared-link.ts';
import { handler as removeLinkAssetsHandler } from '#functions/shared-link/remove-shared-link-assets.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, addToAlbum, albumInfo, createAlbum, removeFromAlbum, trash, updateAsset } from '../support/library.ts';
import { tableItems } from '../support/table-items.ts';

// Concurrent identical and overlapping writes: never a 5xx, every reported result true, and the
// stored state consistent afterwards (counts, memberships, thumbnails).

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

/** The stored truth about an album: its entries, and the album counts of the assets. */
const stored = async (albumId: string) => {
  const items = await tableItems();
  const entries = items.filter((item) => item.type === 'albumAsset' && item.albumId === albumId).map((item) => String(item.assetId));
  const assets = new Map(items.filter((item) => item.type === 'asset').map((item) => [String(item.id), item]));
  return { entries, assets };
};

describe('albums under concurrency', () => {
  it('four identical adds of one asset: one success, three duplicates, one entry, an album count of one', async () => {
    const token = accounts.user1.accessToken;
    const album = await createAlbum(token, { albumName: 'Race add' });
    const asset = await addPhoto(token, { color: [1, 100, 1] });
    const replies = await Promise.all(Array.from({ length: 4 }, () => addToAlbum(token, album.id, [asset])));
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200]);
    const results = replies.map((reply) => reply.body[0]);
    expect(results.filter((result) => result.success)).toHaveLength(1);
    expect(results.filter((result) => result.error === 'duplicate')).toHaveLength(3);
    const { entries, assets } = await stored(album.id);
    expect(entries).toEqual([asset]);
    expect(assets.get(asset)?.albumCount).toBe(1);
    expect((await albumInfo(token, album.id)).body).toMatchObject({ assetCount: 1, albumThumbnailAssetId: asset });
  });

  it('overlapping adds (51 ids, one of them also added by another request): each id reported added exactly once, all stored', async () => {
    const token = accounts.user1.accessToken;
    const album = await createAlbum(token, { albumName: 'Race overlap' });
    const ids: string[] = [];
    for (let i = 0; i < 51; i++) ids.push(await addPhoto(token, { color: [i, 2, 200] }));
    const last = ids.at(-1) ?? '';
    const [a, b] = await Promise.all([addToAlbum(token, album.id, ids), addToAlbum(token, album.id, [last])]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const successes = [...a.body, ...b.body].filter((result) => result.success).map((result) => result.id);
    expect(successes.sort()).toEqual([...ids].sort());
    const { entries, assets } = await stored(album.id);
    expect(entries.sort()).toEqual([...ids].sort());
    for (const id of ids) expect(assets.get(id)?.albumCount).toBe(1);
  });

  it('identical removes: one success, the rest not_found, the count back to zero', async () => {
    const token = accounts.user1.accessToken;
    const asset = await addPhoto(token, { color: [3, 3, 210] });
    const album = await createAlbum(token, { albumName: 'Race remove', assetIds: [asset] });
    const replies = await Promise.all(Array.from({ length: 4 }, () => removeFromAlbum(token, album.id, [asset])));
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200]);
    const results = replies.map((reply) => reply.body[0]);
    expect(results.filter((result) => result.success)).toHaveLength(1);
    expect(results.filter((result) => result.error === 'not_found')).toHaveLength(3);
    const { entries, assets } = await stored(album.id);
    expect(entries).toEqual([]);
    expect(assets.get(asset)?.albumCount).toBe(0);
  });

  it('a delete for good racing an add of the same asset leaves no entry, count or thumbnail pointing at it', async () => {
    const token = accounts.user1.accessToken;
    for (let round = 0; round < 4; round++) {
      const album = await createAlbum(token, { albumName: `Race delete ${round}` });
      const asset = await addPhoto(token, { color: [round, 4, 220] });
      const [added, deleted] = await Promise.all([addToAlbum(token, album.id, [asset]), trash(token, [asset], true)]);
      expect(added.status).toBe(200);
      expect(deleted.status).toBe(204);
      const { entries, assets } = await stored(album.id);
      expect(assets.has(asset)).toBe(false);
      expect(entries).toEqual([]);
      const view = (await albumInfo(token, album.id)).body;
      expect(view).toMatchObject({ assetCount: 0, assets: [] });
      expect(view.albumThumbnailAssetId).not.toBe(asset);
    }
  });
});

describe('assets under concurrency', () => {
  it('four deletes for good of one asset all answer 204, and nothing of it remains', async () => {
    const token = accounts.user2.accessToken;
    const asset = await addPhoto(token, { color: [5, 5, 230], mwgFaces: [{ name: 'Racer', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] });
    const replies = await Promise.all(Array.from({ length: 4 }, () => trash(token, [asset], true)));
    expect(replies.map((reply) => reply.status)).toEqual([204, 204, 204, 204]);
    const left = (await tableItems()).filter((item) => item.assetId === asset || item.id === asset);
    // Only the deletion the sync stream sends (docs/data-model.md), once.
    expect(left.filter((item) => item.type !== 'deletion')).toEqual([]);
    expect(left.filter((item) => item.type === 'deletion').map((item) => String(item.pk).split('#').at(-1))).toEqual(['ASSET']);
    const racer = (await tableItems('person')).find((item) => item.name === 'Racer');
    expect(racer?.faceCount).toBe(0);
  });

  it('ten pairs of concurrent favourite / unfavourite (and archive / unarchive) leave the counters on the asset as stored', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Flip${Date.now()}`)).accessToken;
    const asset = await addPhoto(token, { color: [7, 7, 220] });
    const count = async (query: Record<string, string>) => {
      const reply = await invoke(getTimeBucketsHandler, {
        path: '/api/asset/time-buckets',
        query: { size: 'MONTH', ...query },
        headers: bearer(token),
      });
      return (reply.body as { count: number }[]).reduce((sum, bucket) => sum + bucket.count, 0);
    };
    for (const field of ['isFavorite', 'isArchived'] as const) {
      for (let round = 0; round < 10; round++) {
        const replies = await Promise.all([updateAsset(token, asset, { [field]: true }), updateAsset(token, asset, { [field]: false })]);
        for (const reply of replies) expect([200, 409]).toContain(reply.status);
      }
      const stored = (await tableItems('asset')).find((item) => item.id === asset);
      // The archive flag is stored as the asset's visibility (docs/data-model.md).
      const set = field === 'isArchived' ? stored?.visibility === 'archive' : stored?.isFavorite === true;
      expect(await count({ [field]: 'true' }), field).toBe(set ? 1 : 0);
      expect(await count({ [field]: 'false' }), field).toBe(set ? 0 : 1);
    }
    const stats = await invoke(getAssetStatisticsHandler, { path: '/api/asset/statistics', headers: bearer(token) });
    expect(stats.body).toEqual({ images: 1, videos: 0, total: 1 });
  });

  it('a trash racing a delete for good: both succeed, and the asset is gone', async () => {
    const token = accounts.user2.accessToken;
    const asset = await addPhoto(token, { color: [6, 6, 240] });
    const replies = await Promise.all([trash(token, [asset]), trash(token, [asset], true), trash(token, [asset])]);
    expect(replies.map((reply) => reply.status)).toEqual([204, 204, 204]);
    expect((await tableItems('asset')).some((item) => item.id === asset)).toBe(false);
  });
});

describe('shared links under concurrency', () => {
  it('eight deletes of one album link: one succeeds, the others find it gone, and the album counts it once', async () => {
    const token = accounts.user1.accessToken;
    const album = await createAlbum(token, { albumName: 'Race link' });
    const link = (
      await invoke(createLinkHandler, {
        method: 'POST',
        path: '/api/shared-link',
        headers: bearer(token),
        body: { type: 'ALBUM', albumId: album.id },
      })
    ).body;
    expect((await albumInfo(token, album.id)).body.hasSharedLink).toBe(true);
    const replies = await Promise.all(
      Array.from({ length: 8 }, () =>
        invoke(removeLinkHandler, {
          method: 'DELETE',
          path: `/api/shared-link/${link.id}`,
          headers: bearer(token),
          pathParameters: { id: link.id },
        }),
      ),
    );
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1);
    for (const reply of replies.filter((r) => r.status !== 200))
      expect(reply.body).toEqual({ message: 'Shared link not found', error: 'Bad Request', statusCode: 400 });
    const stored = (await tableItems('album')).find((item) => item.id === album.id);
    expect(stored?.sharedLinkCount).toBe(0);
    expect((await albumInfo(token, album.id)).body.hasSharedLink).toBe(false);
  });

  it('identical adds and removes of a link’s asset: each done once, the others duplicate or not_found', async () => {
    const token = accounts.user1.accessToken;
    const [first, second] = [await addPhoto(token, { color: [8, 8, 1] }), await addPhoto(token, { color: [8, 8, 2] })];
    const link = (
      await invoke(createLinkHandler, {
        method: 'POST',
        path: '/api/shared-link',
        headers: bearer(token),
        body: { type: 'INDIVIDUAL', assetIds: [first] },
      })
    ).body;
    const call = (handler: typeof addLinkAssetsHandler, method: string) =>
      invoke(handler, {
        method,
        path: `/api/shared-link/${link.id}/assets`,
        headers: bearer(token),
        pathParameters: { id: link.id },
        body: { assetIds: [second] },
      });
    const adds = await Promise.all(Array.from({ length: 4 }, () => call(addLinkAssetsHandler, 'PUT')));
    expect(adds.map((reply) => reply.status)).toEqual([200, 200, 200, 200]);
    expect(adds.map((reply) => reply.body[0].error ?? 'success').sort()).toEqual(['duplicate', 'duplicate', 'duplicate', 'success']);
    const removes = await Promise.all(Array.from({ length: 4 }, () => call(removeLinkAssetsHandler, 'DELETE')));
    expect(removes.map((reply) => reply.body[0].error ?? 'success').sort()).toEqual(['not_found', 'not_found', 'not_found', 'success']);
    const entries = (await tableItems('sharedLinkAsset')).filter((item) => item.linkId === link.id).map((item) => item.assetId);
    expect(entries).toEqual([first]);
  });
});
