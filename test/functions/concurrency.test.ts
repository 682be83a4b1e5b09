import { createSign, generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAssetStatisticsHandler } from '#functions/asset/get-asset-statistics.ts';
import { handler as getTimeBucketsHandler } from '#functions/asset/get-time-buckets.ts';
import { handler as loginHandler } from '#functions/auth/login.ts';
import { handler as addLinkAssetsHandler } from '#functions/shared-link/add-shared-link-assets.ts';
import { handler as createLinkHandler } from '#functions/shared-link/create-shared-link.ts';
import { handler as removeLinkHandler } from '#functions/shared-link/remove-shared-link.ts';
import { handler as removeLinkAssetsHandler } from '#functions/shared-link/remove-shared-link-assets.ts';
import { handler as createUserHandler } from '#functions/user/create-user.ts';
import { handler as createSessionHandler } from '#functions/v3/session/create-session.ts';
import { type Route, routes } from '#infra/routes.ts';
import * as assetRepo from '#shared/db/asset.repository.ts';
import { db, tableName } from '#shared/db/client.ts';
import * as duplicateRepo from '#shared/db/duplicate.repository.ts';
import * as keys from '#shared/db/item-keys.ts';
import { assetItem, checksumItem } from '#shared/db/items/asset.ts';
import { bearer, createApiKey, ensureAdmin, fixtures, freshUser, login, setupAccounts } from '../support/accounts.ts';
import { putItems } from '../support/bulk-write.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, addToAlbum, albumInfo, createAlbum, personNamed, removeFromAlbum, trash, updateAsset } from '../support/library.ts';
import { makeJpeg } from '../support/photos.ts';
import { assetRecord } from '../support/records.ts';
import { createSession, partsOf, putPart, sessionBody } from '../support/sessions.ts';
import { tableItems } from '../support/table-items.ts';
import { multipart, storedFiles } from '../support/uploads.ts';

/**
 * Concurrent writes. Users, albums, assets and shared links: the exact outcome of each racing
 * request (one wins, the others are told why), never a 5xx, and the stored state consistent
 * afterwards (counts, memberships, thumbnails). Then every write route at once: no 5xx, and the
 * stored counts agree with the stored items.
 */

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

