import { beforeAll, describe, expect, it } from 'vitest';
import { handler as nightly } from '#functions/nightly/run-nightly-tasks.ts';
import { handler as searchMetadata } from '#functions/search/search-metadata.ts';
import { handler as createV1 } from '#functions/tag/create-tag.ts';
import { handler as deleteV1 } from '#functions/tag/delete-tag.ts';
import { handler as getAllV1 } from '#functions/tag/get-all-tags.ts';
import { handler as getAssetsV1 } from '#functions/tag/get-tag-assets.ts';
import { handler as getV1 } from '#functions/tag/get-tag-by-id.ts';
import { handler as tagAssetsV1 } from '#functions/tag/tag-assets.ts';
import { handler as untagAssetsV1 } from '#functions/tag/untag-assets.ts';
import { handler as updateV1 } from '#functions/tag/update-tag.ts';
import { handler as assetInfoV3 } from '#functions/v3/asset/get-asset-info.ts';
import { handler as updateAssetV3 } from '#functions/v3/asset/update-asset.ts';
import { handler as bulkV3 } from '#functions/v3/tag/bulk-tag-assets.ts';
import { handler as createV3 } from '#functions/v3/tag/create-tag.ts';
import { handler as deleteV3 } from '#functions/v3/tag/delete-tag.ts';
import { handler as getAllV3 } from '#functions/v3/tag/get-all-tags.ts';
import { handler as getV3 } from '#functions/v3/tag/get-tag-by-id.ts';
import { handler as tagAssetsV3 } from '#functions/v3/tag/tag-assets.ts';
import { handler as untagAssetsV3 } from '#functions/v3/tag/untag-assets.ts';
import { handler as updateV3 } from '#functions/v3/tag/update-tag.ts';
import { handler as upsertV3 } from '#functions/v3/tag/upsert-tags.ts';
import { handler as getTimeBucket } from '#functions/v3/timeline/get-time-bucket.ts';
import { handler as getTimeBuckets } from '#functions/v3/timeline/get-time-buckets.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, assetInfo, trash, updateAsset } from '../support/library.ts';
import { tableItems } from '../support/table-items.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

type Json = Record<string, unknown>;
const withId = (id: string) => ({ pathParameters: { id } });

const v3 = {
  create: (token: string, body: unknown) => invoke(createV3, { method: 'POST', path: '/api/tags', headers: bearer(token), body }),
  all: (token: string) => invoke(getAllV3, { path: '/api/tags', headers: bearer(token) }),
  upsert: (token: string, tags: unknown) => invoke(upsertV3, { method: 'PUT', path: '/api/tags', headers: bearer(token), body: { tags } }),
  bulk: (token: string, body: unknown) => invoke(bulkV3, { method: 'PUT', path: '/api/tags/assets', headers: bearer(token), body }),
  get: (token: string, id: string) => invoke(getV3, { path: `/api/tags/${id}`, headers: bearer(token), ...withId(id) }),
  update: (token: string, id: string, body: unknown) =>
    invoke(updateV3, { method: 'PUT', path: `/api/tags/${id}`, headers: bearer(token), body, ...withId(id) }),
  remove: (token: string, id: string) =>
    invoke(deleteV3, { method: 'DELETE', path: `/api/tags/${id}`, headers: bearer(token), ...withId(id) }),
  tag: (token: string, id: string, ids: string[]) =>
    invoke(tagAssetsV3, { method: 'PUT', path: `/api/tags/${id}/assets`, headers: bearer(token), body: { ids }, ...withId(id) }),
  untag: (token: string, id: string, ids: string[]) =>
    invoke(untagAssetsV3, { method: 'DELETE', path: `/api/tags/${id}/assets`, headers: bearer(token), body: { ids }, ...withId(id) }),
  asset: (token: string, id: string) => invoke(assetInfoV3, { path: `/api/assets/${id}`, headers: bearer(token), ...withId(id) }),
};

