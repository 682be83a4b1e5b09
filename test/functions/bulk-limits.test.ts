import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as addAssetsToAlbumV1 } from '#functions/album/add-assets-to-album.ts';
import { handler as addUsersToAlbumV1 } from '#functions/album/add-users-to-album.ts';
import { handler as createAlbumV1 } from '#functions/album/create-album.ts';
import { handler as deleteAssetsV1 } from '#functions/asset/delete-assets.ts';
import { handler as runAssetJobsV1 } from '#functions/asset/run-asset-jobs.ts';
import { handler as updateAssetsV1 } from '#functions/asset/update-assets.ts';
import { handler as getDownloadInfo } from '#functions/download/get-download-info.ts';
import { handler as updatePeopleV1 } from '#functions/person/update-people.ts';
import { handler as searchMetadata } from '#functions/search/search-metadata.ts';
import { handler as addSharedLinkAssetsV1 } from '#functions/shared-link/add-shared-link-assets.ts';
import { handler as tagAssetsV1 } from '#functions/tag/tag-assets.ts';
import { handler as restoreAssets } from '#functions/trash/restore-assets.ts';
import { handler as addAssetsToAlbumV3 } from '#functions/v3/album/add-assets-to-album.ts';
import { handler as addAssetsToAlbums } from '#functions/v3/album/add-assets-to-albums.ts';
import { handler as createAlbumV3 } from '#functions/v3/album/create-album.ts';
import { handler as removeAssetsFromAlbumV3 } from '#functions/v3/album/remove-asset-from-album.ts';
import { handler as deleteAssetsV3 } from '#functions/v3/asset/delete-assets.ts';
import { handler as updateAssetsV3 } from '#functions/v3/asset/update-assets.ts';
import { handler as createMemory } from '#functions/v3/memory/create-memory.ts';
import { handler as updateNotifications } from '#functions/v3/notification/update-notifications.ts';
import { handler as updatePeopleV3 } from '#functions/v3/person/update-people.ts';
import { handler as createStack } from '#functions/v3/stack/create-stack.ts';
import { handler as deleteStacks } from '#functions/v3/stack/delete-stacks.ts';
import { handler as bulkTagAssets } from '#functions/v3/tag/bulk-tag-assets.ts';
import { limits } from '#shared/model/limits.ts';
import { bearer, setupAccounts } from '../support/accounts.ts';
import { type Call, invoke, type Reply } from '../support/invoke.ts';
import { addPhoto, createAlbum } from '../support/library.ts';
import { recordRoundTrips } from '../support/round-trips.ts';

// docs/api.md, "Limits": every bulk route names its largest list and refuses a longer one with a
// 400 before reading anything it names; within the limit, access is checked 100 ids a call.

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const ids = (n: number): string[] => Array.from({ length: n }, () => randomUUID());
const someId = randomUUID();

type Handler = Parameters<typeof invoke>[0];

interface BulkRoute {
  name: string;
  handler: Handler;
  call: (list: string[]) => Omit<Call, 'headers'>;
  limit: number;
  /** The message past the limit (v1.100's class-validator wording or v3's). */
  message: string;
  v3?: boolean;
}

const v1 = (field: string, limit: number) => `${field} must contain no more than ${limit} elements`;
const v3 = (field: string, limit: number) => `${field} must contain at most ${limit} items`;
const { albumAssets, bulkAssets, bulkGroups, bulkTargets } = limits;

