import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as emptyTrash } from '#functions/trash/empty-trash.ts';
import { handler as createApiKey } from '#functions/v3/api-key/create-api-key.ts';
import { handler as deleteAssetMetadata } from '#functions/v3/asset/delete-asset-metadata.ts';
import { handler as deleteAssets } from '#functions/v3/asset/delete-assets.ts';
import { handler as deleteBulkAssetMetadata } from '#functions/v3/asset/delete-bulk-asset-metadata.ts';
import { handler as getAssetMetadata } from '#functions/v3/asset/get-asset-metadata.ts';
import { handler as getAssetMetadataByKey } from '#functions/v3/asset/get-asset-metadata-by-key.ts';
import { handler as updateAsset } from '#functions/v3/asset/update-asset.ts';
import { handler as updateAssetMetadata } from '#functions/v3/asset/update-asset-metadata.ts';
import { handler as updateBulkAssetMetadata } from '#functions/v3/asset/update-bulk-asset-metadata.ts';
import { handler as uploadAsset } from '#functions/v3/asset/upload-asset.ts';
import { handler as setupPinCode } from '#functions/v3/auth/setup-pin-code.ts';
import { handler as unlockSession } from '#functions/v3/auth/unlock-auth-session.ts';
import { handler as createPartner } from '#functions/v3/partner/create-partner.ts';
import * as assetMetadataRepo from '#shared/db/asset-metadata.repository.ts';
import { assetItem } from '#shared/db/items/asset.ts';
import * as partitions from '#shared/db/partitions.ts';
import { queryAll } from '#shared/db/query.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { putItems } from '../support/bulk-write.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, createAlbum } from '../support/library.ts';
import { makeJpeg } from '../support/photos.ts';
import { assetRecord } from '../support/records.ts';
import { SyncClient } from '../support/sync-client.ts';
import { multipart } from '../support/uploads.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

type Headers = Record<string, string>;
const as = (token: string): Headers => bearer(token);

const list = (headers: Headers, id: string) =>
  invoke(getAssetMetadata, { path: `/api/assets/${id}/metadata`, headers, pathParameters: { id } });
const put = (headers: Headers, id: string, items: unknown) =>
  invoke(updateAssetMetadata, { method: 'PUT', path: `/api/assets/${id}/metadata`, headers, pathParameters: { id }, body: { items } });
const getKey = (headers: Headers, id: string, key: string) =>
  invoke(getAssetMetadataByKey, {
    path: `/api/assets/${id}/metadata/${encodeURIComponent(key)}`,
    headers,
    pathParameters: { id, key },
  });
const deleteKey = (headers: Headers, id: string, key: string) =>
  invoke(deleteAssetMetadata, {
    method: 'DELETE',
    path: `/api/assets/${id}/metadata/${encodeURIComponent(key)}`,
    headers,
    pathParameters: { id, key },
  });
const putBulk = (headers: Headers, items: unknown) =>
  invoke(updateBulkAssetMetadata, { method: 'PUT', path: '/api/assets/metadata', headers, body: { items } });
const deleteBulk = (headers: Headers, items: unknown) =>
  invoke(deleteBulkAssetMetadata, { method: 'DELETE', path: '/api/assets/metadata', headers, body: { items } });

/** What the iOS app keeps under `mobile-app` (RemoteAssetMobileAppMetadata): every value a string. */
const cloudId = (n: number) => ({
  iCloudId: `8F1E2C1A-6D2B-4B1E-9F2E-${String(n).padStart(12, '0')}:001:AWKeBa3ue4sXeO9xUfmDOiwBn0Xq`,
  createdAt: '2023-06-15T10:23:45.000Z',
  adjustmentTime: '2023-06-15T10:25:00.000Z',
  latitude: '37.33182',
  longitude: '-122.03118',
});

/** The metadata items stored for an asset, read from the table itself. */
const storedFor = (assetId: string) => queryAll(partitions.assetMetadata(assetId));

