import { beforeAll, describe, expect, it } from 'vitest';
import { handler as addUsersHandler } from '#functions/album/add-users-to-album.ts';
import { handler as deleteAlbumHandler } from '#functions/album/delete-album.ts';
import { handler as getAllAlbumsV1 } from '#functions/album/get-all-albums.ts';
import { handler as removeUserHandler } from '#functions/album/remove-user-from-album.ts';
import { handler as createPartnerHandler } from '#functions/partner/create-partner.ts';
import { handler as restoreAssetsHandler } from '#functions/trash/restore-assets.ts';
import { handler as getAllAlbumsV3 } from '#functions/v3/album/get-all-albums.ts';
import { handler as updateAssetV3 } from '#functions/v3/asset/update-asset.ts';
import * as albumRepo from '#shared/db/album.repository.ts';
import * as keys from '#shared/db/item-keys.ts';
import * as albumWrites from '#shared/db/items/album-writes.ts';
import * as partitions from '#shared/db/partitions.ts';
import { queryAll } from '#shared/db/query.ts';
import { tryWriteOne } from '#shared/db/transact.ts';
import { summarize } from '#shared/model/album.ts';
import { seenByOthers } from '#shared/model/asset.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, addToAlbum, createAlbum, removeFromAlbum, trash } from '../support/library.ts';
import { recordRoundTrips } from '../support/round-trips.ts';
import { SyncClient } from '../support/sync-client.ts';
import { upload } from '../support/uploads.ts';

/**
 * Album summaries (docs/data-model.md, "Album summaries"): GET /album and GET /albums answer each
 * album's assetCount, startDate and endDate from a summary kept with a change marker, never from
 * every entry; the answers stay exactly those the entries give (the computation the lists made
 * before, re-done here from the entries read directly), and a sync that finds nothing reads no
 * album's entries, users or deletions.
 */
let accounts: Awaited<ReturnType<typeof setupAccounts>>;

beforeAll(async () => {
  accounts = await setupAccounts();
});

const listV3 = (token: string, query: Record<string, string> = {}) =>
  invoke(getAllAlbumsV3, { path: '/api/albums', query, headers: bearer(token) });
const listV1 = (token: string, query: Record<string, string> = {}) =>
  invoke(getAllAlbumsV1, { path: '/api/album', query, headers: bearer(token) });
const putV3 = (token: string, id: string, body: unknown) =>
  invoke(updateAssetV3, { method: 'PUT', path: `/api/assets/${id}`, headers: bearer(token), pathParameters: { id }, body });
const restore = (token: string, ids: string[]) =>
  invoke(restoreAssetsHandler, { method: 'POST', path: '/api/trash/restore/assets', headers: bearer(token), body: { ids } });
const share = (token: string, albumId: string, userIds: string[]) =>
  invoke(addUsersHandler, {
    method: 'PUT',
    path: `/api/album/${albumId}/users`,
    pathParameters: { id: albumId },
    headers: bearer(token),
    body: { sharedUserIds: userIds },
  });

/** What the lists answered before summaries, from every entry of the album read from the table. */
const fromEntries = async (albumId: string) => {
  const live = (await queryAll(partitions.albumAssets(albumId))).filter((entry) =>
    seenByOthers({ deletedAt: (entry.deletedAt as string | null | undefined) ?? null, visibility: entry.visibility as never }),
  );
  const v1 = live.map((entry) => String(entry.fileCreatedAt)).sort();
  const v3 = live.map((entry) => String(entry.localDateTime ?? entry.fileCreatedAt)).sort();
  return {
    v1: { assetCount: live.length, startDate: v1[0], endDate: v1.at(-1) },
    v3: { assetCount: live.length, startDate: v3[0], endDate: v3.at(-1) },
  };
};

const summaryOf = (album: { assetCount: number; startDate?: string; endDate?: string }) => ({
  assetCount: album.assetCount,
  startDate: album.startDate,
  endDate: album.endDate,
});

/** Every listing of these users (v3's, v1.100's, v1.100's `shared=true` and `shared=false`) against the entries. */
const expectListsTrue = async (tokens: string[], step: string) => {
  for (const token of tokens) {
    for (const [generation, reply] of [
      ['v3', await listV3(token)],
      ['v1', await listV1(token)],
      ['v1', await listV1(token, { shared: 'true' })],
      ['v1', await listV1(token, { shared: 'false' })],
    ] as const) {
      expect(reply.status, step).toBe(200);
      for (const album of reply.body as { id: string; assetCount: number; startDate?: string; endDate?: string }[]) {
        const expected = (await fromEntries(album.id))[generation];
        expect(summaryOf(album), `${step}: ${generation} ${album.id}`).toEqual(expected);
      }
    }
  }
};

