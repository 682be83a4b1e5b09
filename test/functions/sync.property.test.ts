import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as addUsersHandler } from '#functions/album/add-users-to-album.ts';
import { handler as getAllAlbumsHandler } from '#functions/album/get-all-albums.ts';
import { handler as removeUserHandler } from '#functions/album/remove-user-from-album.ts';
import { handler as createPartnerHandler } from '#functions/partner/create-partner.ts';
import { handler as getPartnersHandler } from '#functions/partner/get-partners.ts';
import { handler as removePartnerHandler } from '#functions/partner/remove-partner.ts';
import { handler as getAllPeopleHandler } from '#functions/person/get-all-people.ts';
import { handler as updatePersonHandler } from '#functions/person/update-person.ts';
import { handler as restoreAssetsHandler } from '#functions/trash/restore-assets.ts';
import { handler as deleteUserHandler } from '#functions/user/delete-user.ts';
import { handler as restoreUserHandler } from '#functions/user/restore-user.ts';
import { handler as updateAssetsV3Handler } from '#functions/v3/asset/update-assets.ts';
import { handler as setupPinCodeHandler } from '#functions/v3/auth/setup-pin-code.ts';
import { handler as unlockSessionHandler } from '#functions/v3/auth/unlock-auth-session.ts';
import { handler as createStackHandler } from '#functions/v3/stack/create-stack.ts';
import { handler as deleteStackHandler } from '#functions/v3/stack/delete-stack.ts';
import { handler as searchStacksHandler } from '#functions/v3/stack/search-stacks.ts';
import { bearer, freshUser, login, signUpAdmin } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, addToAlbum, albumInfo, assetInfo, createAlbum, removeFromAlbum, trash, updateAsset } from '../support/library.ts';
import { SyncClient } from '../support/sync-client.ts';

// Property: after any sequence of uploads, favourites, archives, trashes, restores, deletes, album
// adds and removes (a photo in several albums, a member's photos in a shared album), album shares
// and unshares, partner shares and their ends, and person edits, interleaved with syncs by two
// users (some cut off after a random number of lines, then resumed by the next), each user's
// local store (the app's tables with their foreign keys, filled in the app's batches:
// support/app-store.ts) equals what the REST API says: their assets and each one's state, their
// albums and what is in them, the album's users, the partners, and their people. Every sync but
// the deliberately cut ones must succeed as the app judges it.

type User = { id: string; accessToken: string };

const who = fc.constantFrom(0, 1);
const stepArb = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('upload' as const), user: who, face: fc.constantFrom(undefined, 'Ana', 'Bo') }), weight: 3 },
  {
    arbitrary: fc.record({
      kind: fc.constantFrom('favorite', 'unfavorite', 'archive', 'unarchive', 'trash', 'restore', 'delete'),
      user: who,
      target: fc.nat(),
    }),
    weight: 4,
  },
  // Into or out of one of the four albums (two each): the same photo lands in several, and a member
  // adds their own photos to an album shared with them.
  {
    arbitrary: fc.record({
      kind: fc.constantFrom('add', 'add', 'remove'),
      user: who,
      target: fc.nat(),
      albums: fc.subarray([0, 1, 2, 3], { minLength: 1 }),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({ kind: fc.constantFrom('share', 'unshare'), user: who, album: fc.nat({ max: 1 }) }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constantFrom('partner', 'unpartner'), user: who }), weight: 1 },
  // Two of the user's photos stacked (a burst), or a stack undone.
  { arbitrary: fc.record({ kind: fc.constantFrom('stack', 'unstack'), user: who, target: fc.nat() }), weight: 1 },
  // Into the owner's locked folder (v3's visibility), or out again: no partner or album member may keep it.
  { arbitrary: fc.record({ kind: fc.constantFrom('lock', 'unlock'), user: who, target: fc.nat() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('rename' as const), user: who, name: fc.constantFrom('Ana', 'Bo', 'Cy') }), weight: 1 },
  // A third member of the family (their album shared with both, their library with user 0) is
  // deleted by the admin, or comes back.
  { arbitrary: fc.record({ kind: fc.constantFrom('leave', 'return'), user: who }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('sync' as const), user: who, cut: fc.option(fc.integer({ min: 1, max: 12 })) }), weight: 3 },
);

let run = 0;