const v1 = {
  create: (token: string, body: unknown) => invoke(createV1, { method: 'POST', path: '/api/tag', headers: bearer(token), body }),
  all: (token: string) => invoke(getAllV1, { path: '/api/tag', headers: bearer(token) }),
  get: (token: string, id: string) => invoke(getV1, { path: `/api/tag/${id}`, headers: bearer(token), ...withId(id) }),
  update: (token: string, id: string, body: unknown) =>
    invoke(updateV1, { method: 'PATCH', path: `/api/tag/${id}`, headers: bearer(token), body, ...withId(id) }),
  remove: (token: string, id: string) =>
    invoke(deleteV1, { method: 'DELETE', path: `/api/tag/${id}`, headers: bearer(token), ...withId(id) }),
  assets: (token: string, id: string) => invoke(getAssetsV1, { path: `/api/tag/${id}/assets`, headers: bearer(token), ...withId(id) }),
  tag: (token: string, id: string, assetIds: string[]) =>
    invoke(tagAssetsV1, { method: 'PUT', path: `/api/tag/${id}/assets`, headers: bearer(token), body: { assetIds }, ...withId(id) }),
  untag: (token: string, id: string, assetIds: string[]) =>
    invoke(untagAssetsV1, { method: 'DELETE', path: `/api/tag/${id}/assets`, headers: bearer(token), body: { assetIds }, ...withId(id) }),
};

const values = (tags: Json[]) => tags.map((tag) => tag.value);