describe('GET /albums with album summaries', () => {
  it('answers the counts and dates the entries give, for owner, shared user and partner, through every kind of change', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'SummaryOwner');
    const member = await freshUser(accounts.admin.accessToken, 'SummaryMember');
    const partner = await freshUser(accounts.admin.accessToken, 'SummaryPartner');
    await invoke(createPartnerHandler, {
      method: 'POST',
      path: `/api/partner/${owner.id}`,
      pathParameters: { id: owner.id },
      headers: bearer(partner.accessToken),
    });
    const day = (d: number) => new Date(Date.UTC(2023, 4, d, 10));
    const [a, b, c, d] = [
      await addPhoto(owner.accessToken, { color: [200, 10, 10] }, day(1)),
      await addPhoto(owner.accessToken, { color: [10, 200, 10] }, day(5)),
      await addPhoto(owner.accessToken, { color: [10, 10, 200] }, day(9)),
      await addPhoto(owner.accessToken, { color: [90, 90, 10] }, day(20)),
    ] as [string, string, string, string];
    const partnerPhoto = await addPhoto(partner.accessToken, { color: [10, 90, 90] }, day(25));
    const memberPhoto = await addPhoto(member.accessToken, { color: [90, 10, 90] }, day(2));
    // A hidden asset (a live photo's video half, as a phone uploads it).
    const hidden = await (async () => {
      const { makeJpeg } = await import('../support/photos.ts');
      const { cliFields } = await import('../support/uploads.ts');
      const data = makeJpeg({ comment: `hidden-${Math.random()}` });
      const reply = await upload(owner.accessToken, { data, fields: { ...cliFields('h.jpg', data.length, day(28)), isVisible: 'false' } });
      return reply.body.id as string;
    })();

    // One photo in many albums; an empty album; one shared; partner's photo in one.
    const first = (await createAlbum(owner.accessToken, { albumName: 'First', assetIds: [a, b, c] })).id as string;
    const second = (await createAlbum(owner.accessToken, { albumName: 'Second', assetIds: [a, d, partnerPhoto] })).id as string;
    const empty = (await createAlbum(owner.accessToken, { albumName: 'Empty' })).id as string;
    const third = (await createAlbum(owner.accessToken, { albumName: 'Third', assetIds: [a, hidden] })).id as string;
    expect((await share(owner.accessToken, first, [member.id])).status).toBe(200);
    const tokens = [owner.accessToken, member.accessToken];
    await expectListsTrue(tokens, 'created');
    // The shared user adds their own photo.
    expect((await addToAlbum(member.accessToken, first, [memberPhoto])).body[0].success).toBe(true);
    await expectListsTrue(tokens, 'member added');
    // Trashed, then restored.
    expect((await trash(owner.accessToken, [a])).status).toBe(204);
    await expectListsTrue(tokens, 'trashed');
    expect((await listV3(owner.accessToken)).body.find((album: { id: string }) => album.id === second).assetCount).toBe(2);
    expect((await restore(owner.accessToken, [a])).status).toBe(204);
    await expectListsTrue(tokens, 'restored');
    // Its date changed; archived; into the locked folder (it leaves its albums).
    expect((await putV3(owner.accessToken, b, { dateTimeOriginal: '2021-02-03T04:05:06.000Z' })).status).toBe(200);
    await expectListsTrue(tokens, 'date changed');
    expect((await putV3(owner.accessToken, c, { visibility: 'archive' })).status).toBe(200);
    await expectListsTrue(tokens, 'archived');
    expect((await putV3(owner.accessToken, d, { visibility: 'locked' })).status).toBe(200);
    await expectListsTrue(tokens, 'locked');
    // The partner trashes theirs; removed from an album; deleted for good.
    expect((await trash(partner.accessToken, [partnerPhoto])).status).toBe(204);
    await expectListsTrue(tokens, 'partner trashed');
    expect((await removeFromAlbum(owner.accessToken, first, [b])).body[0].success).toBe(true);
    await expectListsTrue(tokens, 'removed');
    expect((await trash(owner.accessToken, [a], true)).status).toBe(204);
    await expectListsTrue(tokens, 'deleted for good');
    // Unshared: the member no longer lists it; deleted: no one does.
    expect(
      (
        await invoke(removeUserHandler, {
          method: 'DELETE',
          path: `/api/album/${first}/user/${member.id}`,
          pathParameters: { id: first, userId: member.id },
          headers: bearer(owner.accessToken),
        })
      ).status,
    ).toBe(200);
    await expectListsTrue(tokens, 'unshared');
    expect(
      (
        await invoke(deleteAlbumHandler, {
          method: 'DELETE',
          path: `/api/album/${third}`,
          pathParameters: { id: third },
          headers: bearer(owner.accessToken),
        })
      ).status,
    ).toBe(200);
    await expectListsTrue(tokens, 'album deleted');
    const listed = (await listV3(owner.accessToken)).body.map((album: { id: string }) => album.id).sort();
    expect(listed).toEqual([first, second, empty].sort());
    // v1.100's `assetId=` lists the albums holding a photo, with the same summaries.
    const holding = await listV1(owner.accessToken, { assetId: c });
    expect(holding.body.map((album: { id: string }) => album.id)).toEqual([first]);
    expect(summaryOf(holding.body[0])).toEqual((await fromEntries(first)).v1);
  });

  it('answers a table written before summaries (no summary item) right, and keeps the summary it computed', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'SummaryLegacy');
    const photos = [
      await addPhoto(owner.accessToken, { color: [1, 2, 3] }, new Date('2022-03-04T05:06:07.000Z')),
      await addPhoto(owner.accessToken, { color: [3, 2, 1] }, new Date('2020-01-01T00:00:00.000Z')),
    ];
    const album = (await createAlbum(owner.accessToken, { albumName: 'Old', assetIds: photos })).id as string;
    // As a table written before: no summary item.
    await albumRepo.removeSummary(album);
    expect((await albumRepo.summaryItems([album])).size).toBe(0);
    await expectListsTrue([owner.accessToken], 'before summaries');
    const kept = (await albumRepo.summaryItems([album])).get(album);
    expect(kept?.summary).toEqual(summarize(await albumRepo.listMembers(album)));
    expect(kept?.summaryId).toBe(kept?.contentId);
    // A later change is seen.
    expect((await trash(owner.accessToken, [photos[0] as string])).status).toBe(204);
    await expectListsTrue([owner.accessToken], 'after a change');
  });

  it('never keeps a summary computed before a write of the album landed: the next list computes it again', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'SummaryRace');
    const photos = [await addPhoto(owner.accessToken, { color: [5, 50, 5] }), await addPhoto(owner.accessToken, { color: [50, 5, 5] })];
    const album = (await createAlbum(owner.accessToken, { albumName: 'Race', assetIds: [photos[0]] })).id as string;
    await listV3(owner.accessToken);
    // A list reads the marker, then the entries...
    const seen = (await albumRepo.summaryItems([album])).get(album);
    const computed = summarize(await albumRepo.listMembers(album));
    // ...a write of the album lands meanwhile...
    expect((await addToAlbum(owner.accessToken, album, [photos[1]])).body[0].success).toBe(true);
    // ...so its summary, computed from the entries before it, is not kept.
    const outcome = await tryWriteOne(albumWrites.keepSummary(album, computed, seen?.contentId));
    expect(outcome).toEqual({ ok: false, reason: 'changed' });
    const listed = (await listV3(owner.accessToken)).body.find((a: { id: string }) => a.id === album);
    expect(listed.assetCount).toBe(2);
    // Nor is one computed for a table from before, once a write marked the album meanwhile.
    await albumRepo.removeSummary(album);
    await removeFromAlbum(owner.accessToken, album, [photos[1]]);
    expect(await tryWriteOne(albumWrites.keepSummary(album, computed, undefined))).toEqual({ ok: false, reason: 'changed' });
    await expectListsTrue([owner.accessToken], 'after the race');
  });

  it('ends right when writers change one album while it is listed', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'SummaryConcurrent');
    const member = await freshUser(accounts.admin.accessToken, 'SummaryConcurrentMember');
    const mine = await Promise.all(
      Array.from({ length: 6 }, (_, i) => addPhoto(owner.accessToken, { color: [i * 40, 30, 60] }, new Date(Date.UTC(2022, i, 3)))),
    );
    const theirs = await Promise.all(
      Array.from({ length: 4 }, (_, i) => addPhoto(member.accessToken, { color: [30, i * 40, 90] }, new Date(Date.UTC(2019, i, 7)))),
    );
    const album = (await createAlbum(owner.accessToken, { albumName: 'Busy', assetIds: mine.slice(0, 3) })).id as string;
    await share(owner.accessToken, album, [member.id]);
    for (let round = 0; round < 3; round++) {
      await Promise.all([
        listV3(owner.accessToken),
        addToAlbum(owner.accessToken, album, mine.slice(3 + (round % 3), 4 + (round % 3))),
        addToAlbum(member.accessToken, album, theirs.slice(round, round + 2)),
        listV1(member.accessToken),
        removeFromAlbum(owner.accessToken, album, mine.slice(round, round + 1)),
        trash(member.accessToken, theirs.slice(round + 1, round + 2)),
        listV3(member.accessToken),
        putV3(owner.accessToken, mine[(round + 2) % 6] as string, { dateTimeOriginal: `201${round}-06-07T08:09:10.000Z` }),
        listV1(owner.accessToken),
      ]);
      await expectListsTrue([owner.accessToken, member.accessToken], `round ${round}`);
    }
  });

  it('lists albums without reading their entries once their summaries are kept, and reads only a changed album again', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'SummaryReads');
    const photo = await addPhoto(owner.accessToken, { color: [70, 70, 200] });
    const albums: string[] = [];
    for (let i = 0; i < 4; i++) albums.push((await createAlbum(owner.accessToken, { albumName: `R${i}`, assetIds: [photo] })).id as string);
    await listV3(owner.accessToken);
    const entryQueries = async (fn: () => Promise<unknown>) =>
      (await recordRoundTrips(fn)).filter(
        (call) => call.command === 'QueryCommand' && String(call.input.ExpressionAttributeValues?.[':pk']).startsWith('ALBUM#'),
      ).length;
    expect(await entryQueries(() => listV3(owner.accessToken))).toBe(0);
    expect(await entryQueries(() => listV1(owner.accessToken))).toBe(0);
    await removeFromAlbum(owner.accessToken, albums[0] as string, [photo]);
    expect(await entryQueries(() => listV3(owner.accessToken))).toBe(1);
    expect(await entryQueries(() => listV3(owner.accessToken))).toBe(0);
    await expectListsTrue([owner.accessToken], 'read');
    // The summary item is the album's: deleting the album deletes it.
    await invoke(deleteAlbumHandler, {
      method: 'DELETE',
      path: `/api/album/${albums[1]}`,
      pathParameters: { id: albums[1] as string },
      headers: bearer(owner.accessToken),
    });
    expect((await albumRepo.summaryItems([albums[1] as string])).size).toBe(0);
    expect(keys.albumSummary(albums[1] as string).pk).toBe(`ALBUM#${albums[1]}`);
  });
});