describe('the sync stream, as the app keeps it, agrees with the REST API', () => {
  let adminToken: string;
  beforeAll(async () => {
    await signUpAdmin();
    adminToken = (await login({ email: 'admin@immich.cloud', password: 'password' })).accessToken;
  });

  it('for random sequences of changes and syncs by two users (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 4, maxLength: 22 }), fc.constantFrom(3, 5000), async (steps, batchSize) => {
        run++;
        const users: User[] = [await freshUser(adminToken, `Prop${run}a`), await freshUser(adminToken, `Prop${run}b`)];
        const clients = users.map((user) => new SyncClient(user.accessToken, { batchSize }));
        const assets: string[][] = [[], []];
        // Each user's PIN code, their session unlocked with it (to move assets out of the locked folder).
        const locked = new Set<string>();
        for (const user of users) {
          const pin = { pinCode: '123456' };
          await invoke(setupPinCodeHandler, { method: 'POST', path: '/api/auth/pin-code', headers: bearer(user.accessToken), body: pin });
          await invoke(unlockSessionHandler, {
            method: 'POST',
            path: '/api/auth/session/unlock',
            headers: bearer(user.accessToken),
            body: pin,
          });
        }
        // Two albums each ("Trip", "Favourites"); user 0 shares theirs with user 1 (as an editor).
        const albums: string[] = [];
        for (const [index, user] of users.entries())
          for (const name of ['Trip', 'Favourites'])
            albums.push((await createAlbum(user.accessToken, { albumName: `P${run}${index}${name}` })).id as string);
        // The third member: a photo, an album of theirs shared with both, their library with user 0.
        const third = await freshUser(adminToken, `Prop${run}c`);
        const thirds = [await addPhoto(third.accessToken, { color: [run % 250, 200, 10] })];
        const thirdAlbum = (await createAlbum(third.accessToken, { albumName: `P${run}third`, assetIds: thirds })).id as string;
        await invoke(addUsersHandler, {
          method: 'PUT',
          path: `/api/album/${thirdAlbum}/users`,
          pathParameters: { id: thirdAlbum },
          headers: bearer(third.accessToken),
          body: { sharedUserIds: users.map((user) => user.id) },
        });
        await invoke(createPartnerHandler, {
          method: 'POST',
          path: `/api/partner/${users[0]?.id}`,
          pathParameters: { id: users[0]?.id ?? '' },
          headers: bearer(third.accessToken),
        });
        let thirdDeleted = false;
        for (const [index, step] of steps.entries()) {
          // Both sync halfway too: whatever changes after must reach stores that already hold it.
          if (index === Math.floor(steps.length / 2)) for (const client of clients) await client.sync();
          const user = users[step.user] as User;
          const other = users[1 - step.user] as User;
          const token = user.accessToken;
          const mine = assets[step.user] as string[];
          const target = 'target' in step ? mine[step.target % Math.max(1, mine.length)] : undefined;
          switch (step.kind) {
            case 'upload':
              mine.push(
                await addPhoto(token, {
                  color: [mine.length * 30, run % 250, step.user * 100],
                  ...(step.face ? { mwgFaces: [{ name: step.face, x: 0.2, y: 0.2, w: 0.3, h: 0.3 }] } : {}),
                }),
              );
              break;
            case 'favorite':
            case 'unfavorite':
              if (target) await updateAsset(token, target, { isFavorite: step.kind === 'favorite' });
              break;
            case 'archive':
            case 'unarchive':
              if (target) await updateAsset(token, target, { isArchived: step.kind === 'archive' });
              break;
            case 'trash':
            case 'delete':
              // A target deleted before answers 400, as Immich does.
              if (target) expect([204, 400]).toContain((await trash(token, [target], step.kind === 'delete')).status);
              break;
            case 'restore':
              if (target)
                await invoke(restoreAssetsHandler, {
                  method: 'POST',
                  path: '/api/trash/restore/assets',
                  headers: bearer(token),
                  body: { ids: [target] },
                });
              break;
            case 'add':
            case 'remove': {
              // An album not theirs nor shared with them answers 400 (per id, or for the album).
              if (!target) break;
              for (const index of step.albums) {
                const reply = await (step.kind === 'add' ? addToAlbum : removeFromAlbum)(token, albums[index] as string, [target]);
                expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(500);
              }
              break;
            }
            case 'share': {
              const album = albums[step.album] as string;
              await invoke(addUsersHandler, {
                method: 'PUT',
                path: `/api/album/${album}/users`,
                pathParameters: { id: album },
                headers: bearer(users[0]?.accessToken ?? ''),
                body: { sharedUserIds: [users[1]?.id] },
              });
              break;
            }
            case 'unshare': {
              const album = albums[step.album] as string;
              await invoke(removeUserHandler, {
                method: 'DELETE',
                path: `/api/album/${album}/user/${users[1]?.id}`,
                pathParameters: { id: album, userId: users[1]?.id ?? '' },
                headers: bearer(users[0]?.accessToken ?? ''),
              });
              break;
            }
            case 'partner':
              await invoke(createPartnerHandler, {
                method: 'POST',
                path: `/api/partner/${other.id}`,
                pathParameters: { id: other.id },
                headers: bearer(token),
              });
              break;
            case 'unpartner':
              await invoke(removePartnerHandler, {
                method: 'DELETE',
                path: `/api/partner/${other.id}`,
                pathParameters: { id: other.id },
                headers: bearer(token),
              });
              break;
            case 'stack': {
              const second = mine[(step.target + 1) % Math.max(1, mine.length)];
              if (!target || !second || second === target) break;
              const reply = await invoke(createStackHandler, {
                method: 'POST',
                path: '/api/stacks',
                headers: bearer(token),
                body: { assetIds: [target, second] },
              });
              expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(500);
              break;
            }
            case 'unstack': {
              const stacks = (await invoke(searchStacksHandler, { path: '/api/stacks', headers: bearer(token) })).body as { id: string }[];
              const stack = stacks[step.target % Math.max(1, stacks.length)];
              if (stack)
                await invoke(deleteStackHandler, {
                  method: 'DELETE',
                  path: `/api/stacks/${stack.id}`,
                  headers: bearer(token),
                  pathParameters: { id: stack.id },
                });
              break;
            }
            case 'leave':
            case 'return': {
              if ((step.kind === 'leave') === thirdDeleted) break;
              const reply = await invoke(step.kind === 'leave' ? deleteUserHandler : restoreUserHandler, {
                method: step.kind === 'leave' ? 'DELETE' : 'POST',
                path: step.kind === 'leave' ? `/api/user/${third.id}` : `/api/user/${third.id}/restore`,
                pathParameters: { id: third.id },
                headers: bearer(adminToken),
                body: {},
              });
              expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
              thirdDeleted = step.kind === 'leave';
              break;
            }
            case 'rename': {
              const people = (
                await invoke(getAllPeopleHandler, { path: '/api/person', query: { withHidden: 'true' }, headers: bearer(token) })
              ).body.people;
              const person = people[0];
              if (person)
                await invoke(updatePersonHandler, {
                  method: 'PUT',
                  path: `/api/person/${person.id}`,
                  pathParameters: { id: person.id },
                  headers: bearer(token),
                  body: { name: `${step.name}${run}`, isHidden: !person.isHidden },
                });
              break;
            }
            case 'lock':
            case 'unlock': {
              if (!target) break;
              const visibility = step.kind === 'lock' ? 'locked' : 'timeline';
              const reply = await invoke(updateAssetsV3Handler, {
                method: 'PUT',
                path: '/api/assets',
                headers: bearer(token),
                body: { ids: [target], visibility },
              });
              expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(500);
              if (reply.status === 204) {
                if (step.kind === 'lock') locked.add(target);
                else locked.delete(target);
              }
              break;
            }
            case 'sync':
              if (step.cut === null) await clients[step.user]?.sync();
              else await clients[step.user]?.attempt({ cutAfter: step.cut });
              break;
          }
        }
        for (const [index, client] of clients.entries()) {
          await client.sync();
          await agrees(
            client,
            users[index] as User,
            users[1 - index] as User,
            assets[index] as string[],
            assets[1 - index] as string[],
            locked,
          );
          // A partner's or an album member's app never holds an asset in someone else's locked folder.
          for (const row of client.assets.values())
            if (row.ownerId !== users[index]?.id) expect(locked.has(row.id), `another's locked ${row.id}`).toBe(false);
          // The third member's photo: in the app exactly while the API lets this user see it.
          for (const id of thirds) {
            const seen = (await assetInfo(users[index]?.accessToken ?? '', id)).status === 200;
            const reachable =
              [...client.albumAssets.values()].some((entry) => entry.assetId === id) ||
              [...client.partners.values()].some((partner) => partner.sharedById === third.id);
            expect(client.assets.has(id) && reachable, `the third member's ${id}${thirdDeleted ? ' (deleted)' : ''}`).toBe(seen);
          }
        }
      }),
      // Eight sequences in `npm test` (each ~4 s); SYNC_PROPERTY_RUNS runs more.
      { numRuns: Number(process.env.SYNC_PROPERTY_RUNS ?? 8) },
    );
  });
});