// A path both generations share answers a client that is not v3's app in v1.100's shape, so
// those (asset jobs, search) are checked by their message alone.
const routes: BulkRoute[] = [
  {
    name: 'DELETE /asset',
    handler: deleteAssetsV1,
    call: (list) => ({ method: 'DELETE', path: '/api/asset', body: { ids: list } }),
    limit: bulkAssets,
    message: v1('ids', bulkAssets),
  },
  {
    name: 'PUT /asset',
    handler: updateAssetsV1,
    call: (list) => ({ method: 'PUT', path: '/api/asset', body: { ids: list, isFavorite: true } }),
    limit: bulkAssets,
    message: v1('ids', bulkAssets),
  },
  {
    name: 'POST /trash/restore/assets',
    handler: restoreAssets,
    call: (list) => ({ method: 'POST', path: '/api/trash/restore/assets', body: { ids: list } }),
    limit: bulkAssets,
    message: v1('ids', bulkAssets),
  },
  {
    name: 'PUT /album/:id/assets',
    handler: addAssetsToAlbumV1,
    call: (list) => ({ method: 'PUT', path: `/api/album/${someId}/assets`, pathParameters: { id: someId }, body: { ids: list } }),
    limit: albumAssets,
    message: v1('ids', albumAssets),
  },
  {
    name: 'DELETE /albums/:id/assets',
    handler: removeAssetsFromAlbumV3,
    call: (list) => ({ method: 'DELETE', path: `/api/albums/${someId}/assets`, pathParameters: { id: someId }, body: { ids: list } }),
    limit: albumAssets,
    message: v3('ids', albumAssets),
    v3: true,
  },
  {
    name: 'POST /album (assetIds)',
    handler: createAlbumV1,
    call: (list) => ({ method: 'POST', path: '/api/album', body: { albumName: 'many', assetIds: list } }),
    limit: bulkAssets,
    message: v1('assetIds', bulkAssets),
  },
  {
    name: 'PUT /album/:id/users',
    handler: addUsersToAlbumV1,
    call: (list) => ({ method: 'PUT', path: `/api/album/${someId}/users`, pathParameters: { id: someId }, body: { sharedUserIds: list } }),
    limit: bulkGroups,
    message: v1('sharedUserIds', bulkGroups),
  },
  {
    name: 'PUT /shared-link/:id/assets',
    handler: addSharedLinkAssetsV1,
    call: (list) => ({
      method: 'PUT',
      path: `/api/shared-link/${someId}/assets`,
      pathParameters: { id: someId },
      body: { assetIds: list },
    }),
    limit: bulkAssets,
    message: v1('assetIds', bulkAssets),
  },
  {
    name: 'PUT /tag/:id/assets',
    handler: tagAssetsV1,
    call: (list) => ({ method: 'PUT', path: `/api/tag/${someId}/assets`, pathParameters: { id: someId }, body: { assetIds: list } }),
    limit: bulkAssets,
    message: v1('assetIds', bulkAssets),
  },
  {
    name: 'POST /download/info',
    handler: getDownloadInfo,
    call: (list) => ({ method: 'POST', path: '/api/download/info', body: { assetIds: list } }),
    limit: bulkAssets,
    message: v1('assetIds', bulkAssets),
  },
  {
    name: 'PUT /person',
    handler: updatePeopleV1,
    call: (list) => ({ method: 'PUT', path: '/api/person', body: { people: list.map((id) => ({ id, isHidden: true })) } }),
    limit: bulkGroups,
    message: v1('people', bulkGroups),
  },
  {
    name: 'POST /search/metadata (v1.100 personIds)',
    handler: searchMetadata,
    call: (list) => ({ method: 'POST', path: '/api/search/metadata', body: { personIds: list } }),
    limit: bulkTargets,
    message: v1('personIds', bulkTargets),
  },
  {
    name: 'POST /asset/jobs',
    handler: runAssetJobsV1,
    call: (list) => ({ method: 'POST', path: '/api/asset/jobs', body: { assetIds: list, name: 'refresh-metadata' } }),
    limit: bulkAssets,
    message: v3('assetIds', bulkAssets),
  },
  {
    name: 'DELETE /assets',
    handler: deleteAssetsV3,
    call: (list) => ({ method: 'DELETE', path: '/api/assets', body: { ids: list } }),
    limit: bulkAssets,
    message: v3('ids', bulkAssets),
    v3: true,
  },
  {
    name: 'PUT /assets',
    handler: updateAssetsV3,
    call: (list) => ({ method: 'PUT', path: '/api/assets', body: { ids: list, isFavorite: true } }),
    limit: bulkAssets,
    message: v3('ids', bulkAssets),
    v3: true,
  },
  {
    name: 'PUT /albums/:id/assets',
    handler: addAssetsToAlbumV3,
    call: (list) => ({ method: 'PUT', path: `/api/albums/${someId}/assets`, pathParameters: { id: someId }, body: { ids: list } }),
    limit: albumAssets,
    message: v3('ids', albumAssets),
    v3: true,
  },
  {
    name: 'POST /albums (albumUsers)',
    handler: createAlbumV3,
    call: (list) => ({
      method: 'POST',
      path: '/api/albums',
      body: { albumName: 'many', albumUsers: list.map((userId) => ({ userId, role: 'viewer' })) },
    }),
    limit: bulkGroups,
    message: v3('albumUsers', bulkGroups),
    v3: true,
  },
  {
    name: 'PUT /albums/assets (assetIds)',
    handler: addAssetsToAlbums,
    call: (list) => ({ method: 'PUT', path: '/api/albums/assets', body: { albumIds: [someId], assetIds: list } }),
    limit: bulkAssets,
    message: v3('assetIds', bulkAssets),
    v3: true,
  },
  {
    name: 'PUT /albums/assets (albumIds)',
    handler: addAssetsToAlbums,
    call: (list) => ({ method: 'PUT', path: '/api/albums/assets', body: { albumIds: list, assetIds: [someId] } }),
    limit: bulkTargets,
    message: v3('albumIds', bulkTargets),
    v3: true,
  },
  {
    name: 'POST /stacks',
    handler: createStack,
    call: (list) => ({ method: 'POST', path: '/api/stacks', body: { assetIds: list } }),
    limit: bulkAssets,
    message: v3('assetIds', bulkAssets),
    v3: true,
  },
  {
    name: 'DELETE /stacks',
    handler: deleteStacks,
    call: (list) => ({ method: 'DELETE', path: '/api/stacks', body: { ids: list } }),
    limit: bulkGroups,
    message: v3('ids', bulkGroups),
    v3: true,
  },
  {
    name: 'PUT /tags/assets (tagIds)',
    handler: bulkTagAssets,
    call: (list) => ({ method: 'PUT', path: '/api/tags/assets', body: { tagIds: list, assetIds: [someId] } }),
    limit: bulkTargets,
    message: v3('tagIds', bulkTargets),
    v3: true,
  },
  {
    name: 'PUT /tags/assets (assetIds)',
    handler: bulkTagAssets,
    call: (list) => ({ method: 'PUT', path: '/api/tags/assets', body: { tagIds: [someId], assetIds: list } }),
    limit: bulkAssets,
    message: v3('assetIds', bulkAssets),
    v3: true,
  },
  {
    name: 'POST /memories',
    handler: createMemory,
    call: (list) => ({
      method: 'POST',
      path: '/api/memories',
      body: { type: 'on_this_day', data: { year: 2020 }, memoryAt: '2024-01-01T00:00:00.000Z', assetIds: list },
    }),
    limit: bulkAssets,
    message: v3('assetIds', bulkAssets),
    v3: true,
  },
  {
    name: 'PUT /people',
    handler: updatePeopleV3,
    call: (list) => ({ method: 'PUT', path: '/api/people', body: { people: list.map((id) => ({ id, isHidden: true })) } }),
    limit: bulkGroups,
    message: v3('people', bulkGroups),
    v3: true,
  },
  {
    name: 'PUT /notifications',
    handler: updateNotifications,
    call: (list) => ({ method: 'PUT', path: '/api/notifications', body: { ids: list, readAt: '2024-01-01T00:00:00.000Z' } }),
    limit: bulkGroups,
    message: v3('ids', bulkGroups),
    v3: true,
  },
  {
    name: 'POST /search/metadata (v3 albumIds)',
    handler: searchMetadata,
    call: (list) => ({ method: 'POST', path: '/api/search/metadata', body: { visibility: 'timeline', albumIds: list } }),
    limit: bulkTargets,
    message: v3('albumIds', bulkTargets),
  },
  {
    name: 'POST /search/metadata (v3 tagIds)',
    handler: searchMetadata,
    call: (list) => ({ method: 'POST', path: '/api/search/metadata', body: { visibility: 'timeline', tagIds: list } }),
    limit: bulkTargets,
    message: v3('tagIds', bulkTargets),
  },
];