describe('a sync that finds nothing, with album markers', () => {
  it('reads none of an unchanged album, as many albums as there are; a change is still sent', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'SyncAlbumsOwner');
    const member = await freshUser(accounts.admin.accessToken, 'SyncAlbumsMember');
    const photo = await addPhoto(owner.accessToken, { color: [120, 20, 220] });
    const albums: string[] = [];
    for (let i = 0; i < 3; i++) albums.push((await createAlbum(owner.accessToken, { albumName: `S${i}`, assetIds: [photo] })).id as string);
    await share(owner.accessToken, albums[0] as string, [member.id]);
    const app = new SyncClient(member.accessToken);
    const ownerApp = new SyncClient(owner.accessToken);
    await app.sync();
    await ownerApp.sync();
    expect(app.albumAssets.size).toBe(1);

    // Nothing new: no album partition is read (the same for one album as for three).
    const quiet = async (client: SyncClient) =>
      (await recordRoundTrips(() => client.sync())).filter(
        (call) => call.command === 'QueryCommand' && String(call.input.ExpressionAttributeValues?.[':pk']).includes('ALBUM#'),
      ).length;
    expect(await quiet(app)).toBe(0);
    expect(await quiet(ownerApp)).toBe(0);

    // A change in a shared album (the member adds a photo) is sent to the owner's app, and only that album is read.
    const memberPhoto = await addPhoto(member.accessToken, { color: [20, 220, 120] });
    expect((await addToAlbum(member.accessToken, albums[0] as string, [memberPhoto])).body[0].success).toBe(true);
    const read = await quiet(ownerApp);
    expect(read).toBeGreaterThan(0);
    expect(ownerApp.albumAssets.size).toBe(4);
    expect([...ownerApp.albumAssets.values()].some((entry) => entry.assetId === memberPhoto)).toBe(true);
    // Removed, and shared with no one any more: the member's app drops it.
    await removeFromAlbum(owner.accessToken, albums[0] as string, [photo]);
    await app.sync();
    expect([...app.albumAssets.values()].map((entry) => entry.assetId)).toEqual([memberPhoto]);
    await invoke(removeUserHandler, {
      method: 'DELETE',
      path: `/api/album/${albums[0]}/user/${member.id}`,
      pathParameters: { id: albums[0] as string, userId: member.id },
      headers: bearer(owner.accessToken),
    });
    await app.sync();
    expect(app.albums.size).toBe(0);
    expect(await quiet(app)).toBe(0);
  });
});