/** POST /assets as the iOS app sends it: the `metadata` field a JSON text of `[{key, value}]`. */
const uploadWithMetadata = async (token: string, metadata: string, data = makeJpeg({ color: [Math.random() * 255, 40, 90] })) => {
  const fields = { fileCreatedAt: '2024-05-06T07:08:09.000Z', fileModifiedAt: '2024-05-06T07:08:09.000Z', metadata };
  const { body, contentType } = await multipart(fields, { assetData: { data, fileName: 'IMG_0001.jpg', contentType: 'image/jpeg' } });
  return invoke(uploadAsset, { method: 'POST', path: '/api/assets', headers: { ...bearer(token), 'content-type': contentType }, body });
};

const keyWith = async (token: string, permissions: string[]): Promise<Headers> => {
  const reply = await invoke(createApiKey, { method: 'POST', path: '/api/api-keys', headers: bearer(token), body: { permissions } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { 'x-api-key': reply.body.secret };
};

const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

describe('asset metadata (v3): GET and PUT /assets/{id}/metadata, GET and DELETE /assets/{id}/metadata/{key}', () => {
  it('keeps each key’s value exactly as sent, replaces a value whole, and lists the keys in order', async () => {
    const token = accounts.user1.accessToken;
    const id = await addPhoto(token);
    // Strings stay strings (the app reads its coordinates back `as String`), numbers stay numbers,
    // and keys valibot's record would drop, or DynamoDB could not hold in a map, come back too.
    const sent = [
      { key: 'mobile-app', value: cloudId(1) },
      { key: 'b-odd', value: JSON.parse('{"constructor":1,"":"empty key","nested":{"deep":[1,"1",null,true,{"x":1e-7}]},"big":1e300}') },
      { key: 'a-unicode', value: { ünï: '🙂', quote: '"\\', newline: '\n' } },
    ];
    const reply = await put(as(token), id, sent);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toEqual(sent.map((item) => ({ key: item.key, value: item.value, updatedAt: iso })));

    const listed = await list(as(token), id);
    expect(listed.status).toBe(200);
    expect(listed.body.map((item: { key: string }) => item.key)).toEqual(['a-unicode', 'b-odd', 'mobile-app']);
    expect(JSON.stringify(listed.body)).toBe(JSON.stringify([reply.body[2], reply.body[1], reply.body[0]]));
    const one = await getKey(as(token), id, 'mobile-app');
    expect(one).toMatchObject({ status: 200, body: { key: 'mobile-app', value: cloudId(1), updatedAt: reply.body[0].updatedAt } });
    expect(typeof one.body.value.latitude).toBe('string');

    // An upsert replaces the value whole (no merge), moves its date, and leaves the other keys be.
    const again = await put(as(token), id, [{ key: 'mobile-app', value: { iCloudId: 'other' } }]);
    expect(again.body).toEqual([{ key: 'mobile-app', value: { iCloudId: 'other' }, updatedAt: iso }]);
    expect(again.body[0].updatedAt >= reply.body[0].updatedAt).toBe(true);
    expect((await getKey(as(token), id, 'mobile-app')).body.value).toEqual({ iCloudId: 'other' });
    expect((await list(as(token), id)).body).toHaveLength(3);
    // Nothing to write: Immich's empty answer.
    expect(await put(as(token), id, [])).toMatchObject({ status: 200, body: [] });
  });

  it('answers a missing key with Immich’s 400 naming it, and deletes a key (a missing one is no error)', async () => {
    const token = accounts.user1.accessToken;
    const id = await addPhoto(token);
    expect(await getKey(as(token), id, 'nope')).toMatchObject({
      status: 400,
      body: { message: `Metadata with key "nope" not found for asset with id "${id}"` },
    });
    // A key no item could hold is not there either (never a 500).
    const long = 'k'.repeat(2_000);
    expect((await getKey(as(token), id, long)).body.message).toBe(`Metadata with key "${long}" not found for asset with id "${id}"`);
    expect((await deleteKey(as(token), id, long)).status).toBe(204);

    await put(as(token), id, [
      { key: 'one', value: { a: 1 } },
      { key: 'two/with slash', value: { b: 2 } },
    ]);
    expect((await getKey(as(token), id, 'two/with slash')).body.value).toEqual({ b: 2 });
    expect((await deleteKey(as(token), id, 'two/with slash')).status).toBe(204);
    expect((await deleteKey(as(token), id, 'two/with slash')).status).toBe(204);
    expect((await deleteKey(as(token), id, 'never')).status).toBe(204);
    expect((await list(as(token), id)).body.map((item: { key: string }) => item.key)).toEqual(['one']);
  });

  it('refuses what Immich’s schema refuses, and repeated keys, writing nothing', async () => {
    const token = accounts.user1.accessToken;
    const id = await addPhoto(token);
    const invalid = async (items: unknown, path: (string | number)[], message: string) => {
      const reply = await put(as(token), id, items);
      expect(reply.status, JSON.stringify(reply.body)).toBe(400);
      expect(reply.body).toEqual({ message: 'Validation failed', errors: [{ path, message }] });
    };
    await invalid(undefined, ['items'], 'items must be an array');
    await invalid({ key: 'a', value: {} }, ['items'], 'items must be an array');
    await invalid([{ key: 1, value: {} }], ['items', 0, 'key'], 'key must be a string');
    await invalid([{ key: 'a' }], ['items', 0, 'value'], 'value must be an object');
    await invalid([{ key: 'a', value: [1, 2] }], ['items', 0, 'value'], 'value must be an object');
    await invalid([{ key: 'a', value: 'text' }], ['items', 0, 'value'], 'value must be an object');
    await invalid([{ key: 'a', value: null }], ['items', 0, 'value'], 'value must be an object');
    // Limits an item has here (docs/immich-compatibility.md, "Asset metadata").
    await invalid([{ key: 'k'.repeat(251), value: {} }], ['items', 0, 'key'], 'key must be at most 250 characters');
    await invalid([{ key: 'a', value: { text: 'x'.repeat(33_000) } }], ['items', 0, 'value'], 'value must be at most 32768 bytes of JSON');
    const bad = await invoke(updateAssetMetadata, {
      method: 'PUT',
      path: '/api/assets/nope/metadata',
      headers: as(token),
      pathParameters: { id: 'nope' },
      body: { items: [] },
    });
    expect(bad.body).toEqual({ message: 'Validation failed', errors: [{ path: ['id'], message: 'id must be a UUID' }] });

    const twice = await put(as(token), id, [
      { key: 'a', value: { n: 1 } },
      { key: 'b', value: {} },
      { key: 'a', value: { n: 2 } },
    ]);
    expect(twice).toMatchObject({ status: 400, body: { message: 'Duplicate items are not allowed: "a"' } });
    expect(await storedFor(id)).toEqual([]);
  });

  it('lets only the owner write, and whoever may read the asset read: a partner and an album’s users', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'MetaOwner');
    const partner = await freshUser(accounts.admin.accessToken, 'MetaPartner');
    const member = await freshUser(accounts.admin.accessToken, 'MetaMember');
    const stranger = accounts.user2;
    const [shared, inAlbum] = [await addPhoto(owner.accessToken), await addPhoto(owner.accessToken)];
    await createAlbum(owner.accessToken, { albumName: 'Meta', assetIds: [inAlbum], sharedWithUserIds: [member.userId] });
    const partnership = await invoke(createPartner, {
      method: 'POST',
      path: '/api/partners',
      headers: as(owner.accessToken),
      body: { sharedWithId: partner.userId },
    });
    expect(partnership.status).toBe(201);
    for (const id of [shared, inAlbum]) expect((await put(as(owner.accessToken), id, [{ key: 'k', value: { v: id } }])).status).toBe(200);

    // Reading: the partner reads every asset of the owner's, the album's user that album's.
    expect((await list(as(partner.accessToken), shared)).body).toEqual([{ key: 'k', value: { v: shared }, updatedAt: iso }]);
    expect((await getKey(as(partner.accessToken), shared, 'k')).status).toBe(200);
    expect((await list(as(member.accessToken), inAlbum)).body).toHaveLength(1);
    const readRefused = { status: 400, body: { message: 'Not found or no asset.read access' } };
    expect(await list(as(member.accessToken), shared)).toMatchObject(readRefused);
    expect(await list(as(stranger.accessToken), shared)).toMatchObject(readRefused);
    expect(await getKey(as(stranger.accessToken), shared, 'k')).toMatchObject(readRefused);
    expect(await list(as(stranger.accessToken), randomUUID())).toMatchObject(readRefused);

    // Writing: the owner's alone, and all or nothing in a bulk request.
    const writeRefused = { status: 400, body: { message: 'Not found or no asset.update access' } };
    for (const token of [partner.accessToken, member.accessToken, stranger.accessToken]) {
      expect(await put(as(token), shared, [{ key: 'k', value: {} }])).toMatchObject(writeRefused);
      expect(await deleteKey(as(token), shared, 'k')).toMatchObject(writeRefused);
      expect(await putBulk(as(token), [{ assetId: shared, key: 'k', value: {} }])).toMatchObject(writeRefused);
      expect(await deleteBulk(as(token), [{ assetId: shared, key: 'k' }])).toMatchObject(writeRefused);
    }
    const mine = await addPhoto(partner.accessToken);
    const mixed = [
      { assetId: mine, key: 'k', value: { mine: true } },
      { assetId: shared, key: 'k', value: { taken: true } },
    ];
    expect(await putBulk(as(partner.accessToken), mixed)).toMatchObject(writeRefused);
    expect(await storedFor(mine)).toEqual([]);
    expect((await getKey(as(owner.accessToken), shared, 'k')).body.value).toEqual({ v: shared });
  });

  it('writes a locked photo’s metadata only in a session unlocked with the PIN code', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'MetaLocker');
    const token = owner.accessToken;
    const pin = await invoke(setupPinCode, { method: 'POST', path: '/api/auth/pin-code', headers: as(token), body: { pinCode: '123456' } });
    expect(pin.status).toBe(204);
    const id = await addPhoto(token);
    expect(
      (
        await invoke(updateAsset, {
          method: 'PUT',
          path: `/api/assets/${id}`,
          headers: as(token),
          pathParameters: { id },
          body: { visibility: 'locked' },
        })
      ).status,
    ).toBe(200);
    expect(await put(as(token), id, [{ key: 'k', value: {} }])).toMatchObject({
      status: 400,
      body: { message: 'Not found or no asset.update access' },
    });
    expect(await list(as(token), id)).toMatchObject({ status: 400, body: { message: 'Not found or no asset.read access' } });
    const unlocked = await invoke(unlockSession, {
      method: 'POST',
      path: '/api/auth/session/unlock',
      headers: as(token),
      body: { pinCode: '123456' },
    });
    expect(unlocked.status).toBe(204);
    expect((await put(as(token), id, [{ key: 'k', value: { locked: true } }])).status).toBe(200);
    expect((await list(as(token), id)).body).toEqual([{ key: 'k', value: { locked: true }, updatedAt: iso }]);
  });

  it('needs asset.read of an API key to read and asset.update to write, as Immich', async () => {
    const token = accounts.user1.accessToken;
    const id = await addPhoto(token);
    const reader = await keyWith(token, ['asset.read']);
    const writer = await keyWith(token, ['asset.update']);
    const missing = (permission: string) => ({ status: 403, body: { message: `Missing required permission: ${permission}` } });
    expect(await put(reader, id, [{ key: 'k', value: {} }])).toMatchObject(missing('asset.update'));
    expect(await putBulk(reader, [{ assetId: id, key: 'k', value: {} }])).toMatchObject(missing('asset.update'));
    expect(await deleteKey(reader, id, 'k')).toMatchObject(missing('asset.update'));
    expect(await deleteBulk(reader, [{ assetId: id, key: 'k' }])).toMatchObject(missing('asset.update'));
    expect(await list(writer, id)).toMatchObject(missing('asset.read'));
    expect(await getKey(writer, id, 'k')).toMatchObject(missing('asset.read'));
    expect(await storedFor(id)).toEqual([]);

    expect((await put(writer, id, [{ key: 'k', value: { by: 'key' } }])).status).toBe(200);
    expect((await list(reader, id)).body).toEqual([{ key: 'k', value: { by: 'key' }, updatedAt: iso }]);
    expect((await getKey(reader, id, 'k')).status).toBe(200);
  });
});