const send = async (route: BulkRoute, list: string[]) => {
  let reply: Reply | undefined;
  const calls = await recordRoundTrips(async () => {
    reply = await invoke(route.handler, { ...route.call(list), headers: bearer(accounts.user1.accessToken) });
  });
  if (!reply) throw new Error('no reply');
  return { calls, reply };
};

describe('a list past its route limit', () => {
  it.each(routes)('$name: 400 naming the limit, and nothing read but the caller', async (route) => {
    // The same request with a malformed id (a number): refused by validation, after authentication only.
    const { calls: authOnly } = await send(route, [42 as unknown as string]);
    expect(authOnly.length).toBeGreaterThan(0);
    const { calls, reply } = await send(route, ids(route.limit + 1));
    expect(reply.status).toBe(400);
    if (route.v3) expect(reply.body).toMatchObject({ message: 'Validation failed', errors: [{ message: route.message }] });
    else expect(reply.body.message).toContain(route.message);
    expect(calls.map((call) => call.command)).toEqual(authOnly.map((call) => call.command));
  });
});

/** The route's round trips beyond authenticating the caller (what a malformed request costs), by command. */
const accessTrips = async (route: BulkRoute, list: string[]) => {
  const { calls: authOnly } = await send(route, [42 as unknown as string]);
  const { calls, reply } = await send(route, list);
  // The calls past authentication's: those of the malformed request taken out once each.
  const beyond = calls.map((call) => call.command);
  for (const { command } of authOnly) {
    const index = beyond.indexOf(command);
    if (index >= 0) beyond.splice(index, 1);
  }
  return { reply, beyond };
};

