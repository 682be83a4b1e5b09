import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as searchMetadata } from '#functions/search/search-metadata.ts';
import { handler as getAssetInfo } from '#functions/v3/asset/get-asset-info.ts';
import { handler as runAssetJobs } from '#functions/v3/asset/run-asset-jobs.ts';
import { handler as deleteTag } from '#functions/v3/tag/delete-tag.ts';
import { handler as getAllTags } from '#functions/v3/tag/get-all-tags.ts';
import { handler as tagAssets } from '#functions/v3/tag/tag-assets.ts';
import { handler as upsertTags } from '#functions/v3/tag/upsert-tags.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { assetInfo } from '../support/library.ts';
import { mediaJobsInProcess } from '../support/media.ts';
import { makeJpeg, makeSidecar, type PhotoSpec } from '../support/photos.ts';
import { minPart, uploadThroughSession } from '../support/sessions.ts';
import { tableItems } from '../support/table-items.ts';
import { cliFields, upload } from '../support/uploads.ts';

let admin: string;
beforeAll(async () => {
  admin = (await setupAccounts()).admin.accessToken;
});

type Json = Record<string, any>;
let users = 0;
const user = async () => (await freshUser(admin, `Keywords${++users}x${Date.now()}`)).accessToken;

/** A photo with this metadata, through POST /asset/upload; its id. */
const photo = async (token: string, spec: PhotoSpec, sidecar?: PhotoSpec) => {
  const data = makeJpeg({ color: [Math.random() * 255, Math.random() * 255, 9], ...spec });
  const reply = await upload(token, { data, ...(sidecar ? { sidecar: makeSidecar(sidecar) } : {}) });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
};
const tags = async (token: string): Promise<Json[]> => (await invoke(getAllTags, { path: '/api/tags', headers: bearer(token) })).body;
const values = async (token: string) => (await tags(token)).map((tag) => tag.value);
const assetTags = async (token: string, id: string): Promise<string[]> =>
  (await invoke(getAssetInfo, { path: `/api/assets/${id}`, headers: bearer(token), pathParameters: { id } })).body.tags.map(
    (tag: Json) => tag.value,
  );
const search = async (token: string, tagIds: string[]) =>
  (
    await invoke(searchMetadata, {
      method: 'POST',
      path: '/api/search/metadata',
      headers: bearer(token),
      body: { visibility: 'timeline', tagIds },
    })
  ).body.assets.items.map((asset: Json) => asset.id);