describe('asset metadata in bulk (v3): PUT and DELETE /assets/metadata', () => {
  it('upserts keys of many assets and answers each with its date, in the order sent', async () => {
    const token = accounts.user1.accessToken;
    const [a, b] = [await addPhoto(token), await addPhoto(token)];
    const items = [
      { assetId: a, key: 'mobile-app', value: cloudId(1) },
      { assetId: b, key: 'mobile-app', value: cloudId(2) },
      { assetId: a, key: 'other', value: { n: 1 } },
    ];
    const reply = await putBulk(as(token), items);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toEqual(items.map((item) => ({ ...item, updatedAt: iso })));
    expect(Object.keys(reply.body[0])).toEqual(['assetId', 'key', 'value', 'updatedAt']);
    expect((await list(as(token), a)).body.map((item: { key: string }) => item.key)).toEqual(['mobile-app', 'other']);
    expect((await getKey(as(token), b, 'mobile-app')).body.value).toEqual(cloudId(2));
    // Nothing asked, nothing written (Immich's upsert of no rows fails; here an empty answer).
    expect(await putBulk(as(token), [])).toMatchObject({ status: 200, body: [] });
  });

  it('refuses a key repeated for one asset, and bad items, with nothing written', async () => {
    const token = accounts.user1.accessToken;
    const [a, b] = [await addPhoto(token), await addPhoto(token)];
    const twice = await putBulk(as(token), [
      { assetId: a, key: 'k', value: {} },
      { assetId: b, key: 'k', value: {} },
      { assetId: a, key: 'k', value: { again: true } },
    ]);
    expect(twice).toMatchObject({ status: 400, body: { message: `Duplicate items are not allowed: "(${a}, k)"` } });
    const tooMany = await putBulk(
      as(token),
      Array.from({ length: 20_001 }, (_, n) => ({ assetId: a, key: `k${n}`, value: {} })),
    );
    expect(tooMany.body).toEqual({
      message: 'Validation failed',
      errors: [{ path: ['items'], message: 'items must contain at most 20000 items' }],
    });
    // Keys that differ only in a lone surrogate are one key as stored: a repeat, never two writes of one item.
    expect(
      (
        await putBulk(as(token), [
          { assetId: a, key: 'x\ud800', value: {} },
          { assetId: a, key: 'x\udbff', value: {} },
        ])
      ).body.message,
    ).toBe(`Duplicate items are not allowed: "(${a}, x\ufffd)"`);
    const invalid = await putBulk(as(token), [{ assetId: 'not-a-uuid', key: 'k', value: {} }]);
    expect(invalid.body).toEqual({
      message: 'Validation failed',
      errors: [{ path: ['items', 0, 'assetId'], message: 'assetId must be a UUID' }],
    });
    expect([...(await storedFor(a)), ...(await storedFor(b))]).toEqual([]);
  });

  it('deletes keys of many assets, a key named twice or not there included, and refuses an asset not the caller’s', async () => {
    const token = accounts.user1.accessToken;
    const [a, b] = [await addPhoto(token), await addPhoto(token)];
    await putBulk(as(token), [
      { assetId: a, key: 'x', value: {} },
      { assetId: a, key: 'y', value: {} },
      { assetId: b, key: 'x', value: {} },
    ]);
    const reply = await deleteBulk(as(token), [
      { assetId: a, key: 'x' },
      { assetId: a, key: 'x' },
      { assetId: b, key: 'x' },
      { assetId: b, key: 'never' },
    ]);
    expect(reply.status, JSON.stringify(reply.body)).toBe(204);
    expect((await list(as(token), a)).body.map((item: { key: string }) => item.key)).toEqual(['y']);
    expect((await list(as(token), b)).body).toEqual([]);
    expect((await deleteBulk(as(token), [])).status).toBe(204);
    const foreign = await addPhoto(accounts.user2.accessToken);
    expect(
      await deleteBulk(as(token), [
        { assetId: a, key: 'y' },
        { assetId: foreign, key: 'y' },
      ]),
    ).toMatchObject({ status: 400, body: { message: 'Not found or no asset.update access' } });
    expect((await list(as(token), a)).body).toHaveLength(1);
  });

  it('writes the iOS app’s cloud ids of 2,000 photos in transactions, and answers them compressed', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'MetaBulk');
    const token = owner.accessToken;
    // 2,000 photos written straight to the table (as uploads leave them), each given its cloud id, as
    // the app's page does: 40 transactions of 50 keys and their photos' checks.
    const assets = Array.from({ length: 2_000 }, () => assetRecord(owner.userId));
    await putItems(assets.map(assetItem));
    const items = assets.map((asset, n) => ({ assetId: asset.id, key: 'mobile-app', value: cloudId(n) }));
    const reply = await invoke(updateBulkAssetMetadata, {
      method: 'PUT',
      path: '/api/assets/metadata',
      headers: { ...as(token), 'accept-encoding': 'gzip, deflate' },
      body: { items },
    });
    expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBe(200);
    expect(reply.headers['content-encoding']).toBe('gzip');
    expect(reply.body).toHaveLength(2_000);
    expect(reply.body[1_999]).toEqual({ ...items[1_999], updatedAt: iso });
    for (const n of [0, 1_000, 1_999]) expect((await getKey(as(token), assets[n]?.id ?? '', 'mobile-app')).body.value).toEqual(cloudId(n));
    // Part of it again (the app's next run after a failure part way) ends the same: one key each.
    const again = await putBulk({ ...as(token), 'accept-encoding': 'gzip' }, items.slice(900, 1_100));
    expect(again.body).toHaveLength(200);
    expect(await storedFor(assets[1_000]?.id ?? '')).toHaveLength(1);

    // A small answer is never compressed.
    const small = await putBulk({ ...as(token), 'accept-encoding': 'gzip' }, items.slice(0, 2));
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toHaveLength(2);
  });

  it('tells a client that refuses gzip, before anything is written, that a page too large to answer plainly is too large', async () => {
    const token = accounts.user1.accessToken;
    const id = await addPhoto(token);
    // 18,000 keys: about 6.5 MB of answer, more than Lambda returns uncompressed.
    const items = Array.from({ length: 18_000 }, (_, n) => ({ assetId: id, key: `refused-${n}`, value: cloudId(n) }));
    const refused = await putBulk({ ...as(token), 'accept-encoding': 'identity' }, items);
    expect(refused).toMatchObject({
      status: 413,
      body: { message: 'The answer would be larger than 6 MB: ask for it with Accept-Encoding: gzip, or send fewer items' },
    });
    expect(await storedFor(id)).toEqual([]);
  });

  it('never writes a key for an asset deleted meanwhile: its transaction’s check fails, the others are written', async () => {
    const token = accounts.user1.accessToken;
    const [kept, gone] = [await addPhoto(token), await addPhoto(token)];
    const owner = accounts.user1.userId;
    expect(
      (await invoke(deleteAssets, { method: 'DELETE', path: '/api/assets', headers: as(token), body: { ids: [gone], force: true } }))
        .status,
    ).toBe(204);
    // As if the access check had passed just before the deletion.
    const left = await assetMetadataRepo.put(
      [
        { asset: { id: kept, ownerId: owner }, entry: { key: 'k', value: {} } },
        { asset: { id: gone, ownerId: owner }, entry: { key: 'k', value: {} } },
      ],
      new Date().toISOString(),
    );
    expect([...left]).toEqual([gone]);
    expect(await storedFor(gone)).toEqual([]);
    expect(await storedFor(kept)).toHaveLength(1);
  });
});