const byName = (name: string): BulkRoute => {
  const route = routes.find((each) => each.name === name);
  if (!route) throw new Error(name);
  return route;
};

describe('a list at its route limit is checked 100 ids a read', () => {
  it("DELETE /stacks: 1,000 stacks not the caller's are refused after ten BatchGetItem calls, not a read per id", async () => {
    const { reply, beyond } = await accessTrips(byName('DELETE /stacks'), ids(limits.bulkGroups));
    expect(reply).toMatchObject({ status: 400, body: { message: 'Not found or no stack.delete access' } });
    expect(beyond).toEqual(Array(limits.bulkGroups / 100).fill('BatchGetItemCommand'));
  });

  it("PUT /albums/assets: 100 albums and 10,000 assets not the caller's cost two reads of albums (their own, then shares)", async () => {
    const route = byName('PUT /albums/assets (albumIds)');
    const { reply, beyond } = await accessTrips(
      { ...route, call: (list) => ({ ...route.call(list), body: { albumIds: list, assetIds: ids(limits.bulkAssets) } }) },
      ids(limits.bulkTargets),
    );
    expect(reply).toMatchObject({ status: 200, body: { success: false, error: 'no_permission' } });
    expect(beyond).toEqual(['BatchGetItemCommand', 'BatchGetItemCommand']);
  });

  it("POST /search/metadata: 100 albumIds not the caller's are refused after two reads, not two per album", async () => {
    const { reply, beyond } = await accessTrips(byName('POST /search/metadata (v3 albumIds)'), ids(limits.bulkTargets));
    expect(reply).toMatchObject({ status: 400, body: { message: 'Not found or no album.read access' } });
    expect(beyond).toEqual(['BatchGetItemCommand', 'BatchGetItemCommand']);
  });

  it('DELETE /assets: 10,000 ids are read in 100 BatchGetItem calls', async () => {
    const { reply, beyond } = await accessTrips(byName('DELETE /assets'), ids(limits.bulkAssets));
    expect(reply).toMatchObject({ status: 400, body: { message: 'Not found or no asset.delete access' } });
    expect(beyond.filter((command) => command === 'BatchGetItemCommand').length).toBe(limits.bulkAssets / 100);
    expect(beyond.length).toBeLessThanOrEqual(limits.bulkAssets / 100 + 2);
  });

  it('assets seen through a shared album: one Query each for their albums, their shares read once for all of them', async () => {
    const owner = accounts.user2.accessToken;
    const photos = [];
    for (const color of [11, 12, 13, 14] as const) photos.push(await addPhoto(owner, { color: [color, 40, 90] }));
    await createAlbum(owner, { albumName: 'shared for bulk reads', assetIds: photos, sharedWithUserIds: [accounts.user1.userId] });
    const route = byName('POST /download/info');
    const trips = async (assetIds: string[]) => {
      const { reply, beyond } = await accessTrips(route, assetIds);
      expect(reply.status).toBe(201);
      return beyond;
    };
    const one = await trips(photos.slice(0, 1));
    const four = await trips(photos);
    // Each asset's albums are one Query; the shares and owned albums are one BatchGetItem each, for all.
    expect(four.filter((command) => command === 'QueryCommand').length - one.filter((command) => command === 'QueryCommand').length).toBe(
      3,
    );
    expect(four.filter((command) => command === 'BatchGetItemCommand').length).toBe(
      one.filter((command) => command === 'BatchGetItemCommand').length,
    );
  });
});

describe('the limits leave the clients their real requests', () => {
  it("PUT /album/:id/assets takes @immich/cli's batch of `upload --album -c 16` (16,000 ids): the album's own check answers", async () => {
    const { reply } = await send(byName('PUT /album/:id/assets'), ids(16_000));
    expect(reply).toMatchObject({ status: 400, body: { message: 'Not found or no album.read access' } });
  });
});