/** The user's store against the REST API (v1.100's routes, read by the user). */
const agrees = async (
  client: SyncClient,
  user: User,
  other: User,
  mine: readonly string[],
  theirs: readonly string[],
  locked: ReadonlySet<string>,
) => {
  const token = user.accessToken;
  // Their own assets: each one the API still has, in the state it has there; none it does not.
  for (const id of mine) {
    const info = await assetInfo(token, id);
    const synced = client.assets.get(id);
    // In the locked folder (which v1.100's routes do not show): the owner's app keeps it, as locked.
    if (locked.has(id)) {
      if (synced) expect(synced, `locked ${id}`).toMatchObject({ visibility: 'locked' });
      continue;
    }
    if (info.status !== 200) {
      expect(synced, `deleted ${id}`).toBeUndefined();
      continue;
    }
    expect(synced, `asset ${id}`).toMatchObject({
      isFavorite: info.body.isFavorite,
      visibility: info.body.isArchived ? 'archive' : 'timeline',
      deletedAt: info.body.isTrashed ? expect.any(String) : null,
    });
  }
  // Partners, both ways.
  const partners = async (direction: string) =>
    (await invoke(getPartnersHandler, { path: '/api/partner', query: { direction }, headers: bearer(token) })).body.map(
      (p: { id: string }) => p.id,
    );
  const sharedWithMe: string[] = await partners('shared-with');
  const sharedByMe: string[] = await partners('shared-by');
  // In any order: the API lists them by name, the app's table by when they came.
  expect(
    [...client.partners.values()]
      .filter((p) => p.sharedWithId === user.id)
      .map((p) => p.sharedById)
      .sort(),
  ).toEqual([...sharedWithMe].sort());
  expect(
    [...client.partners.values()]
      .filter((p) => p.sharedById === user.id)
      .map((p) => p.sharedWithId)
      .sort(),
  ).toEqual([...sharedByMe].sort());
  // A partner's library: every asset of theirs the API still has, as the partner's timeline shows it to the user.
  if (sharedWithMe.includes(other.id)) {
    for (const id of theirs) {
      if (locked.has(id)) continue;
      const info = await assetInfo(other.accessToken, id);
      if (info.status !== 200) expect(client.assets.get(id), `partner's deleted ${id}`).toBeUndefined();
      else expect(client.assets.get(id), `partner's ${id}`).toMatchObject({ isFavorite: false, ownerId: other.id });
    }
  }
  // Albums: the user's own and those shared with them, with what is in them (trashed ones aside:
  // the album's own view leaves them out) and their users.
  const listed = [
    ...(await invoke(getAllAlbumsHandler, { path: '/api/album', headers: bearer(token) })).body,
    ...(await invoke(getAllAlbumsHandler, { path: '/api/album', query: { shared: 'true' }, headers: bearer(token) })).body,
  ];
  const albumIds = [...new Set(listed.map((album: { id: string }) => album.id))].sort();
  expect([...client.albums.keys()].sort()).toEqual(albumIds);
  for (const albumId of albumIds) {
    const info = (await albumInfo(token, albumId)).body;
    const inAlbum = [...client.albumAssets.values()]
      .filter((entry) => entry.albumId === albumId && client.assets.get(entry.assetId)?.deletedAt === null)
      .map((entry) => entry.assetId)
      .sort();
    expect(inAlbum, `album ${albumId}`).toEqual(info.assets.map((asset: { id: string }) => asset.id).sort());
    const users = [...client.albumUsers.values()].filter((entry) => entry.albumId === albumId);
    expect(users.map((entry) => entry.userId).sort()).toEqual([info.ownerId, ...info.sharedUsers.map((u: { id: string }) => u.id)].sort());
  }
  // Stacks: the user's, as the API lists them, each with its primary asset.
  const stacks = (await invoke(searchStacksHandler, { path: '/api/stacks', headers: bearer(token) })).body as {
    id: string;
    primaryAssetId: string;
  }[];
  expect(
    [...client.stacks.values()]
      .filter((stack) => stack.ownerId === user.id)
      .map((stack) => [stack.id, stack.primaryAssetId])
      .sort(),
  ).toEqual(stacks.map((stack) => [stack.id, stack.primaryAssetId]).sort());
  // People, as named and hidden: every one the API lists (it leaves out a person whose photos are
  // all gone, whom the store keeps, as Immich's own sync does until its people clean-up job runs).
  const people = (await invoke(getAllPeopleHandler, { path: '/api/person', query: { withHidden: 'true' }, headers: bearer(token) })).body
    .people;
  for (const person of people as { id: string; name: string; isHidden: boolean }[])
    expect(client.people.get(person.id), `person ${person.name}`).toMatchObject({ name: person.name, isHidden: person.isHidden });
};