describe('asset metadata with the upload (POST /assets `metadata`)', () => {
  it('keeps the iOS app’s cloud id with the new asset; a duplicate upload keeps its own', async () => {
    const token = accounts.user1.accessToken;
    const data = makeJpeg({ color: [33, 66, 99] });
    const reply = await uploadWithMetadata(token, JSON.stringify([{ key: 'mobile-app', value: cloudId(7) }]), data);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const id: string = reply.body.id;
    expect((await list(as(token), id)).body).toEqual([{ key: 'mobile-app', value: cloudId(7), updatedAt: iso }]);
    const again = await uploadWithMetadata(token, JSON.stringify([{ key: 'mobile-app', value: cloudId(8) }]), data);
    expect(again).toMatchObject({ status: 200, body: { id, status: 'duplicate' } });
    expect((await getKey(as(token), id, 'mobile-app')).body.value).toEqual(cloudId(7));
  });

  it('refuses a field that is not a list of keys and values, or repeats a key, storing nothing', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'MetaUploader');
    const refused = async (metadata: string, message: string) => {
      const reply = await uploadWithMetadata(user.accessToken, metadata);
      expect(reply.status, JSON.stringify(reply.body)).toBe(400);
      expect(JSON.stringify(reply.body)).toContain(message);
    };
    await refused('not json', 'metadata must be JSON');
    await refused('{"key":"a","value":{}}', 'metadata must be an array');
    await refused('[{"key":"a","value":[1]}]', 'value must be an object');
    await refused(
      JSON.stringify(Array.from({ length: 21 }, (_, n) => ({ key: `k${n}`, value: {} }))),
      'metadata must contain at most 20 items',
    );
    await refused(
      JSON.stringify([
        { key: 'a', value: {} },
        { key: 'a', value: {} },
      ]),
      'Duplicate items are not allowed: \\"a\\"',
    );
    // No asset (so no metadata: each key needs its asset) was recorded.
    expect(await queryAll(partitions.timeline(user.userId))).toEqual([]);
  });
});