describe('/tags (v3): hierarchical tags', () => {
  it('creates tags under their parents, unique per owner by path, and lists them by path', async () => {
    const { accessToken: token } = await freshUser(accounts.admin.accessToken, 'Tagger');
    const holidays = await v3.create(token, { name: 'Holidays', color: '#ff0000' });
    expect(holidays.status).toBe(201);
    expect(holidays.body).toEqual({
      id: expect.any(String),
      name: 'Holidays',
      value: 'Holidays',
      color: '#ff0000',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const rome = await v3.create(token, { name: 'Rome', parentId: holidays.body.id });
    expect(rome.body).toMatchObject({ name: 'Rome', value: 'Holidays/Rome', parentId: holidays.body.id });
    expect(await v3.create(token, { name: 'Rome', parentId: holidays.body.id })).toMatchObject({
      status: 400,
      body: { message: 'A tag with that name already exists' },
    });
    // Names are case-sensitive, as Immich's.
    expect((await v3.create(token, { name: 'rome', parentId: holidays.body.id })).status).toBe(201);
    expect(values((await v3.all(token)).body)).toEqual(['Holidays', 'Holidays/Rome', 'Holidays/rome']);

    // Someone else's tags are not there for them.
    const other = await freshUser(accounts.admin.accessToken, 'Stranger');
    expect((await v3.all(other.accessToken)).body).toEqual([]);
    expect(await v3.get(other.accessToken, holidays.body.id)).toMatchObject({
      status: 400,
      body: { message: 'Not found or no tag.read access' },
    });
    expect(await v3.create(other.accessToken, { name: 'Mine', parentId: holidays.body.id })).toMatchObject({
      status: 400,
      body: { message: 'Not found or no tag.read access' },
    });
    expect(await v3.update(other.accessToken, holidays.body.id, { color: '#000000' })).toMatchObject({ status: 400 });
    expect((await v3.remove(other.accessToken, holidays.body.id)).status).toBe(400);
    expect((await v3.get(token, holidays.body.id)).body).toEqual(holidays.body);
  });

  it('upserts paths (parents made, existing ones kept), sets and clears a color, validates as v3', async () => {
    const { accessToken: token } = await freshUser(accounts.admin.accessToken, 'Upserter');
    const made = await v3.upsert(token, ['Family/Kids', 'Places/Paris', 'Family//Kids/', '']);
    expect(made.status).toBe(200);
    // As Immich: each distinct path given answers its leaf (`Family//Kids/` is `Family/Kids` again); an empty one none.
    expect(values(made.body)).toEqual(['Family/Kids', 'Places/Paris', 'Family/Kids']);
    expect(made.body[2].id).toBe(made.body[0].id);
    const again = await v3.upsert(token, ['Family/Kids']);
    expect(again.body[0].id).toBe(made.body[0].id);
    const all = (await v3.all(token)).body as Json[];
    expect(values(all)).toEqual(['Family', 'Family/Kids', 'Places', 'Places/Paris']);
    expect(all.find((tag) => tag.value === 'Family/Kids')?.parentId).toBe(all.find((tag) => tag.value === 'Family')?.id);

    // Two concurrent upserts of one new path make it once.
    const [a, b] = await Promise.all([v3.upsert(token, ['Race/Track']), v3.upsert(token, ['Race/Track'])]);
    expect(a.body[0].id).toBe(b.body[0].id);
    expect(values((await v3.all(token)).body).filter((value) => String(value).startsWith('Race'))).toEqual(['Race', 'Race/Track']);

    const id = made.body[1].id as string;
    expect((await v3.update(token, id, { color: '#00ff00' })).body).toMatchObject({ color: '#00ff00' });
    expect((await v3.update(token, id, { color: null })).body).not.toHaveProperty('color');
    const bad = await v3.update(token, id, { color: 'green' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Validation failed');
    expect((await v3.create(token, { name: 42 })).status).toBe(400);
    expect((await v3.upsert(token, 'one')).status).toBe(400);
  });

  it('tags and untags assets (per id, as Immich), in bulk too; an asset shows its tags; deleting a tag takes its children', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'AssetTagger');
    const token = user.accessToken;
    const [a, b] = [await addPhoto(token, { color: [1, 2, 3] }), await addPhoto(token, { color: [3, 2, 1] })];
    const theirs = await addPhoto(accounts.admin.accessToken, { color: [9, 9, 1] });
    const [trips, rome] = (await v3.upsert(token, ['Trips', 'Trips/Rome'])).body as Json[];
    const tripsId = String(trips?.id);
    const romeId = String(rome?.id);

    expect((await v3.tag(token, tripsId, [a, a, theirs])).body).toEqual([
      { id: a, success: true },
      { id: a, success: false, error: 'duplicate' },
      { id: theirs, success: false, error: 'no_permission' },
    ]);
    expect((await v3.tag(token, tripsId, [a])).body).toEqual([{ id: a, success: false, error: 'duplicate' }]);
    expect(await v3.tag(accounts.admin.accessToken, tripsId, [theirs])).toMatchObject({
      status: 400,
      body: { message: 'Not found or no tag.asset access' },
    });
    const adminTag = (await v3.create(accounts.admin.accessToken, { name: `Admin's ${Date.now()}` })).body.id as string;
    // Bulk: only the caller's tags and assets; how many new pairs.
    expect((await v3.bulk(token, { tagIds: [romeId, adminTag], assetIds: [a, b, theirs] })).body).toEqual({ count: 2 });
    expect((await v3.bulk(token, { tagIds: [romeId], assetIds: [a, b] })).body).toEqual({ count: 0 });

    const info = await v3.asset(token, a);
    expect(info.body.tags.map((tag: Json) => tag.value)).toEqual(['Trips', 'Trips/Rome']);
    expect(info.body.tags[1]).toMatchObject({ id: romeId, name: 'Rome', parentId: tripsId });
    const edited = await invoke(updateAssetV3, {
      method: 'PUT',
      path: `/api/assets/${a}`,
      headers: bearer(token),
      body: { isFavorite: true },
      ...withId(a),
    });
    expect(edited.body.tags.map((tag: Json) => tag.id)).toEqual([tripsId, romeId]);
    // v1.100's view of the same asset: its tags in v1.100's shape.
    expect((await assetInfo(token, a)).body.tags).toEqual([
      { id: tripsId, type: 'CUSTOM', name: 'Trips', userId: user.userId },
      { id: romeId, type: 'CUSTOM', name: 'Trips/Rome', userId: user.userId },
    ]);

    expect((await v3.untag(token, romeId, [b, theirs, b])).body).toEqual([
      { id: b, success: true },
      { id: theirs, success: false, error: 'not_found' },
      { id: b, success: false, error: 'not_found' },
    ]);
    expect((await v3.remove(token, tripsId)).status).toBe(204);
    expect((await v3.all(token)).body).toEqual([]);
    expect((await v3.asset(token, a)).body.tags).toEqual([]);
    expect((await tableItems('tagAsset')).filter((item) => item.tagId === romeId || item.tagId === tripsId)).toEqual([]);
    // Their values are free again.
    expect((await v3.create(token, { name: 'Trips' })).status).toBe(201);
  });

  it('forgets an asset deleted for good', async () => {
    const { accessToken: token } = await freshUser(accounts.admin.accessToken, 'Untagger');
    const photo = await addPhoto(token, { color: [4, 4, 4] });
    const [tag] = (await v3.upsert(token, ['Gone'])).body as Json[];
    await v3.tag(token, String(tag?.id), [photo]);
    expect((await trash(token, [photo], true)).status).toBe(204);
    expect((await tableItems('tagAsset')).filter((item) => item.assetId === photo)).toEqual([]);
  });
});

describe("a tag's assets in the timeline and the search (v3)", () => {
  it('the timeline of a tag shows the assets with it or a tag below it; the search needs every tag asked', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'TagBrowser');
    const token = user.accessToken;
    const [march, april, archived, untagged] = [
      await addPhoto(token, { color: [7, 1, 1] }, new Date('2024-03-05T10:00:00Z')),
      await addPhoto(token, { color: [7, 2, 2] }, new Date('2024-04-05T10:00:00Z')),
      await addPhoto(token, { color: [7, 3, 3] }, new Date('2024-04-06T10:00:00Z')),
      await addPhoto(token, { color: [7, 4, 4] }, new Date('2024-04-07T10:00:00Z')),
    ];
    expect((await updateAsset(token, archived, { isArchived: true })).status).toBe(200);
    const [trips, rome, beach] = (await v3.upsert(token, ['Trips', 'Trips/Rome', 'Beach'])).body as Json[];
    await v3.tag(token, String(rome?.id), [march, april, archived]);
    await v3.tag(token, String(beach?.id), [april]);

    const buckets = (query: Record<string, string>) =>
      invoke(getTimeBuckets, { path: '/api/timeline/buckets', query, headers: bearer(token) });
    const bucket = (query: Record<string, string>) =>
      invoke(getTimeBucket, { path: '/api/timeline/bucket', query, headers: bearer(token) });
    // Trips has no asset of its own: Rome's are its.
    expect((await buckets({ tagId: String(trips?.id), visibility: 'timeline' })).body).toEqual([
      { timeBucket: '2024-04-01', count: 1 },
      { timeBucket: '2024-03-01', count: 1 },
    ]);
    expect((await buckets({ tagId: String(trips?.id) })).body).toEqual([
      { timeBucket: '2024-04-01', count: 2 },
      { timeBucket: '2024-03-01', count: 1 },
    ]);
    const april1 = await bucket({ tagId: String(trips?.id), timeBucket: '2024-04-01', visibility: 'timeline' });
    expect(april1.body.id).toEqual([april]);
    // Someone else's tag: refused, as Immich's tag.read.
    const stranger = await freshUser(accounts.admin.accessToken, 'TagPeeker');
    expect(
      await invoke(getTimeBuckets, {
        path: '/api/timeline/buckets',
        query: { tagId: String(trips?.id) },
        headers: bearer(stranger.accessToken),
      }),
    ).toMatchObject({ status: 400, body: { message: 'Not found or no tag.read access' } });

    const search = async (tagIds: string[]) =>
      (
        await invoke(searchMetadata, {
          method: 'POST',
          path: '/api/search/metadata',
          headers: bearer(token),
          body: { visibility: 'timeline', tagIds },
        })
      ).body.assets.items.map((asset: Json) => asset.id);
    expect((await search([String(trips?.id)])).sort()).toEqual([march, april].sort());
    expect(await search([String(trips?.id), String(beach?.id)])).toEqual([april]);
    expect(await search([String(beach?.id), String(beach?.id)])).toEqual([april]);
    expect(JSON.stringify(await search([String(rome?.id)]))).not.toContain(untagged);
  });
});