describe('users under concurrency', () => {
  const adminToken = () => accounts.admin.accessToken;

  it('lets exactly one of several simultaneous creates with one email win, and stores nothing of the others', async () => {
    const replies = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        invoke(createUserHandler, {
          method: 'POST',
          path: '/api/user',
          headers: bearer(adminToken()),
          body: { email: 'same@immich.cloud', password: `secret-${i}`, name: `Same ${i}`, storageLabel: `label${i}` },
        }),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400]);
    for (const reply of replies.filter((r) => r.status === 400)) expect(reply.body.message).toBe('User exists');

    // Only the winner's password opens the account; the losers' labels were not taken either.
    const won = replies.findIndex((r) => r.status === 201);
    await login({ email: 'same@immich.cloud', password: `secret-${won}` });
    const loser = won === 0 ? 1 : 0;
    expect(
      (
        await invoke(loginHandler, {
          method: 'POST',
          path: '/api/auth/login',
          body: { email: 'same@immich.cloud', password: `secret-${loser}` },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await invoke(createUserHandler, {
          method: 'POST',
          path: '/api/user',
          headers: bearer(adminToken()),
          body: { email: 'free@immich.cloud', password: 'p', name: 'F', storageLabel: `label${loser}` },
        })
      ).status,
    ).toBe(201);
  });

  it('lets exactly one of several simultaneous creates with one storage label win', async () => {
    const replies = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        invoke(createUserHandler, {
          method: 'POST',
          path: '/api/user',
          headers: bearer(adminToken()),
          body: { email: `racer${i}@immich.cloud`, password: 'p', name: `Racer ${i}`, storageLabel: 'contested' },
        }),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([201, 400, 400, 400]);
    for (const reply of replies.filter((r) => r.status === 400))
      expect(reply.body.message).toBe('Storage label already in use by another account');
    // A loser's email was not taken by its failed transaction.
    const loser = replies.findIndex((r) => r.status === 400);
    expect(
      (
        await invoke(createUserHandler, {
          method: 'POST',
          path: '/api/user',
          headers: bearer(adminToken()),
          body: { email: `racer${loser}@immich.cloud`, password: 'p', name: 'Again' },
        })
      ).status,
    ).toBe(201);
  });
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
    // Written straight to the table as uploads leave them, with their checksum items (what is
    // raced here is the adds, not the uploads: 51 uploads cost this test seconds).
    const photos = Array.from({ length: 51 }, () => assetRecord(accounts.user1.userId));
    await putItems(photos.flatMap((photo) => [assetItem(photo), checksumItem(photo.ownerId, photo.checksum, photo.id)]));
    const ids = photos.map((photo) => photo.id);
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

const root = join(import.meta.dirname, '..', '..');
type Handler = Parameters<typeof invoke>[0];
const handlerOf = async (route: Route): Promise<Handler> => ((await import(join(root, route.entry))) as { handler: Handler }).handler;

interface Call {
  path?: string;
  query?: Record<string, string>;
  /** Path parameters other than `{id}` alone. */
  params?: Record<string, string>;
  id?: string;
  body?: unknown;
  raw?: { body: Buffer; contentType: string };
  token: string;
}

let admin: { accessToken: string };
let user: { accessToken: string; userId: string };
const setup: Record<string, string> = {};

/** A product key signed by a key pair of the test's own, which the server is given as its public key. */
const licenseSigner = generateKeyPairSync('rsa', { modulusLength: 2048 });
const productKey = (licenseKey: string) => {
  const publicKey = Buffer.from(licenseSigner.publicKey.export({ type: 'spki', format: 'pem' })).toString('base64');
  Object.assign(process.env, { LICENSE_PUBLIC_KEY_SERVER: publicKey, LICENSE_PUBLIC_KEY_CLIENT: publicKey });
  return { licenseKey, activationKey: createSign('SHA256').update(licenseKey).sign(licenseSigner.privateKey, 'base64') };
};

/** A workflow of the racer's, to change or delete. */
const workflow = async (): Promise<string> => {
  const created = await invoke(await handlerOf(routes.find((r) => r.generation === 'v3' && r.operationId === 'createWorkflow') as Route), {
    method: 'POST',
    path: '/api/workflows',
    headers: bearer(user.accessToken),
    body: { trigger: 'AssetCreate' },
  });
  return created.body.id;
};

/** A comment of the racer's on their album, to delete. */
const newComment = async (): Promise<string> => {
  const created = await invoke(await handlerOf(route('createActivity')), {
    method: 'POST',
    path: '/api/activity',
    headers: bearer(user.accessToken),
    body: { albumId: setup.album, type: 'comment', comment: 'To go' },
  });
  return created.body.id as string;
};

/** A memory of the racer's with assets a and b, to change or delete. */
/**
 * A duplicate group of two new photos of the racer's (docs/immich-compatibility.md, "Duplicates"):
 * joined by the repository's union rule directly, as detection would join them.
 */
let duplicateShade = 0;
const newDuplicateGroup = async (): Promise<{ id: string; assetIds: [string, string] }> => {
  duplicateShade += 2;
  const first = await addPhoto(user.accessToken, { color: [30, 60, 100 + duplicateShade] });
  const second = await addPhoto(user.accessToken, { color: [30, 60, 101 + duplicateShade] });
  for (let round = 0; round < 10; round++) {
    const [a, b] = await Promise.all([assetRepo.get(first), assetRepo.get(second)]);
    if (!a || !b) throw new Error('the photos were not stored');
    if (a.duplicateId && a.duplicateId === b.duplicateId) return { id: a.duplicateId, assetIds: [first, second] };
    await duplicateRepo.joinGroup(a, [b], new Date().toISOString());
  }
  throw new Error('no duplicate group was made');
};

const newMemory = async (): Promise<string> => {
  const create = routes.find((candidate) => candidate.operationId === 'createMemory' && candidate.generation === 'v3') as Route;
  const created = await invoke(await handlerOf(create), {
    method: 'POST',
    path: '/api/memories',
    headers: bearer(user.accessToken),
    body: { type: 'on_this_day', data: { year: 2020 }, memoryAt: '2020-01-02T00:00:00Z', assetIds: [setup.a, setup.b] },
  });
  return created.body.id as string;
};

/** A stack of three new photos of the racer's (the others' may be gone by then): its id and the photos, the first its primary. */
let stacked = 0;
const newStack = async (): Promise<{ id: string; assets: string[] }> => {
  const assets: string[] = [];
  for (let i = 0; i < 3; i++) assets.push(await addPhoto(user.accessToken, { color: [200, 10 + stacked, 10 + i] }));
  stacked++;
  const create = routes.find((candidate) => candidate.operationId === 'createStack') as Route;
  const created = await invoke(await handlerOf(create), {
    method: 'POST',
    path: '/api/stacks',
    headers: bearer(user.accessToken),
    body: { assetIds: assets },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.id as string, assets };
};

/** A fresh photo of the racer's with two new people's faces on it: its id, the two people and their faces. */
let photos = 0;
const facePhoto = async () => {
  const n = ++photos;
  const id = await addPhoto(user.accessToken, {
    color: [9, n, 9],
    mwgFaces: [
      { name: `Face ${n} A`, x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
      { name: `Face ${n} B`, x: 0.5, y: 0.5, w: 0.2, h: 0.2 },
    ],
  });
  const [a, b] = [(await personNamed(user.accessToken, `Face ${n} A`)).id, (await personNamed(user.accessToken, `Face ${n} B`)).id];
  const faces = await tableItems('face');
  const faceOf = (personId: string) => String(faces.find((face) => face.assetId === id && face.personId === personId)?.id);
  return { id, a, b, faceA: faceOf(a), faceB: faceOf(b) };
};

/** A fresh tag of the racer's (v3's upsert), with asset a tagged, to change, delete or tag. */
let tags = 0;
const newTag = async (): Promise<string> => {
  const v3Route = (operationId: string) =>
    routes.find((candidate) => candidate.operationId === operationId && candidate.generation === 'v3') as Route;
  const made = await invoke(await handlerOf(v3Route('upsertTags')), {
    method: 'PUT',
    path: '/api/tags',
    headers: bearer(user.accessToken),
    body: { tags: [`Racing/${++tags}`] },
  });
  const id = made.body[0].id as string;
  await invoke(await handlerOf(v3Route('tagAssets')), {
    method: 'PUT',
    path: `/api/tags/${id}/assets`,
    pathParameters: { id },
    headers: bearer(user.accessToken),
    body: { ids: [setup.a] },
  });
  return id;
};

/** The request of each write route, built when it runs (some need a fresh session or item). */
const requests: Record<string, () => Promise<Call[]>> = {
  // Five identical likes at once are one like (the others answer it, 200); a comment beside them.
  createActivity: async () => [
    { token: user.accessToken, body: { albumId: setup.album, type: 'like' } },
    { token: user.accessToken, body: { albumId: setup.album, type: 'comment', comment: 'Racing' } },
  ],
  deleteActivity: async () => [{ token: user.accessToken, id: await newComment() }],
  'v3:createActivity': async () => [
    { token: user.accessToken, body: { albumId: setup.album, assetId: setup.a, type: 'like' } },
    { token: user.accessToken, body: { albumId: setup.album, type: 'comment', comment: 'Racing v3' } },
  ],
  'v3:deleteActivity': async () => [{ token: user.accessToken, id: await newComment() }],
  // Five identical creates: one tag, the others answer that it exists.
  createTag: async () => [{ token: user.accessToken, body: { name: 'Same v1', type: 'CUSTOM' } }],
  updateTag: async () => {
    const id = await newTag();
    return [
      { token: user.accessToken, id, body: { name: 'Renamed once' } },
      { token: user.accessToken, id, body: { name: 'Renamed twice' } },
    ];
  },
  deleteTag: async () => [{ token: user.accessToken, id: await newTag() }],
  tagAssets: async () => {
    const id = await newTag();
    return [
      { token: user.accessToken, id, body: { assetIds: [setup.b, setup.c] } },
      { token: user.accessToken, id, body: { assetIds: [setup.c, setup.d] } },
    ];
  },
  untagAssets: async () => {
    const id = await newTag();
    return [
      { token: user.accessToken, id, body: { assetIds: [setup.a] } },
      { token: user.accessToken, id, body: { assetIds: [setup.a, setup.b] } },
    ];
  },
  'v3:createTag': async () => [{ token: user.accessToken, body: { name: 'Same v3' } }],
  'v3:upsertTags': async () => [
    { token: user.accessToken, body: { tags: ['Upsert/Same/Path'] } },
    { token: user.accessToken, body: { tags: ['Upsert/Same', 'Upsert/Other'] } },
  ],
  'v3:bulkTagAssets': async () => {
    const [first, second] = [await newTag(), await newTag()];
    return [
      { token: user.accessToken, body: { tagIds: [first, second], assetIds: [setup.b, setup.c] } },
      { token: user.accessToken, body: { tagIds: [second], assetIds: [setup.c, setup.d] } },
    ];
  },
  'v3:updateTag': async () => {
    const id = await newTag();
    return [
      { token: user.accessToken, id, body: { color: '#123456' } },
      { token: user.accessToken, id, body: { color: null } },
    ];
  },
  'v3:deleteTag': async () => [{ token: user.accessToken, id: await newTag() }],
  'v3:tagAssets': async () => {
    const id = await newTag();
    return [
      { token: user.accessToken, id, body: { ids: [setup.b, setup.c] } },
      { token: user.accessToken, id, body: { ids: [setup.c, setup.d] } },
    ];
  },
  'v3:untagAssets': async () => {
    const id = await newTag();
    return [
      { token: user.accessToken, id, body: { ids: [setup.a] } },
      { token: user.accessToken, id, body: { ids: [setup.a, setup.b] } },
    ];
  },
  // None exists: every id is refused (400), whatever arrives together.
  'v3:createNotification': async () => [{ token: admin.accessToken, body: { userId: user.userId, title: 'Racing too', data: { n: 1 } } }],
  'v3:updateNotifications': async () => [
    { token: user.accessToken, body: { ids: [setup.notification], readAt: '2026-01-01T00:00:00.000Z' } },
    { token: user.accessToken, body: { ids: [setup.notification], readAt: null } },
  ],
  'v3:updateNotification': async () => [
    { token: user.accessToken, id: setup.notification, body: { readAt: '2026-01-01T00:00:00.000Z' } },
    { token: user.accessToken, id: setup.notification, body: { readAt: null } },
  ],
  'v3:deleteNotifications': async () => [{ token: user.accessToken, body: { ids: [setup.notification] } }],
  'v3:deleteNotification': async () => [{ token: user.accessToken, id: setup.notification }],
  // Five identical stacks of the same photos (each merges the one before) beside an overlapping one.
  'v3:createStack': async () => {
    const { assets } = await newStack();
    const [first = '', second = '', third = ''] = assets;
    return [
      { token: user.accessToken, body: { assetIds: [first, second] } },
      { token: user.accessToken, body: { assetIds: [third, second] } },
    ];
  },
  'v3:updateStack': async () => {
    const { id, assets } = await newStack();
    return [
      { token: user.accessToken, id, body: { primaryAssetId: assets[1] } },
      { token: user.accessToken, id, body: { primaryAssetId: assets[2] } },
    ];
  },
  'v3:deleteStack': async () => [{ token: user.accessToken, id: (await newStack()).id }],
  'v3:deleteStacks': async () => {
    const [one, two] = [await newStack(), await newStack()];
    return [
      { token: user.accessToken, body: { ids: [one.id] } },
      { token: user.accessToken, body: { ids: [one.id, two.id] } },
    ];
  },
  'v3:removeAssetFromStack': async () => {
    const { id, assets } = await newStack();
    const [, second = '', third = ''] = assets;
    return [
      { token: user.accessToken, params: { id, assetId: second }, path: `/api/stacks/${id}/assets/${second}` },
      { token: user.accessToken, params: { id, assetId: third }, path: `/api/stacks/${id}/assets/${third}` },
    ];
  },
  'v3:createMemory': async () => [
    { token: user.accessToken, body: { type: 'on_this_day', data: { year: 2021 }, memoryAt: '2021-01-01T00:00:00Z', assetIds: [setup.a] } },
  ],
  'v3:updateMemory': async () => {
    const id = await newMemory();
    return [
      { token: user.accessToken, id, body: { isSaved: true } },
      { token: user.accessToken, id, body: { seenAt: '2024-01-01T00:00:00Z' } },
    ];
  },
  'v3:deleteMemory': async () => [{ token: user.accessToken, id: await newMemory() }],
  // Five listings at once (each may dissolve a group left with one asset) beside a group of one made meanwhile.
  'v3:getAssetDuplicates': async () => {
    const group = await newDuplicateGroup();
    await trash(user.accessToken, [group.assetIds[1]]);
    return [{ token: user.accessToken }];
  },
  // Five identical dismissals of one group, and one of it and another.
  'v3:deleteDuplicate': async () => [{ token: user.accessToken, id: (await newDuplicateGroup()).id }],
  'v3:deleteDuplicates': async () => {
    const [one, two] = [await newDuplicateGroup(), await newDuplicateGroup()];
    return [
      { token: user.accessToken, body: { ids: [one.id] } },
      { token: user.accessToken, body: { ids: [one.id, two.id] } },
    ];
  },
  // Five identical resolutions of one group, and one keeping the other asset instead.
  'v3:resolveDuplicates': async () => {
    const { id, assetIds } = await newDuplicateGroup();
    return [
      { token: user.accessToken, body: { groups: [{ duplicateId: id, keepAssetIds: [assetIds[0]], trashAssetIds: [assetIds[1]] }] } },
      { token: user.accessToken, body: { groups: [{ duplicateId: id, keepAssetIds: [assetIds[1]], trashAssetIds: [assetIds[0]] }] } },
    ];
  },
  // Five identical additions (one wins each id, the others answer duplicate) beside an overlapping one.
  'v3:addMemoryAssets': async () => {
    const id = await newMemory();
    return [
      { token: user.accessToken, id, body: { ids: [setup.c, setup.d] } },
      { token: user.accessToken, id, body: { ids: [setup.d, setup.a] } },
    ];
  },
  'v3:removeMemoryAssets': async () => {
    const id = await newMemory();
    return [
      { token: user.accessToken, id, body: { ids: [setup.a] } },
      { token: user.accessToken, id, body: { ids: [setup.a, setup.b] } },
    ];
  },
  signUpAdmin: async () => [{ token: '', body: { email: 'second@immich.cloud', password: 'password', name: 'Second' } }],
  login: async () => [{ token: '', body: { email: 'racer@immich.cloud', password: 'password-Racer' } }],
  logout: async () => [{ token: (await login({ email: 'racer@immich.cloud', password: 'password-Racer' })).accessToken }],
  changePassword: async () => [{ token: user.accessToken, body: { password: 'password-Racer', newPassword: 'password-Racer' } }],
  logoutAuthDevices: async () => [{ token: (await login({ email: 'racer@immich.cloud', password: 'password-Racer' })).accessToken }],
  logoutAuthDevice: async () => {
    const other = await login({ email: 'racer@immich.cloud', password: 'password-Racer' });
    const devices = await invoke((await handlerOf(route('getAuthDevices'))) as Handler, {
      path: '/api/auth/devices',
      headers: bearer(other.accessToken),
    });
    const id = devices.body.find((device: { current: boolean }) => !device.current)?.id ?? devices.body[0].id;
    return [{ token: other.accessToken, id }];
  },
  createUser: async () => [
    { token: admin.accessToken, body: { email: 'twin@immich.cloud', password: 'password', name: 'Twin', storageLabel: 'twin' } },
  ],
  createApiKey: async () => [{ token: user.accessToken, body: { name: 'same' } }],
  updateUser: async () => [
    { token: user.accessToken, body: { id: user.userId, name: 'Racer Renamed' } },
    { token: admin.accessToken, body: { id: user.userId, memoriesEnabled: false, quotaSizeInBytes: 10_000_000_000 } },
  ],
  createProfileImage: async () => [
    { token: user.accessToken, raw: await multipart({}, { file: { data: makeJpeg({ color: [7, 7, 7] }), fileName: 'me.jpg' } }) },
  ],
  deleteProfileImage: async () => [{ token: user.accessToken }],
  deleteUser: async () => [{ token: admin.accessToken, id: setup.victim }],
  createPerson: async () => [{ token: user.accessToken, body: { name: 'Made Twice' } }],
  updatePeople: async () => [
    { token: user.accessToken, body: { people: [{ id: setup.person, isHidden: true }] } },
    { token: user.accessToken, body: { people: [{ id: setup.person, name: 'Runner Bulk' }] } },
  ],
  // Five identical moves of one face (one moves it, the others find it moved) beside a move of the other face.
  reassignFacesById: async () => {
    const photo = await facePhoto();
    return [
      { token: user.accessToken, id: photo.b, body: { id: photo.faceA } },
      { token: user.accessToken, id: photo.a, body: { id: photo.faceB } },
    ];
  },
  reassignFaces: async () => {
    const photo = await facePhoto();
    return [
      { token: user.accessToken, id: photo.b, body: { data: [{ assetId: photo.id, personId: photo.a }] } },
      { token: user.accessToken, id: photo.a, body: { data: [{ assetId: photo.id, personId: photo.b }] } },
    ];
  },
  mergePerson: async () => {
    await addPhoto(user.accessToken, { color: [6, 6, 6], mwgFaces: [{ name: 'Runner Twin', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] });
    const twin = (await personNamed(user.accessToken, 'Runner Twin')).id;
    return [{ token: user.accessToken, id: setup.person, body: { ids: [twin] } }];
  },
  createPartner: async () => [{ token: user.accessToken, id: setup.guest }],
  updatePartner: async () => [
    { token: setup.guestToken ?? '', id: user.userId, body: { inTimeline: true } },
    { token: setup.guestToken ?? '', id: user.userId, body: { inTimeline: false } },
  ],
  removePartner: async () => [{ token: user.accessToken, id: setup.guest }],
  restoreUser: async () => [{ token: admin.accessToken, id: setup.victim }],
  updateApiKey: async () => [
    { token: user.accessToken, id: setup.renamedKey, body: { name: 'one' } },
    { token: user.accessToken, id: setup.renamedKey, body: { name: 'two' } },
  ],
  updateAlbumInfo: async () => [
    { token: user.accessToken, id: setup.album, body: { albumName: 'Renamed', albumThumbnailAssetId: setup.a } },
    { token: user.accessToken, id: setup.album, body: { description: 'racing', order: 'asc' } },
  ],
  deleteAlbum: async () => [{ token: user.accessToken, id: setup.doomed }],
  addUsersToAlbum: async () => [
    { token: user.accessToken, id: setup.album, body: { sharedUserIds: [setup.guest] } },
    { token: user.accessToken, id: setup.album, body: { sharedUserIds: [setup.victim] } },
  ],
  removeUserFromAlbum: async () => [
    {
      token: user.accessToken,
      path: `/api/album/${setup.album}/user/${setup.guest}`,
      params: { id: setup.album ?? '', userId: setup.guest ?? '' },
    },
  ],
  deleteApiKey: async () => [{ token: user.accessToken, id: setup.key }],
  'v3:createApiKey': async () => [{ token: user.accessToken, body: { name: 'same', permissions: ['asset.read'] } }],
  'v3:updateApiKey': async () => [
    { token: user.accessToken, id: setup.renamedKey, body: { permissions: ['asset.upload'] } },
    { token: user.accessToken, id: setup.renamedKey, body: { name: 'three', permissions: ['all'] } },
  ],
  'v3:updateMyUser': async () => [
    { token: user.accessToken, body: { name: 'Racer Renamed Again' } },
    { token: user.accessToken, body: { avatarColor: 'green' } },
  ],
  'v3:updateMyPreferences': async () => [
    { token: user.accessToken, body: { download: { archiveSize: 1_000_000 } } },
    { token: user.accessToken, body: { memories: { enabled: false }, tags: { enabled: true } } },
  ],
  'v3:deleteApiKey': async () => [{ token: user.accessToken, id: setup.v3Key }],
  // v3's shape of the same configuration: one lands, the other is a 409, as PUT /system-config.
  'v3:updateAdminConfig': async () => {
    const v3Route = routes.find((candidate) => candidate.operationId === 'getAdminConfig' && candidate.generation === 'v3') as Route;
    const config = await invoke(await handlerOf(v3Route), { path: '/api/admin/config', headers: bearer(admin.accessToken) });
    return [
      { token: admin.accessToken, body: { ...config.body, trash: { enabled: true, days: 33 } } },
      { token: admin.accessToken, body: { ...config.body, nightlyTasks: { ...config.body.nightlyTasks, startTime: '04:00' } } },
    ];
  },
  // The racer's PIN code: set once (the others: it exists), changed once (the others proved a PIN no longer current), reset.
  'v3:setupPinCode': async () => [{ token: user.accessToken, body: { pinCode: '123456' } }],
  'v3:changePinCode': async () => [
    { token: user.accessToken, body: { password: 'password-Racer', newPinCode: '222222' } },
    { token: user.accessToken, body: { password: 'password-Racer', newPinCode: '333333' } },
  ],
  'v3:resetPinCode': async () => [{ token: user.accessToken, body: { password: 'password-Racer' } }],
  'v3:unlockAuthSession': async () => [{ token: user.accessToken, body: { pinCode: '123456' } }],
  'v3:lockAuthSession': async () => [{ token: user.accessToken }],
  // A mark (or lock) set five times is set once; clearing it beside them leaves one of the two.
  'v3:updateSession': async () => {
    await login({ email: 'racer@immich.cloud', password: 'password-Racer' });
    const sessions = await invoke(await handlerOf(routes.find((r) => r.operationId === 'getSessions') as Route), {
      path: '/api/sessions',
      headers: bearer(user.accessToken),
    });
    const other = sessions.body.find((session: { current: boolean }) => !session.current)?.id as string;
    return [
      { token: user.accessToken, id: other, body: { isPendingSyncReset: true } },
      { token: user.accessToken, id: other, body: { isPendingSyncReset: false } },
    ];
  },
  'v3:lockSession': async () => {
    await login({ email: 'racer@immich.cloud', password: 'password-Racer' });
    const sessions = await invoke(await handlerOf(routes.find((r) => r.operationId === 'getSessions') as Route), {
      path: '/api/sessions',
      headers: bearer(user.accessToken),
    });
    const other = sessions.body.find((session: { current: boolean }) => !session.current)?.id as string;
    return [{ token: user.accessToken, id: other }];
  },
  // Five identical requests are five sessions (each its own token), as Immich's.
  'v3:createSession': async () => [{ token: user.accessToken, body: { duration: 60, deviceType: 'Cast' } }],
  'v3:deleteAllSessions': async () => [{ token: (await login({ email: 'racer@immich.cloud', password: 'password-Racer' })).accessToken }],
  'v3:deleteSession': async () => {
    const other = await login({ email: 'racer@immich.cloud', password: 'password-Racer' });
    const sessions = await invoke(await handlerOf(route('getAuthDevices')), {
      path: '/api/auth/devices',
      headers: bearer(other.accessToken),
    });
    const id = sessions.body.find((session: { current: boolean }) => !session.current)?.id ?? sessions.body[0].id;
    return [{ token: other.accessToken, id }];
  },
  // The sync endpoints: a stream (it may store backfill checkpoints) and acks, concurrent with themselves.
  'v3:getSyncStream': async () => [
    { token: user.accessToken, body: { types: ['AuthUsersV1', 'AssetsV2', 'AlbumsV2', 'AlbumAssetsV2', 'PartnerAssetsV2'] } },
    { token: user.accessToken, body: { types: ['AlbumUsersV1', 'AlbumToAssetsV1'], reset: true } },
  ],
  'v3:sendSyncAck': async () => [
    { token: user.accessToken, body: { acks: ['AssetV2|0190c1a2-0000-7000-8000-000000000000'] } },
    { token: user.accessToken, body: { acks: ['SyncResetV1|reset'] } },
  ],
  'v3:deleteSyncAck': async () => [
    { token: user.accessToken, body: {} },
    { token: user.accessToken, body: { types: ['AssetV2'] } },
  ],
  'v3:updateAdminOnboarding': async () => [
    { token: admin.accessToken, body: { isOnboarded: true } },
    { token: admin.accessToken, body: { isOnboarded: false } },
  ],
  // OAuth is off here (its races with a provider: test/functions/oauth.test.ts): the callback and link answer 400 at once.
  finishOAuth: async () => [{ token: '', body: { url: 'http://127.0.0.1/auth/login?code=x&state=y', state: 'y', codeVerifier: 'z' } }],
  linkOAuthAccount: async () => [
    { token: user.accessToken, body: { url: 'http://127.0.0.1/user-settings?code=x&state=y', state: 'y', codeVerifier: 'z' } },
  ],
  unlinkOAuthAccount: async () => [{ token: user.accessToken }],
  'v3:unlinkAllOAuthAccountsAdmin': async () => [{ token: admin.accessToken }],
  'v3:createUserAdmin': async () => [
    { token: admin.accessToken, body: { email: 'triplet@immich.cloud', password: 'password', name: 'Triplet', storageLabel: 'triplet' } },
  ],
  'v3:updateUserAdmin': async () => [
    { token: admin.accessToken, id: user.userId, body: { name: 'Racer Admin Renamed' } },
    { token: admin.accessToken, id: user.userId, body: { quotaSizeInBytes: 20_000_000_000 } },
  ],
  'v3:deleteUserAdmin': async () => [{ token: admin.accessToken, id: setup.victim, body: {} }],
  'v3:restoreUserAdmin': async () => [{ token: admin.accessToken, id: setup.victim }],
  'v3:updateUserPreferencesAdmin': async () => [
    { token: admin.accessToken, id: user.userId, body: { tags: { enabled: true } } },
    { token: admin.accessToken, id: user.userId, body: { ratings: { enabled: true } } },
  ],
  'v3:createProfileImage': async () => [
    { token: user.accessToken, raw: await multipart({}, { file: { data: makeJpeg({ color: [7, 70, 7] }), fileName: 'me.jpg' } }) },
  ],
  'v3:deleteProfileImage': async () => [{ token: user.accessToken }],
  'v3:createPartner': async () => [{ token: user.accessToken, body: { sharedWithId: setup.guest } }],
  'v3:createPartnerDeprecated': async () => [{ token: user.accessToken, id: setup.victim }],
  'v3:updatePartner': async () => [
    { token: setup.guestToken ?? '', id: user.userId, body: { inTimeline: true } },
    { token: setup.guestToken ?? '', id: user.userId, body: { inTimeline: false } },
  ],
  'v3:removePartner': async () => [{ token: user.accessToken, id: setup.guest }],
  'v3:createPerson': async () => [{ token: user.accessToken, body: { name: 'Made Twice v3', isFavorite: true } }],
  'v3:updatePeople': async () => [
    { token: user.accessToken, body: { people: [{ id: setup.person, isFavorite: true }] } },
    { token: user.accessToken, body: { people: [{ id: setup.person, name: 'Runner Bulk v3' }] } },
  ],
  'v3:updatePerson': async () => [
    { token: user.accessToken, id: setup.person, body: { name: 'Runner v3' } },
    { token: user.accessToken, id: setup.person, body: { color: '#123456' } },
  ],
  'v3:reassignFacesById': async () => {
    const photo = await facePhoto();
    return [
      { token: user.accessToken, id: photo.b, body: { id: photo.faceA } },
      { token: user.accessToken, id: photo.a, body: { id: photo.faceB } },
    ];
  },
  'v3:reassignFaces': async () => {
    const photo = await facePhoto();
    return [
      { token: user.accessToken, id: photo.b, body: { data: [{ assetId: photo.id, personId: photo.a }] } },
      { token: user.accessToken, id: photo.a, body: { data: [{ assetId: photo.id, personId: photo.b }] } },
    ];
  },
  // Five identical drawn faces are five faces (Immich's: a face is not unique by its box).
  'v3:createFace': async () => {
    const photo = await facePhoto();
    const box = { assetId: photo.id, imageWidth: 100, imageHeight: 100, x: 1, y: 1, width: 9, height: 9 };
    return [
      { token: user.accessToken, body: { ...box, personId: photo.a } },
      { token: user.accessToken, body: { ...box, personId: photo.b } },
    ];
  },
  'v3:deleteFace': async () => {
    const photo = await facePhoto();
    return [
      { token: user.accessToken, id: photo.faceA, body: { force: true } },
      { token: user.accessToken, id: photo.faceB, body: { force: false } },
    ];
  },
  'v3:mergePersonLegacy': async () => {
    await addPhoto(user.accessToken, { color: [6, 66, 6], mwgFaces: [{ name: 'Runner Triplet', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] });
    const triplet = (await personNamed(user.accessToken, 'Runner Triplet')).id;
    return [{ token: user.accessToken, id: setup.person, body: { ids: [triplet] } }];
  },
  'v3:createSharedLink': async () => [{ token: user.accessToken, body: { type: 'ALBUM', albumId: setup.album } }],
  'v3:updateSharedLink': async () => [{ token: user.accessToken, id: await link(), body: { description: 'v3', password: 'pw' } }],
  'v3:removeSharedLink': async () => [{ token: user.accessToken, id: await link() }],
  'v3:addSharedLinkAssets': async () => [{ token: user.accessToken, id: await individualLink(), body: { assetIds: [setup.c] } }],
  'v3:removeSharedLinkAssets': async () => [{ token: user.accessToken, id: await individualLink(), body: { assetIds: [setup.c] } }],
  // A read, but it may give a library stored before the lens facets its lenses once: as one stored
  // before (no mark on the user), concurrent first requests each count, one writes each month.
  getSearchSuggestions: async (): Promise<Call[]> => {
    await db.send(new UpdateCommand({ TableName: tableName, Key: keys.user(user.userId), UpdateExpression: 'REMOVE lensesIndexed' }));
    return [
      { token: user.accessToken, query: { type: 'camera-lens-model', includeNull: 'true' } },
      { token: user.accessToken, query: { type: 'camera-make', lensModel: 'none' } },
    ];
  },
  // A read, but it may count a user's usage by type once: concurrent counts must agree.
  getServerStatistics: async () => [{ token: admin.accessToken }],
  'v3:getServerStatistics': async () => [{ token: admin.accessToken }],
  'v3:setUserOnboarding': async () => [
    { token: user.accessToken, body: { isOnboarded: true } },
    { token: user.accessToken, body: { isOnboarded: false } },
  ],
  'v3:deleteUserOnboarding': async () => [{ token: user.accessToken }],
  'v3:setUserLicense': async () => [
    { token: user.accessToken, body: productKey('IMCL-1111-2222-3333-4444-5555-6666-7777-8888') },
    { token: user.accessToken, body: productKey('IMSV-AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GGGG-HHHH') },
  ],
  'v3:deleteUserLicense': async () => {
    await invoke(await handlerOf(routes.find((r) => r.generation === 'v3' && r.operationId === 'setUserLicense') as Route), {
      method: 'PUT',
      path: '/api/users/me/license',
      headers: bearer(user.accessToken),
      body: productKey('IMCL-1111-2222-3333-4444-5555-6666-7777-8888'),
    });
    return [{ token: user.accessToken }];
  },
  'v3:setServerLicense': async () => [
    { token: admin.accessToken, body: productKey('IMSV-AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GGGG-HHHH') },
    { token: admin.accessToken, body: productKey('IMSV-1111-BBBB-CCCC-DDDD-EEEE-FFFF-GGGG-HHHH') },
  ],
  'v3:deleteServerLicense': async () => [{ token: admin.accessToken }],
  'v3:editAsset': async () => [
    { token: user.accessToken, id: setup.c, body: { edits: [{ action: 'rotate', parameters: { angle: 90 } }] } },
    { token: user.accessToken, id: setup.c, body: { edits: [{ action: 'mirror', parameters: { axis: 'horizontal' } }] } },
  ],
  'v3:removeAssetEdits': async () => [{ token: user.accessToken, id: setup.c }],
  'v3:createWorkflow': async () => [
    { token: user.accessToken, body: { trigger: 'AssetCreate', name: 'Twin' } },
    { token: user.accessToken, body: { trigger: 'AssetTagged' } },
  ],
  'v3:updateWorkflow': async () => {
    const id = await workflow();
    return [
      { token: user.accessToken, id, body: { name: 'First' } },
      { token: user.accessToken, id, body: { enabled: false, logging: true } },
    ];
  },
  'v3:deleteWorkflow': async () => [{ token: user.accessToken, id: await workflow() }],
  'v3:getAllAlbums': async (): Promise<Call[]> => [{ token: user.accessToken }, { token: user.accessToken, query: { shared: 'true' } }],
  'v3:createAlbum': async () => [{ token: user.accessToken, body: { albumName: 'Twins v3', assetIds: [setup.a, setup.c] } }],
  'v3:addAssetsToAlbums': async () => [{ token: user.accessToken, body: { albumIds: [setup.album, setup.doomedV3], assetIds: [setup.c] } }],
  'v3:updateAlbumInfo': async () => [
    { token: user.accessToken, id: setup.album, body: { albumName: 'Renamed v3' } },
    { token: user.accessToken, id: setup.album, body: { order: 'desc', isActivityEnabled: false } },
  ],
  'v3:deleteAlbum': async () => [{ token: user.accessToken, id: setup.doomedV3 }],
  'v3:addAssetsToAlbum': async () => [
    { token: user.accessToken, id: setup.album, body: { ids: [setup.c] } },
    { token: user.accessToken, id: setup.album, body: { ids: [setup.a, setup.c] } },
  ],
  'v3:removeAssetFromAlbum': async () => [
    { token: user.accessToken, id: setup.album, body: { ids: [setup.c] } },
    { token: user.accessToken, id: setup.album, body: { ids: [setup.a, setup.c] } },
  ],
  'v3:addUsersToAlbum': async () => [
    { token: user.accessToken, id: setup.album, body: { albumUsers: [{ userId: setup.guest, role: 'viewer' }] } },
    { token: user.accessToken, id: setup.album, body: { albumUsers: [{ userId: setup.victim }] } },
  ],
  'v3:updateAlbumUser': async () => {
    const params = { id: setup.album ?? '', userId: setup.guest ?? '' };
    const path = `/api/albums/${setup.album}/user/${setup.guest}`;
    return [
      { token: user.accessToken, path, params, body: { role: 'editor' } },
      { token: user.accessToken, path, params, body: { role: 'viewer' } },
    ];
  },
  'v3:removeUserFromAlbum': async () => [
    {
      token: user.accessToken,
      path: `/api/albums/${setup.album}/user/${setup.guest}`,
      params: { id: setup.album ?? '', userId: setup.guest ?? '' },
    },
  ],
  'v3:uploadAsset': async () => {
    const data = makeJpeg({ color: [99, 9, 99] });
    const now = new Date().toISOString();
    return [
      {
        token: user.accessToken,
        raw: await multipart({ fileCreatedAt: now, fileModifiedAt: now }, { assetData: { data, fileName: 'v3.jpg' } }),
      },
    ];
  },
  // Metadata of d too: v3's deleteAssets (after these in the table) deletes d for good, and its keys with it.
  'v3:updateBulkAssetMetadata': async () => [
    {
      token: user.accessToken,
      body: {
        items: [
          { assetId: setup.a, key: 'mobile-app', value: { n: '1' } },
          { assetId: setup.d, key: 'mobile-app', value: { n: '1' } },
        ],
      },
    },
    {
      token: user.accessToken,
      body: {
        items: [
          { assetId: setup.a, key: 'mobile-app', value: { n: '2' } },
          { assetId: setup.c, key: 'other', value: {} },
        ],
      },
    },
  ],
  'v3:deleteBulkAssetMetadata': async () => [
    { token: user.accessToken, body: { items: [{ assetId: setup.c, key: 'other' }] } },
    {
      token: user.accessToken,
      body: {
        items: [
          { assetId: setup.c, key: 'other' },
          { assetId: setup.a, key: 'never' },
        ],
      },
    },
  ],
  'v3:updateAssetMetadata': async () => [
    { token: user.accessToken, id: setup.d, body: { items: [{ key: 'k', value: { n: 1 } }] } },
    {
      token: user.accessToken,
      id: setup.d,
      body: {
        items: [
          { key: 'k', value: { n: 2 } },
          { key: 'j', value: {} },
        ],
      },
    },
  ],
  'v3:deleteAssetMetadata': async () => [
    { token: user.accessToken, path: `/api/assets/${setup.d}/metadata/j`, params: { id: setup.d ?? '', key: 'j' } },
  ],
  'v3:updateAsset': async () => [
    { token: user.accessToken, id: setup.a, body: { visibility: 'archive', dateTimeOriginal: '2022-02-02T10:00:00.000+02:00' } },
    { token: user.accessToken, id: setup.a, body: { isFavorite: true, rating: 3 } },
    { token: user.accessToken, id: setup.a, body: { dateTimeOriginal: '2023-03-31T23:30:00.000-05:00' } },
  ],
  'v3:updateAssets': async () => [
    { token: user.accessToken, body: { ids: [setup.a, setup.c], isFavorite: true, dateTimeRelative: 60 * 24 * 20 } },
    { token: user.accessToken, body: { ids: [setup.c], visibility: 'timeline', isFavorite: false, timeZone: 'Pacific/Kiritimati' } },
  ],
  'v3:deleteAssets': async () => [
    { token: user.accessToken, body: { ids: [setup.d] } },
    { token: user.accessToken, body: { ids: [setup.d], force: true } },
  ],
  // Idempotent: every request records the same onboarding.
  setAdminOnboarding: async () => [{ token: admin.accessToken }, { token: admin.accessToken }],
  updateConfig: async () => {
    const config = await invoke(await handlerOf(route('getConfig')), { path: '/api/system-config', headers: bearer(admin.accessToken) });
    return [
      { token: admin.accessToken, body: { ...config.body, trash: { enabled: true, days: 31 } } },
      { token: admin.accessToken, body: { ...config.body, trash: { enabled: true, days: 32 } } },
    ];
  },
  uploadFile: async () => {
    const data = makeJpeg({ color: [9, 9, 99] });
    const now = new Date().toISOString();
    const raw = await multipart(
      { deviceAssetId: 'same', deviceId: 'race', fileCreatedAt: now, fileModifiedAt: now },
      { assetData: { data, fileName: 'same.jpg' } },
    );
    return [{ token: user.accessToken, raw }];
  },
  // Six sessions at once, each holding its size of the quota (the holds are checked below).
  createUploadSession: async () => [
    { token: user.accessToken, body: sessionBody(makeJpeg({ color: [9, 99, 9] }), 'session.jpg') },
    { token: user.accessToken, body: sessionBody(makeJpeg({ color: [9, 99, 99] }), 'other.jpg') },
  ],
  getUploadSession: async () => sessionCalls(await openSession([10, 1, 1], false)),
  // Five completions of one session at once: one records the asset, none a second time.
  completeUploadSession: async () => sessionCalls(await openSession([10, 2, 2], true)),
  deleteUploadSession: async () => sessionCalls(await openSession([10, 3, 3], true)),
  updatePerson: async () => [
    { token: user.accessToken, id: setup.person, body: { name: 'Runner Two' } },
    { token: user.accessToken, id: setup.person, body: { name: 'Runner Three' } },
  ],
  updateAsset: async () => [
    { token: user.accessToken, id: setup.a, body: { isArchived: true, dateTimeOriginal: '2021-01-01T00:30:00+01:00' } },
    { token: user.accessToken, id: setup.a, body: { isFavorite: true } },
  ],
  deleteAssets: async () => [
    { token: user.accessToken, body: { ids: [setup.b] } },
    { token: user.accessToken, body: { ids: [setup.b], force: true } },
  ],
  restoreAssets: async () => [{ token: user.accessToken, body: { ids: [setup.a] } }],
  // The jobs commands (the admin's): five clear-faileds at once beside a start; five manual jobs beside one.
  sendJobCommand: async () => [
    {
      token: admin.accessToken,
      path: '/api/jobs/thumbnailGeneration',
      params: { name: 'thumbnailGeneration' },
      body: { command: 'clear-failed', force: false },
    },
    {
      token: admin.accessToken,
      path: '/api/jobs/library',
      params: { name: 'library' },
      body: { command: 'start', force: false },
    },
  ],
  'v3:createJob': async () => [
    { token: admin.accessToken, body: { name: 'tag-cleanup' } },
    { token: admin.accessToken, body: { name: 'memory-cleanup' } },
  ],
  'v3:updateQueue': async () => [
    {
      token: admin.accessToken,
      path: '/api/queues/thumbnailGeneration',
      params: { name: 'thumbnailGeneration' },
      body: { isPaused: true },
    },
    {
      token: admin.accessToken,
      path: '/api/queues/thumbnailGeneration',
      params: { name: 'thumbnailGeneration' },
      body: { isPaused: false },
    },
  ],
  'v3:emptyQueue': async () => [
    {
      token: admin.accessToken,
      path: '/api/queues/thumbnailGeneration/jobs',
      params: { name: 'thumbnailGeneration' },
      body: { failed: true },
    },
    { token: admin.accessToken, path: '/api/queues/backgroundTask/jobs', params: { name: 'backgroundTask' }, body: {} },
  ],
  runAssetJobs: async () => [
    { token: user.accessToken, body: { assetIds: [setup.d], name: 'regenerate-thumbnail' } },
    { token: user.accessToken, body: { assetIds: [setup.d, setup.d], name: 'regenerate-thumbnail' } },
  ],
  'v3:runAssetJobs': async () => [
    { token: user.accessToken, body: { assetIds: [setup.d], name: 'regenerate-thumbnail' } },
    { token: user.accessToken, body: { assetIds: [setup.d], name: 'transcode-video' } },
  ],
  updateStackParent: async () => {
    const { assets } = await newStack();
    const [first = '', second = '', third = ''] = assets;
    return [
      { token: user.accessToken, body: { oldParentId: first, newParentId: second } },
      { token: user.accessToken, body: { oldParentId: first, newParentId: third } },
    ];
  },
  updateAssets: async () => [
    { token: user.accessToken, body: { ids: [setup.a, setup.c], isFavorite: true, dateTimeOriginal: '2020-12-31T23:00:00-01:00' } },
    { token: user.accessToken, body: { ids: [setup.c], isArchived: true, isFavorite: false } },
  ],
  emptyTrash: async () => {
    const doomed = await addPhoto(user.accessToken, { color: [4, 4, 4] });
    expect((await trash(user.accessToken, [doomed])).status).toBe(204);
    return [{ token: user.accessToken }];
  },
  restoreTrash: async () => {
    const back = await addPhoto(user.accessToken, { color: [5, 5, 5] });
    expect((await trash(user.accessToken, [back])).status).toBe(204);
    return [{ token: user.accessToken }];
  },
  // The lists keep each album's summary (docs/data-model.md, "Album summaries"): racing lists write it once.
  getAllAlbums: async (): Promise<Call[]> => [
    { token: user.accessToken },
    { token: user.accessToken, query: { shared: 'false' } },
    { token: user.accessToken, query: { assetId: String(setup.a) } },
  ],
  createAlbum: async () => [{ token: user.accessToken, body: { albumName: 'Twins', assetIds: [setup.a, setup.c] } }],
  addAssetsToAlbum: async () => [
    { token: user.accessToken, id: setup.album, body: { ids: [setup.c] } },
    { token: user.accessToken, id: setup.album, body: { ids: [setup.a, setup.c] } },
  ],
  removeAssetFromAlbum: async () => [
    { token: user.accessToken, id: setup.album, body: { ids: [setup.c] } },
    { token: user.accessToken, id: setup.album, body: { ids: [setup.a, setup.c] } },
  ],
  createSharedLink: async () => [{ token: user.accessToken, body: { type: 'ALBUM', albumId: setup.album } }],
  updateSharedLink: async () => [{ token: user.accessToken, id: await link(), body: { description: 'one', password: 'pw' } }],
  removeSharedLink: async () => [{ token: user.accessToken, id: await link() }],
  addSharedLinkAssets: async () => [{ token: user.accessToken, id: await individualLink(), body: { assetIds: [setup.c] } }],
  removeSharedLinkAssets: async () => [{ token: user.accessToken, id: await individualLink(), body: { assetIds: [setup.c] } }],
};

/** A session of the user's for a new photo, with its one part sent when asked. */
const openSession = async (color: [number, number, number], sendPart: boolean): Promise<string> => {
  const data = makeJpeg({ color });
  const created = await createSession(user.accessToken, sessionBody(data, 'raced.jpg'));
  if (sendPart) expect((await putPart(created.body.parts[0], partsOf(data)[0] ?? data)).status).toBe(200);
  return created.body.sessionId as string;
};
const sessionCalls = (sessionId: string): Call[] => [
  { token: user.accessToken, path: `/api/asset/upload-session/${sessionId}`, params: { sessionId } },
];

const route = (operationId: string): Route => {
  const found = routes.find((candidate) => candidate.operationId === operationId && !candidate.generation);
  if (!found) throw new Error(operationId);
  return found;
};

const link = async (): Promise<string> => {
  const reply = await invoke(await handlerOf(route('createSharedLink')), {
    method: 'POST',
    path: '/api/shared-link',
    headers: bearer(user.accessToken),
    body: { type: 'ALBUM', albumId: setup.album },
  });
  return reply.body.id;
};
let individual: string | undefined;
const individualLink = async (): Promise<string> => {
  individual ??= (
    await invoke(await handlerOf(route('createSharedLink')), {
      method: 'POST',
      path: '/api/shared-link',
      headers: bearer(user.accessToken),
      body: { type: 'INDIVIDUAL', assetIds: [setup.a] },
    })
  ).body.id as string;
  return individual;
};

/** A route's key in `requests`: its operation id, prefixed by its generation when that is v3 (`v3:createApiKey`). */
const nameOf = (candidate: Route): string =>
  candidate.generation ? `${candidate.generation}:${candidate.operationId}` : candidate.operationId;

// Every write route, sent the same request five times at once and an overlapping one beside
// them: no answer is a 5xx, and afterwards the stored counts agree with the stored items. Last in
// the file, as its routes change the racer's and the admin's account and settings.
describe('every write route under concurrent identical and overlapping requests', () => {
  beforeAll(async () => {
    await ensureAdmin();
    admin = await login(fixtures.admin);
    user = await freshUser(admin.accessToken, 'Racer');
    const token = user.accessToken;
    setup.a = await addPhoto(token, { color: [1, 1, 1], mwgFaces: [{ name: 'Runner', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] });
    setup.b = await addPhoto(token, { color: [2, 2, 2], make: 'Race', model: 'Cam', lensModel: 'Race 50mm' });
    setup.c = await addPhoto(token, { color: [3, 3, 3], make: 'Race', model: 'Cam' });
    setup.album = (await createAlbum(token, { albumName: 'Concurrent', assetIds: [setup.a] })).id;
    setup.person = (await personNamed(token, 'Runner')).id;
    setup.key = (await createApiKey(token, 'concurrent')).apiKey.id;
    setup.renamedKey = (await createApiKey(token, 'renamed')).apiKey.id;
    setup.v3Key = (await createApiKey(token, 'doomed v3')).apiKey.id;
    setup.doomed = (await createAlbum(token, { albumName: 'Doomed', assetIds: [setup.b, setup.c] })).id;
    setup.doomedV3 = (await createAlbum(token, { albumName: 'Doomed v3' })).id;
    setup.d = await addPhoto(token, { color: [8, 8, 8] });
    setup.victim = (await freshUser(admin.accessToken, 'Victim')).userId;
    const guest = await freshUser(admin.accessToken, 'Guest');
    setup.guest = guest.userId;
    setup.guestToken = guest.accessToken;
    const notification = routes.find((r) => r.generation === 'v3' && r.operationId === 'createNotification') as Route;
    setup.notification = (
      await invoke(await handlerOf(notification), {
        method: 'POST',
        path: '/api/admin/notifications',
        headers: bearer(admin.accessToken),
        body: { userId: user.userId, title: 'Racing' },
      })
    ).body.id;
  });

  const writeRoutes = routes.filter((candidate) => candidate.data === 'write');

  /**
   * A new session of the racer's, made by a parent session through v3's POST /sessions (as the web
   * app casts with one): a sign-in's password hash (argon2id) for each of the routes cost a third
   * of this block's time. A sign-in only when an earlier route ended the parent too.
   */
  let parent: string | undefined;
  const newSession = async (): Promise<string> => {
    const child = () => invoke(createSessionHandler, { method: 'POST', path: '/api/sessions', headers: bearer(parent ?? ''), body: {} });
    let reply = parent ? await child() : undefined;
    if (reply?.status !== 201) {
      parent = (await login({ email: 'racer@immich.cloud', password: 'password-Racer' })).accessToken;
      reply = await child();
    }
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body.token as string;
  };

  it('has a request for every write route (a new one must be added here)', () => {
    expect(writeRoutes.map(nameOf).sort()).toEqual(Object.keys(requests).sort());
  });

  it.each(writeRoutes.map((candidate) => [nameOf(candidate), candidate] as const))('%s: no 5xx', async (name, writeRoute) => {
    const handler = await handlerOf(writeRoute);
    // A session of its own: an earlier route (logoutAuthDevices, changePassword) may have ended the last one.
    user.accessToken = await newSession();
    const [same, ...others] = (await requests[name]?.()) ?? [];
    if (!same) throw new Error(`no request for ${name}`);
    const send = (call: Call) =>
      invoke(handler, {
        method: writeRoute.method,
        path: call.path ?? writeRoute.path.replace('{id}', call.id ?? ''),
        ...(call.query ? { query: call.query } : {}),
        ...(call.params ? { pathParameters: call.params } : call.id ? { pathParameters: { id: call.id } } : {}),
        headers: { ...(call.token ? bearer(call.token) : {}), ...(call.raw ? { 'content-type': call.raw.contentType } : {}) },
        ...(call.raw ? { body: call.raw.body } : call.body === undefined ? {} : { body: call.body }),
      });
    const replies = await Promise.all([...Array.from({ length: 5 }, () => send(same)), ...others.map(send)]);
    for (const reply of replies) expect(reply.status, `${name}: ${JSON.stringify(reply.body)}`).toBeLessThan(500);
    // The requests were let in (the route's own answers, not a stale session's).
    expect(replies.some((reply) => reply.status !== 401 || !same.token)).toBe(true);
  });

  it('leaves the stored counts in agreement with the stored items', async () => {
    const items = await tableItems();
    const assets = items.filter((item) => item.type === 'asset');
    for (const asset of assets) {
      const entries = items.filter((item) => item.type === 'albumAsset' && item.assetId === asset.id).length;
      expect(asset.albumCount ?? 0, `albumCount of ${asset.id}`).toBe(entries);
    }
    for (const album of items.filter((item) => item.type === 'album')) {
      // The album's list of users and their items agree.
      const shares = items.filter((item) => item.type === 'albumUser' && item.albumId === album.id).map((item) => item.userId);
      expect([...((album.sharedUserIds as string[] | undefined) ?? [])].sort(), `sharedUserIds of ${album.id}`).toEqual(shares.sort());
      const links = items.filter((item) => item.type === 'sharedLink' && item.albumId === album.id).length;
      expect(album.sharedLinkCount ?? 0, `sharedLinkCount of ${album.id}`).toBe(links);
      for (const entry of items.filter((item) => item.type === 'albumAsset' && item.albumId === album.id)) {
        expect(
          assets.some((asset) => asset.id === entry.assetId),
          'an album entry points at an asset',
        ).toBe(true);
      }
    }
    for (const person of items.filter((item) => item.type === 'person' && item.ownerId === user.userId)) {
      const faces = items.filter((item) => item.type === 'face' && item.personId === person.id).length;
      expect(person.faceCount, `faceCount of ${String(person.name)}`).toBe(faces);
    }
    const usage = (items.find((item) => item.type === 'user' && item.id === user.userId)?.quotaUsageInBytes as number) ?? 0;
    const sizes = assets
      .filter((asset) => asset.ownerId === user.userId)
      .reduce((sum, asset) => sum + Number((asset.exif as { fileSizeInByte?: number }).fileSizeInByte ?? 0), 0);
    expect(usage).toBe(sizes);
    // Every open upload session holds its size, and only those do (none lost or left by the races).
    const holds = (items.find((item) => item.type === 'user' && item.id === user.userId)?.uploadSessions ?? {}) as Record<
      string,
      { bytes: number }
    >;
    const open = items.filter((item) => item.type === 'uploadSession' && item.ownerId === user.userId);
    expect(Object.keys(holds).sort()).toEqual(open.map((item) => String(item.id)).sort());
    for (const session of open) expect(holds[String(session.id)]?.bytes).toBe(session.size);
    // One profile image is left (the one the user item names), none orphaned by the racing writes.
    const profile = (items.find((item) => item.type === 'user' && item.id === user.userId)?.profileImagePath as string) ?? '';
    expect((await storedFiles()).filter((key) => key.startsWith(`profile/${user.userId}/`))).toEqual(profile ? [profile] : []);
    const checksums = items.filter((item) => item.type === 'checksum').length;
    expect(checksums).toBe(assets.length);
    // The timeline counters: per month of localDateTime, the user's visible assets; and the
    // stacks' hidden members, counted again apart (`sm_`: the stack writes raced above).
    const perMonth = (counted: (asset: (typeof assets)[number]) => boolean) => {
      const months = new Map<string, number>();
      for (const asset of assets.filter((each) => each.ownerId === user.userId && each.visibility !== 'hidden' && counted(each))) {
        const month = String(asset.localDateTime).slice(0, 7);
        months.set(month, (months.get(month) ?? 0) + 1);
      }
      return Object.fromEntries(months);
    };
    const counters = (prefix: string) => {
      const counted = new Map<string, number>();
      for (const item of items.filter((each) => each.type === 'timeBuckets' && each.pk === `BUCKETS#${user.userId}`)) {
        const total = Object.entries(item)
          .filter(([name]) => name.startsWith(prefix))
          .reduce((sum, [, value]) => sum + Number(value), 0);
        if (total !== 0) counted.set(String(item.sk), total);
      }
      return Object.fromEntries(counted);
    };
    expect(counters('m_')).toEqual(perMonth(() => true));
    expect(counters('sm_')).toEqual(perMonth((asset) => asset.stackHidden === true));
    // The lens facets (the suggestions' backfill raced the writes above): each untrashed asset outside
    // the locked folder with a camera or a lens, once.
    const exif = (asset: (typeof assets)[number]) => asset.exif as Record<string, unknown>;
    expect(counters('xl[')).toEqual(
      perMonth(
        (asset) =>
          asset.deletedAt === null &&
          asset.visibility !== 'locked' &&
          [exif(asset).make, exif(asset).model, exif(asset).lensModel].some((value) => typeof value === 'string' && value !== ''),
      ),
    );
    // Every stack's members say they are in it, and no asset names a stack that is gone.
    const stacks = items.filter((item) => item.type === 'stack' && item.ownerId === user.userId);
    for (const stack of stacks)
      for (const id of stack.assetIds as string[]) {
        const member = assets.find((asset) => asset.id === id);
        if (member) expect((member.stack as { id: string } | null)?.id).toBe(stack.id);
      }
    for (const asset of assets.filter((each) => each.stack))
      expect(stacks.map((stack) => stack.id)).toContain((asset.stack as { id: string }).id);
    // No asset metadata outlives its asset (one deleted for good takes its keys along).
    const metadata = items.filter((item) => item.type === 'assetMetadata');
    expect(metadata.length).toBeGreaterThan(0);
    for (const item of metadata)
      expect(
        assets.some((asset) => asset.id === item.assetId),
        `metadata of ${String(item.assetId)}`,
      ).toBe(true);
  });
});