describe('asset metadata goes with its asset', () => {
  it('stays with a trashed asset and goes with one deleted for good, by force or by emptying the trash: no item outlives it', async () => {
    const token = accounts.user1.accessToken;
    const [forced, trashed] = [await addPhoto(token), await addPhoto(token)];
    await putBulk(as(token), [
      { assetId: forced, key: 'a', value: {} },
      { assetId: forced, key: 'b', value: {} },
      { assetId: trashed, key: 'a', value: {} },
    ]);
    const remove = (ids: string[], force: boolean) =>
      invoke(deleteAssets, { method: 'DELETE', path: '/api/assets', headers: as(token), body: { ids, force } });
    expect((await remove([trashed], false)).status).toBe(204);
    expect(await storedFor(trashed)).toHaveLength(1);
    // The owner still reads and writes a trashed asset's metadata, as Immich's checks include the trash.
    expect((await list(as(token), trashed)).body).toHaveLength(1);
    expect((await remove([forced], true)).status).toBe(204);
    expect(await storedFor(forced)).toEqual([]);
    expect((await invoke(emptyTrash, { method: 'POST', path: '/api/trash/empty', headers: as(token) })).status).toBe(204);
    expect(await storedFor(trashed)).toEqual([]);
  });
});

describe('asset metadata in the sync stream (AssetMetadataV1, AssetMetadataDeleteV1)', () => {
  it('fills the app’s cloud-id table from the owner’s metadata, and empties it as keys and assets go', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'MetaSyncer');
    const partner = await freshUser(accounts.admin.accessToken, 'MetaSyncPartner');
    const token = owner.accessToken;
    await invoke(createPartner, { method: 'POST', path: '/api/partners', headers: as(token), body: { sharedWithId: partner.userId } });
    const uploaded = await uploadWithMetadata(token, JSON.stringify([{ key: 'mobile-app', value: cloudId(1) }]));
    const first: string = uploaded.body.id;
    const second = await addPhoto(token);
    await putBulk(as(token), [
      { assetId: second, key: 'mobile-app', value: { ...cloudId(2), latitude: '-0.5' } },
      { assetId: second, key: 'web-app', value: { anything: 1 } },
    ]);

    const app = new SyncClient(token);
    const lines = await app.sync();
    const rows = lines.filter((line) => line.type === 'AssetMetadataV1').map((line) => line.data);
    expect(rows).toEqual(
      expect.arrayContaining([
        { assetId: first, key: 'mobile-app', value: cloudId(1) },
        { assetId: second, key: 'mobile-app', value: { ...cloudId(2), latitude: '-0.5' } },
        { assetId: second, key: 'web-app', value: { anything: 1 } },
      ]),
    );
    expect(rows).toHaveLength(3);
    // Read as the app reads them: its own key only, the coordinates parsed from their strings.
    expect(app.cloudIds.get(first)).toEqual({
      assetId: first,
      cloudId: cloudId(1).iCloudId,
      createdAt: '2023-06-15T10:23:45.000Z',
      adjustmentTime: '2023-06-15T10:25:00.000Z',
      latitude: 37.33182,
      longitude: -122.03118,
    });
    expect(app.cloudIds.get(second)?.latitude).toBe(-0.5);

    // A changed value comes again; a deleted key comes as its deletion; nothing else repeats.
    await put(as(token), first, [{ key: 'mobile-app', value: { ...cloudId(1), adjustmentTime: '2024-01-01T00:00:00.000Z' } }]);
    await deleteKey(as(token), second, 'mobile-app');
    const next = (await app.sync()).filter((line) => line.type.startsWith('AssetMetadata'));
    expect(next.map((line) => [line.type, line.data.assetId, line.data.key])).toEqual([
      ['AssetMetadataDeleteV1', second, 'mobile-app'],
      ['AssetMetadataV1', first, 'mobile-app'],
    ]);
    expect(next[0]?.data).toEqual({ assetId: second, key: 'mobile-app' });
    expect(app.cloudIds.get(first)?.adjustmentTime).toBe('2024-01-01T00:00:00.000Z');
    expect(app.cloudIds.has(second)).toBe(false);

    // An asset deleted for good takes its metadata along: the app's rows cascade with the asset,
    // no deletion of the key is sent (Immich's cascade records none), and no item is left.
    expect(
      (await invoke(deleteAssets, { method: 'DELETE', path: '/api/assets', headers: as(token), body: { ids: [first], force: true } }))
        .status,
    ).toBe(204);
    const last = await app.sync();
    expect(last.filter((line) => line.type.startsWith('AssetMetadata'))).toEqual([]);
    expect(last.map((line) => line.type)).toContain('AssetDeleteV1');
    expect(app.cloudIds.size).toBe(0);
    expect(await storedFor(first)).toEqual([]);

    // A partner's apps get the owner's assets, never their metadata (Immich syncs the caller's own).
    const partnerApp = new SyncClient(partner.accessToken);
    const partnerLines = await partnerApp.sync();
    expect(partnerLines.map((line) => line.type)).toContain('PartnerAssetV2');
    expect(partnerLines.filter((line) => line.type.startsWith('AssetMetadata'))).toEqual([]);
  });

  it('fails the app’s batch for a coordinate that is no string, as the app casts it (the server never sends one)', async () => {
    // The check itself: the app-like client refuses what the app would.
    const { AppStore, applyLine } = await import('../support/app-store.ts');
    const store = new AppStore();
    store.upsert('users', { id: 'u' });
    store.upsert('assets', { id: 'a', ownerId: 'u' });
    expect(() => applyLine(store, 'AssetMetadataV1', { assetId: 'a', key: 'mobile-app', value: { latitude: 37.3 } })).toThrow(TypeError);
    expect(() => applyLine(store, 'AssetMetadataV1', { assetId: 'missing', key: 'mobile-app', value: {} })).toThrow(/FOREIGN KEY/);
  });
});
