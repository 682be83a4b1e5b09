import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAllAssetsHandler } from '#functions/asset/get-all-assets.ts';
import { handler as getTimeBucketHandler } from '#functions/asset/get-time-bucket.ts';
import { handler as getTimeBucketsHandler } from '#functions/asset/get-time-buckets.ts';
import { handler as createPartnerHandler } from '#functions/partner/create-partner.ts';
import { handler as getPartnersHandler } from '#functions/partner/get-partners.ts';
import { handler as removePartnerHandler } from '#functions/partner/remove-partner.ts';
import { handler as updatePartnerHandler } from '#functions/partner/update-partner.ts';
import { handler as searchMetadataHandler } from '#functions/search/search-metadata.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, addToAlbum, assetInfo, createAlbum, removeFromAlbum, trash, updateAsset } from '../support/library.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const create = (token: string, id: string) =>
  invoke(createPartnerHandler, { method: 'POST', path: `/api/partner/${id}`, headers: bearer(token), pathParameters: { id } });
const remove = (token: string, id: string) =>
  invoke(removePartnerHandler, { method: 'DELETE', path: `/api/partner/${id}`, headers: bearer(token), pathParameters: { id } });
const update = (token: string, id: string, body: unknown) =>
  invoke(updatePartnerHandler, { method: 'PUT', path: `/api/partner/${id}`, headers: bearer(token), pathParameters: { id }, body });
const list = (token: string, direction: string) =>
  invoke(getPartnersHandler, { path: '/api/partner', query: { direction }, headers: bearer(token) });
const buckets = (token: string, query: Record<string, string>) =>
  invoke(getTimeBucketsHandler, { path: '/api/asset/time-buckets', query: { size: 'MONTH', ...query }, headers: bearer(token) });
const ids = (reply: { body: { id: string }[] }) => reply.body.map((each) => each.id);

describe('partners', () => {
  it('share a library: listed both ways, read, timeline, sync and albums; inTimeline joins the timeline; removal ends it', async () => {
    const sharer = await freshUser(accounts.admin.accessToken, `Sharer${Date.now()}`);
    const partner = await freshUser(accounts.admin.accessToken, `Partner${Date.now()}`);
    const stranger = await freshUser(accounts.admin.accessToken, `Outsider${Date.now()}`);
    const theirs = await addPhoto(sharer.accessToken, { dateTimeOriginal: '2021:04:04 10:00:00', offsetTimeOriginal: '+00:00' });
    const mine = await addPhoto(partner.accessToken, { dateTimeOriginal: '2022:05:05 10:00:00', offsetTimeOriginal: '+00:00' });

    expect((await assetInfo(partner.accessToken, theirs)).status).toBe(400);
    const created = await create(sharer.accessToken, partner.userId);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: partner.userId, inTimeline: false });
    expect((await create(sharer.accessToken, partner.userId)).body).toMatchObject({ statusCode: 400, message: 'Partner already exists' });
    expect((await create(sharer.accessToken, sharer.userId)).status).toBe(400);
    expect((await create(sharer.accessToken, '00000000-0000-4000-a000-000000000000')).body.message).toBe('User not found');
    expect(ids(await list(sharer.accessToken, 'shared-by'))).toEqual([partner.userId]);
    expect(ids(await list(partner.accessToken, 'shared-with'))).toEqual([sharer.userId]);
    expect(ids(await list(partner.accessToken, 'shared-by'))).toEqual([]);

    // The partner reads the sharer's assets and timeline (not the archive), syncs it, and may put them in albums.
    expect((await assetInfo(partner.accessToken, theirs)).body).toMatchObject({ id: theirs, isFavorite: false, people: [] });
    expect((await buckets(partner.accessToken, { userId: sharer.userId, isArchived: 'false' })).body).toEqual([
      { timeBucket: '2021-04-01T00:00:00.000Z', count: 1 },
    ]);
    expect((await buckets(partner.accessToken, { userId: sharer.userId })).body).toMatchObject({
      message: 'Not found or no archive.read access',
    });
    const synced = await invoke(getAllAssetsHandler, {
      path: '/api/asset',
      query: { userId: sharer.userId },
      headers: bearer(partner.accessToken),
    });
    expect(ids(synced)).toEqual([theirs]);
    const album = await createAlbum(partner.accessToken, { albumName: 'ours' });
    expect((await addToAlbum(partner.accessToken, album.id, [theirs])).body).toEqual([{ id: theirs, success: true }]);

    // withPartners: only once the partner chose to have them in the timeline.
    const timeline = { withPartners: 'true', isArchived: 'false' };
    expect((await buckets(partner.accessToken, timeline)).body).toEqual([{ timeBucket: '2022-05-01T00:00:00.000Z', count: 1 }]);
    expect((await update(stranger.accessToken, sharer.userId, { inTimeline: true })).body).toMatchObject({
      statusCode: 400,
      message: 'Not found or no partner.update access',
    });
    expect((await update(partner.accessToken, sharer.userId, { inTimeline: true })).body).toMatchObject({
      id: sharer.userId,
      inTimeline: true,
    });
    expect((await buckets(partner.accessToken, timeline)).body).toEqual([
      { timeBucket: '2022-05-01T00:00:00.000Z', count: 1 },
      { timeBucket: '2021-04-01T00:00:00.000Z', count: 1 },
    ]);
    const april = await invoke(getTimeBucketHandler, {
      path: '/api/asset/time-bucket',
      query: { size: 'MONTH', timeBucket: '2021-04-01T00:00:00.000Z', ...timeline },
      headers: bearer(partner.accessToken),
    });
    expect(ids(april)).toEqual([theirs]);
    expect(
      ids(
        await invoke(getTimeBucketHandler, {
          path: '/api/asset/time-bucket',
          query: { size: 'MONTH', timeBucket: '2022-05-01T00:00:00.000Z', ...timeline },
          headers: bearer(sharer.accessToken),
        }),
      ),
    ).toEqual([]);

    // A stranger sees nothing; the sharer's own timeline has none of the partner's photos.
    expect((await assetInfo(stranger.accessToken, theirs)).status).toBe(400);
    expect((await buckets(stranger.accessToken, { userId: sharer.userId, isArchived: 'false' })).body).toMatchObject({
      message: 'Not found or no timeline.read access',
    });
    expect((await assetInfo(sharer.accessToken, mine)).status).toBe(400);

    expect((await remove(sharer.accessToken, partner.userId)).status).toBe(200);
    expect((await remove(sharer.accessToken, partner.userId)).body).toMatchObject({ statusCode: 400, message: 'Partner not found' });
    // Still in the partner's own album, which its owner sees whole (as Immich). No longer a
    // partner's, it is someone else's asset there: only its owner takes it out (Immich's rule).
    expect((await assetInfo(partner.accessToken, theirs)).status).toBe(200);
    expect((await removeFromAlbum(partner.accessToken, album.id, [theirs])).body).toEqual([
      { id: theirs, success: false, error: 'no_permission' },
    ]);
    expect((await removeFromAlbum(sharer.accessToken, album.id, [theirs])).body).toMatchObject({ statusCode: 400 });
    expect((await assetInfo(partner.accessToken, theirs)).status).toBe(200);
    expect((await buckets(partner.accessToken, timeline)).body).toEqual([{ timeBucket: '2022-05-01T00:00:00.000Z', count: 1 }]);
  });
});