describe("the nightly clean-up of empty tags (Immich's TagCleanup)", () => {
  it('deletes the tags no asset has, neither the tag nor one below it, and keeps the rest', async () => {
    const { accessToken: token } = await freshUser(accounts.admin.accessToken, 'TagSweeper');
    const photo = await addPhoto(token, { color: [2, 7, 1] });
    const made = (await v3.upsert(token, ['Kept/Used', 'Kept/Unused', 'Gone/Empty'])).body as Json[];
    await v3.tag(token, String(made[0]?.id), [photo]);
    const outcome = await nightly({ time: '2031-01-01T01:00:00.000Z' });
    expect(outcome.tags?.removed).toBeGreaterThanOrEqual(3);
    // `Kept` stays for the tag below it that has a photo; `Kept/Unused`, `Gone` and `Gone/Empty` go.
    expect(values((await v3.all(token)).body)).toEqual(['Kept', 'Kept/Used']);
  });
});

describe('/tag (v1.100): flat tags over the same model', () => {
  it('creates, lists, renames (with the tags below), tags assets and deletes, as v1.100 answers', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'FlatTagger');
    const token = user.accessToken;
    const sunset = await v1.create(token, { name: 'Sunset', type: 'OBJECT' });
    expect(sunset.status).toBe(201);
    expect(sunset.body).toEqual({ id: expect.any(String), type: 'OBJECT', name: 'Sunset', userId: user.userId });
    expect(await v1.create(token, { name: 'Sunset', type: 'CUSTOM' })).toMatchObject({
      status: 400,
      body: { message: 'A tag with that name already exists' },
    });
    const invalid = await v1.create(token, { name: '', type: 'PLACE' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toEqual(expect.arrayContaining(['name should not be empty']));
    expect(JSON.stringify(invalid.body.message)).toContain('type must be one of the following values');

    // A v3 tag is a v1.100 tag named by its path; a v1.100 name with `/` is a path there.
    await v3.upsert(token, ['Trips/Rome']);
    const nested = await v1.create(token, { name: 'Trips/Rome/Forum', type: 'CUSTOM' });
    expect(nested.status).toBe(201);
    expect((await v1.all(token)).body.map((tag: Json) => tag.name)).toEqual(['Sunset', 'Trips', 'Trips/Rome', 'Trips/Rome/Forum']);
    expect((await v3.get(token, nested.body.id)).body).toMatchObject({ name: 'Forum', value: 'Trips/Rome/Forum' });

    // A rename moves the tags below it.
    const trips = ((await v1.all(token)).body as Json[]).find((tag) => tag.name === 'Trips');
    const renamed = await v1.update(token, String(trips?.id), { name: 'Travels' });
    expect(renamed.body).toMatchObject({ id: trips?.id, name: 'Travels' });
    expect(values((await v3.all(token)).body)).toEqual(['Sunset', 'Travels', 'Travels/Rome', 'Travels/Rome/Forum']);
    expect(await v1.update(token, String(trips?.id), { name: 'Sunset' })).toMatchObject({
      status: 400,
      body: { message: 'A tag with that name already exists' },
    });
    expect((await v1.update(token, sunset.body.id, {})).body).toMatchObject({ name: 'Sunset' });

    const [a, b] = [await addPhoto(token, { color: [6, 1, 6] }), await addPhoto(token, { color: [1, 6, 1] })];
    const theirs = await addPhoto(accounts.admin.accessToken, { color: [6, 6, 6] });
    expect((await v1.tag(token, sunset.body.id, [a, b, theirs])).body).toEqual([
      { assetId: a, success: true },
      { assetId: b, success: true },
      { assetId: theirs, success: false, error: 'no_permission' },
    ]);
    expect((await v1.tag(token, sunset.body.id, [a])).body).toEqual([{ assetId: a, success: false, error: 'duplicate' }]);
    expect((await trash(token, [b])).status).toBe(204);
    const tagged = await v1.assets(token, sunset.body.id);
    expect(tagged.body.map((asset: Json) => asset.id)).toEqual([a]);
    expect(tagged.body[0]).toMatchObject({ id: a, exifInfo: expect.any(Object) });
    expect((await v1.untag(token, sunset.body.id, [a, theirs])).body).toEqual([
      { assetId: a, success: true },
      { assetId: theirs, success: false, error: 'not_found' },
    ]);

    const stranger = await freshUser(accounts.admin.accessToken, 'FlatStranger');
    for (const reply of [
      await v1.get(stranger.accessToken, sunset.body.id),
      await v1.update(stranger.accessToken, sunset.body.id, { name: 'Mine' }),
      await v1.assets(stranger.accessToken, sunset.body.id),
      await v1.tag(stranger.accessToken, sunset.body.id, [a]),
      await v1.remove(stranger.accessToken, sunset.body.id),
    ])
      expect(reply).toMatchObject({ status: 400, body: { message: 'Tag not found' } });

    expect((await v1.remove(token, sunset.body.id)).status).toBe(200);
    expect(await v1.get(token, sunset.body.id)).toMatchObject({ status: 400, body: { message: 'Tag not found' } });
  });
});