describe("a file's keywords become its owner's tags on upload, as Immich v3's metadata job makes them", () => {
  it("digiKam's TagsList: each path's tags with their parents, the leaves on the asset, found by the search, as tags made in the app", async () => {
    const token = await user();
    const rome = await photo(token, { tagsList: ['Places/Italy/Rome', 'People/Ann'] });
    const all = await tags(token);
    expect(all.map((tag) => tag.value)).toEqual(['People', 'People/Ann', 'Places', 'Places/Italy', 'Places/Italy/Rome']);
    const byValue = new Map(all.map((tag) => [tag.value, tag]));
    expect(byValue.get('Places/Italy/Rome')).toMatchObject({ name: 'Rome', parentId: byValue.get('Places/Italy')?.id });
    expect(byValue.get('Places/Italy')).toMatchObject({ name: 'Italy', parentId: byValue.get('Places')?.id });
    expect(byValue.get('Places')).not.toHaveProperty('parentId');
    expect(await assetTags(token, rome)).toEqual(['People/Ann', 'Places/Italy/Rome']);
    // v1.100's asset detail names them too.
    expect((await assetInfo(token, rome)).body.tags.map((tag: Json) => tag.name)).toEqual(['People/Ann', 'Places/Italy/Rome']);

    // Lightroom's HierarchicalSubject on the next photo: the tags already there are used, not made again.
    const milan = await photo(token, { hierarchicalSubject: ['Places|Italy|Milan'] });
    const after = await tags(token);
    expect(after.map((tag) => tag.value)).toEqual([
      'People',
      'People/Ann',
      'Places',
      'Places/Italy',
      'Places/Italy/Milan',
      'Places/Italy/Rome',
    ]);
    expect(after.find((tag) => tag.value === 'Places')?.id).toBe(byValue.get('Places')?.id);
    expect(await assetTags(token, milan)).toEqual(['Places/Italy/Milan']);
    // The search's tagIds: a tag and those below it (Immich's closure).
    expect((await search(token, [String(byValue.get('Places/Italy')?.id)])).sort()).toEqual([rome, milan].sort());
    expect(await search(token, [String(byValue.get('People')?.id)])).toEqual([rome]);
    // Someone else's keywords are theirs alone.
    const other = await user();
    await photo(other, { tagsList: ['Places/Italy/Rome'] });
    expect((await tags(other)).map((tag) => tag.id)).not.toContain(byValue.get('Places')?.id);
  });

  it('empty, padded and repeated keywords and empty levels (a||b, a trailing |) make no empty or repeated tag', async () => {
    const token = await user();
    const id = await photo(token, { hierarchicalSubject: ['', '   ', 'a||b', 'Trips|', '|Trips', ' Trips ', 'Trips', 'a|b'] });
    expect(await values(token)).toEqual(['Trips', 'a', 'a/b']);
    expect(await assetTags(token, id)).toEqual(['Trips', 'a/b']);
    await photo(token, { tagsList: ['Trips/', 'Trips//Rome', ' Trips / Rome '], keywords: ['ignored'] });
    expect(await values(token)).toEqual(['Trips', 'Trips/Rome', 'a', 'a/b']);
  });

  it("a sidecar's keywords (Picasa's dc:subject) win over the file's IPTC keywords; a file sent in parts gets its tags too", async () => {
    const token = await user();
    const id = await photo(token, { keywords: ['FromFile'] }, { subject: ['FromSidecar'] });
    expect(await assetTags(token, id)).toEqual(['FromSidecar']);
    const large = Buffer.concat([makeJpeg({ tagsList: ['Large/File'] }), randomBytes(minPart + 1000)]);
    const done = await uploadThroughSession(token, large, 'LARGE.jpg');
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(await assetTags(token, done.body.id)).toEqual(['Large/File']);
  });

  it('uploads at once that make the same tags make each once (the value guard’s conditional put)', async () => {
    const token = await user();
    const ids = await Promise.all(
      Array.from({ length: 6 }, (_, i) => photo(token, { tagsList: ['Race/One', 'Race/Two'], comment: `race ${i}` })),
    );
    expect(await values(token)).toEqual(['Race', 'Race/One', 'Race/Two']);
    for (const id of ids) expect(await assetTags(token, id)).toEqual(['Race/One', 'Race/Two']);
    // One tag and one value guard a value, whatever the answers say.
    const ownerId = (await assetInfo(token, ids[0] as string)).body.ownerId;
    expect((await tableItems('tag')).filter((item) => item.ownerId === ownerId)).toHaveLength(3);
    expect((await tableItems('tagValue')).filter((item) => item.pk === `USER#${ownerId}`)).toHaveLength(3);
  });

  it('the same photo uploaded twice at once: one asset, the tags on it alone (the other upload takes its entries off)', async () => {
    const token = await user();
    const data = makeJpeg({ tagsList: ['Twice'], comment: 'twice' });
    const replies = await Promise.all([0, 1].map(() => upload(token, { data, fields: cliFields('twice.jpg', data.length) })));
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 201]);
    const winner = replies.find((reply) => reply.status === 201)?.body.id;
    const [twice] = await tags(token);
    expect((await tableItems('tagAsset')).filter((item) => item.tagId === twice?.id).map((item) => item.assetId)).toEqual([winner]);
  });
});

describe('the metadata refresh (refresh-metadata) reads the keywords again', () => {
  const jobs = mediaJobsInProcess();
  beforeAll(() => jobs.start());
  afterAll(() => jobs.stop());

  it("puts the file's and sidecar's keywords back on an asset without them, and keeps the tags given in the app", async () => {
    const token = await user();
    const plain = await photo(token, { tagsList: ['Trips/Rome'] });
    const withSidecar = await photo(token, { color: [3, 3, 3] }, { hierarchicalSubject: ['Trips|Oslo'] });
    // As if uploaded before keywords were read: the tags deleted (and so taken off their assets).
    const [trips] = await tags(token);
    await invoke(deleteTag, {
      method: 'DELETE',
      path: `/api/tags/${trips?.id}`,
      headers: bearer(token),
      pathParameters: { id: String(trips?.id) },
    });
    expect(await assetTags(token, plain)).toEqual([]);
    // A tag given in the app.
    const [mine] = (await invoke(upsertTags, { method: 'PUT', path: '/api/tags', headers: bearer(token), body: { tags: ['Mine'] } })).body;
    await invoke(tagAssets, {
      method: 'PUT',
      path: `/api/tags/${mine.id}/assets`,
      headers: bearer(token),
      pathParameters: { id: mine.id },
      body: { ids: [plain] },
    });

    const refresh = await invoke(runAssetJobs, {
      method: 'POST',
      path: '/api/assets/jobs',
      headers: bearer(token),
      body: { assetIds: [plain, withSidecar], name: 'refresh-metadata' },
    });
    expect(refresh.status).toBe(204);
    await jobs.settle();
    expect(await values(token)).toEqual(['Mine', 'Trips', 'Trips/Oslo', 'Trips/Rome']);
    expect(await assetTags(token, plain)).toEqual(['Mine', 'Trips/Rome']);
    expect(await assetTags(token, withSidecar)).toEqual(['Trips/Oslo']);
  });
});