describe('a partner’s archive and trash', () => {
  it('stay the sharer’s: not in the partner’s sync (GET /asset?userId=) nor in their metadata search', async () => {
    const sharer = await freshUser(accounts.admin.accessToken, `Sharer${Date.now()}`);
    const partner = await freshUser(accounts.admin.accessToken, `Partner${Date.now()}`);
    expect((await create(sharer.accessToken, partner.userId)).status).toBe(201);
    expect((await update(partner.accessToken, sharer.userId, { inTimeline: true })).status).toBe(200);
    const shown = await addPhoto(sharer.accessToken, { comment: 'shown' });
    const archived = await addPhoto(sharer.accessToken, { comment: 'archived' });
    const trashed = await addPhoto(sharer.accessToken, { comment: 'trashed' });
    expect((await updateAsset(sharer.accessToken, archived, { isArchived: true })).status).toBe(200);
    expect((await trash(sharer.accessToken, [trashed])).status).toBe(204);
    const sync = (query: Record<string, string>) =>
      invoke(getAllAssetsHandler, { path: '/api/asset', query: { userId: sharer.userId, ...query }, headers: bearer(partner.accessToken) });
    expect(ids(await sync({}))).not.toContain(archived);
    expect(ids(await sync({ isArchived: 'true' }))).toEqual([]);
    const search = async (body: Record<string, unknown>) =>
      (
        await invoke(searchMetadataHandler, { method: 'POST', path: '/api/search/metadata', headers: bearer(partner.accessToken), body })
      ).body.assets.items.map((item: { id: string }) => item.id) as string[];
    expect(await search({})).toContain(shown);
    for (const body of [
      {},
      { isArchived: true },
      { withArchived: true },
      { withDeleted: true },
      { trashedAfter: '2000-01-01T00:00:00.000Z' },
    ]) {
      const found = await search(body);
      expect(found, JSON.stringify(body)).not.toContain(archived);
      expect(found, JSON.stringify(body)).not.toContain(trashed);
    }
    // The sharer's own search still finds both.
    const own = await invoke(searchMetadataHandler, {
      method: 'POST',
      path: '/api/search/metadata',
      headers: bearer(sharer.accessToken),
      body: { withArchived: true, withDeleted: true },
    });
    expect(own.body.assets.items.map((item: { id: string }) => item.id)).toEqual(expect.arrayContaining([archived, trashed, shown]));
  });
});
