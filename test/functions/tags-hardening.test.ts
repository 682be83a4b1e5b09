import { beforeAll, describe, expect, it } from 'vitest';
import { handler as searchMetadata } from '#functions/search/search-metadata.ts';
import { handler as createV1 } from '#functions/tag/create-tag.ts';
import { handler as getAssetsV1 } from '#functions/tag/get-tag-assets.ts';
import { handler as tagAssetsV1 } from '#functions/tag/tag-assets.ts';
import { handler as updateV1 } from '#functions/tag/update-tag.ts';
import { handler as updateAssetV3 } from '#functions/v3/asset/update-asset.ts';
import { handler as setupPinCode } from '#functions/v3/auth/setup-pin-code.ts';
import { handler as unlockSession } from '#functions/v3/auth/unlock-auth-session.ts';
import { handler as createV3 } from '#functions/v3/tag/create-tag.ts';
import { handler as deleteV3 } from '#functions/v3/tag/delete-tag.ts';
import { handler as getAllV3 } from '#functions/v3/tag/get-all-tags.ts';
import { handler as tagAssetsV3 } from '#functions/v3/tag/tag-assets.ts';
import { handler as upsertV3 } from '#functions/v3/tag/upsert-tags.ts';
import { handler as getTimeBucket } from '#functions/v3/timeline/get-time-bucket.ts';
import { handler as getTimeBuckets } from '#functions/v3/timeline/get-time-buckets.ts';
import { bearer, createApiKey, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto } from '../support/library.ts';
import { makeJpeg } from '../support/photos.ts';
import { cutAfter, sequentialRoundTrips } from '../support/round-trips.ts';
import { tableItems } from '../support/table-items.ts';
import { upload } from '../support/uploads.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

type Json = Record<string, unknown>;
const withId = (id: string) => ({ pathParameters: { id } });
const march = new Date('2024-03-05T10:00:00.000Z');

describe("a tag's locked assets (issue 49, Medium 1)", () => {
  it("v1.100's GET /tag/{id}/assets and v3's tag timeline and search never list a locked asset", async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'TagLocker');
    const token = owner.accessToken;
    expect(
      (await invoke(setupPinCode, { method: 'POST', path: '/api/auth/pin-code', headers: bearer(token), body: { pinCode: '123456' } }))
        .status,
    ).toBe(204);
    const [open, hidden] = [await addPhoto(token, { color: [3, 9, 3] }, march), await addPhoto(token, { color: [9, 3, 9] }, march)];
    const tag = await invoke(createV1, {
      method: 'POST',
      path: '/api/tag',
      headers: bearer(token),
      body: { name: 'Secret', type: 'CUSTOM' },
    });
    expect(tag.status).toBe(201);
    const tagId = String(tag.body.id);
    const tagged = await invoke(tagAssetsV1, {
      method: 'PUT',
      path: `/api/tag/${tagId}/assets`,
      headers: bearer(token),
      body: { assetIds: [open, hidden] },
      ...withId(tagId),
    });
    expect(tagged.body.map((result: Json) => result.success)).toEqual([true, true]);
    const moved = await invoke(updateAssetV3, {
      method: 'PUT',
      path: `/api/assets/${hidden}`,
      headers: bearer(token),
      body: { visibility: 'locked' },
      ...withId(hidden),
    });
    expect(moved.status).toBe(200);

    const key = (await createApiKey(token, 'everything')).secret;
    const v1Assets = async (headers: Record<string, string>) => {
      const reply = await invoke(getAssetsV1, { path: `/api/tag/${tagId}/assets`, headers, ...withId(tagId) });
      expect(reply.status).toBe(200);
      return reply;
    };
    const timeline = async () =>
      (
        await invoke(getTimeBucket, {
          path: '/api/timeline/bucket',
          query: { tagId, timeBucket: '2024-03-01' },
          headers: bearer(token),
        })
      ).body.id;
    const buckets = async () =>
      (await invoke(getTimeBuckets, { path: '/api/timeline/buckets', query: { tagId }, headers: bearer(token) })).body;
    const search = async () =>
      (await invoke(searchMetadata, { method: 'POST', path: '/api/search/metadata', headers: bearer(token), body: { tagIds: [tagId] } }))
        .body.assets.items;
    const check = async () => {
      for (const headers of [bearer(token), { 'x-api-key': key }]) {
        const reply = await v1Assets(headers);
        expect(reply.body.map((asset: Json) => asset.id)).toEqual([open]);
        // Nothing of it, not even its EXIF, is in the answer.
        expect(JSON.stringify(reply.body)).not.toContain(hidden);
      }
      expect(await timeline()).toEqual([open]);
      expect(await buckets()).toEqual([{ timeBucket: '2024-03-01', count: 1 }]);
      expect((await search()).map((asset: Json) => asset.id)).toEqual([open]);
    };
    await check();
    // Unlocked with the PIN, the session still sees it only in the locked folder (as Immich v3's views).
    expect(
      (
        await invoke(unlockSession, {
          method: 'POST',
          path: '/api/auth/session/unlock',
          headers: bearer(token),
          body: { pinCode: '123456' },
        })
      ).status,
    ).toBe(204);
    await check();
  });
});

const v3 = {
  create: (token: string, body: unknown) => invoke(createV3, { method: 'POST', path: '/api/tags', headers: bearer(token), body }),
  all: async (token: string): Promise<Json[]> => (await invoke(getAllV3, { path: '/api/tags', headers: bearer(token) })).body,
  upsert: (token: string, tags: unknown) => invoke(upsertV3, { method: 'PUT', path: '/api/tags', headers: bearer(token), body: { tags } }),
  remove: (token: string, id: string) =>
    invoke(deleteV3, { method: 'DELETE', path: `/api/tags/${id}`, headers: bearer(token), ...withId(id) }),
  tag: (token: string, id: string, ids: string[]) =>
    invoke(tagAssetsV3, { method: 'PUT', path: `/api/tags/${id}/assets`, headers: bearer(token), body: { ids }, ...withId(id) }),
};
const v1 = {
  create: (token: string, name: unknown) =>
    invoke(createV1, { method: 'POST', path: '/api/tag', headers: bearer(token), body: { name, type: 'CUSTOM' } }),
  rename: (token: string, id: string, name: unknown) =>
    invoke(updateV1, { method: 'PATCH', path: `/api/tag/${id}`, headers: bearer(token), body: { name }, ...withId(id) }),
};
const path = (levels: number, name = 'L') => Array.from({ length: levels }, (_, index) => `${name}${index}`).join('/');
const huge = 'x'.repeat(100 * 1024);
const refused = (reply: { status: number; body: Json }, message: string) => {
  expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBe(400);
  // Each generation's error shape (v1.100's has statusCode and error too).
  expect(reply.body).toMatchObject({ message });
};

describe('tag names and paths have limits (issue 49, Medium 5)', () => {
  it('v3: an empty name or one with `/` is refused, a 100 KB or 256-character name and a path deeper than 20 levels too, nothing written', async () => {
    const { accessToken: token } = await freshUser(accounts.admin.accessToken, 'OddNamesV3');
    refused(await v3.create(token, { name: '' }), 'A tag name must not be empty');
    refused(await v3.create(token, { name: '   ' }), 'A tag name must not be empty');
    refused(await v3.create(token, { name: 'a/b' }), 'A tag name must not contain /');
    refused(await v3.create(token, { name: huge }), 'A tag name has at most 255 characters');
    refused(await v3.create(token, { name: 'y'.repeat(256) }), 'A tag name has at most 255 characters');
    expect((await v3.create(token, { name: 'y'.repeat(255) })).status).toBe(201);

    // PUT /tags, as Immich: empty parts dropped (`///` and `` make nothing, `a//b/` is `a/b`).
    const made = await v3.upsert(token, ['///', '', 'Trip//Rome/']);
    expect(made.status).toBe(200);
    expect(made.body.map((tag: Json) => tag.value)).toEqual(['Trip/Rome']);
    // One path past a limit refuses the whole request: none of its other paths is made.
    refused(await v3.upsert(token, ['Fine/One', huge]), 'A tag name has at most 255 characters');
    refused(
      await v3.upsert(token, ['Fine/Two', `${'p'.repeat(250)}/${'q'.repeat(250)}/${'r'.repeat(250)}/${'s'.repeat(250)}`]),
      'A tag path has at most 1000 characters',
    );
    refused(await v3.upsert(token, ['Fine/Three', path(21)]), 'A tag path has at most 20 levels');
    // At most 2,000 tags a request (each level counting): refused before anything is written.
    refused(
      await v3.upsert(
        token,
        Array.from({ length: 2001 }, (_, index) => `Fine${index}`),
      ),
      'At most 2000 tags (each level counting) in one request',
    );
    const deepest = await v3.upsert(token, [path(20)]);
    expect(deepest.status).toBe(200);
    refused(await v3.create(token, { name: 'Deeper', parentId: deepest.body[0].id }), 'A tag path has at most 20 levels');
    const values = (await v3.all(token)).map((tag) => String(tag.value));
    expect(values.filter((value) => value.startsWith('Fine'))).toEqual([]);
    expect(values).toHaveLength(1 + 2 + 20);
    expect((await tableItems('tag')).some((item) => String(item.value).length > 1000)).toBe(false);
  });

  it('v1.100: POST /tag and PATCH /tag/{id} refuse an empty path, a 100 KB name and a deep path; `a//b/` is `a/b`', async () => {
    const { accessToken: token } = await freshUser(accounts.admin.accessToken, 'OddNamesV1');
    refused(await v1.create(token, '///'), 'A tag name must not be empty');
    refused(await v1.create(token, path(21)), 'A tag path has at most 20 levels');
    const made = await v1.create(token, 'Trip//Rome/');
    expect(made.status).toBe(201);
    expect(made.body.name).toBe('Trip/Rome');
    const id = String(made.body.id);
    for (const [name, message] of [
      ['', 'A tag name must not be empty'],
      ['//', 'A tag name must not be empty'],
      [huge, 'A tag name has at most 255 characters'],
      [path(21), 'A tag path has at most 20 levels'],
    ] as const)
      refused(await v1.rename(token, id, name), message);
    // A rename whose tags below would go deeper than 20 levels is refused too.
    const trip = (await v3.all(token)).find((tag) => tag.value === 'Trip');
    refused(await v1.rename(token, String(trip?.id), path(20)), 'A tag path has at most 20 levels');
    expect((await v3.all(token)).map((tag) => tag.value)).toEqual(['Trip', 'Trip/Rome']);
    expect((await v1.rename(token, String(trip?.id), 'Voyage//')).body.name).toBe('Voyage');
    expect((await v3.all(token)).map((tag) => tag.value)).toEqual(['Voyage', 'Voyage/Rome']);
  });

  it("a file's keywords past the limits are left out, its upload and its other keywords kept", async () => {
    const { accessToken: token } = await freshUser(accounts.admin.accessToken, 'OddKeywords');
    const data = makeJpeg({ color: [5, 50, 200], tagsList: ['Good/Keyword', path(25, 'K'), `Long/${'z'.repeat(300)}`, ' Spaced / Out '] });
    const reply = await upload(token, { data });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect((await v3.all(token)).map((tag) => tag.value)).toEqual(['Good', 'Good/Keyword', 'Spaced', 'Spaced/Out']);
  });
});

describe('tag trees cost a bounded number of round trips and are never left half-deleted (issue 49, Medium 5)', () => {
  const tree = (prefix: string, groups: number, each: number) =>
    Array.from({ length: groups * each }, (_, index) => `${prefix}/Group ${Math.floor(index / each)}/Item ${index % each}`);

  it('upserts 300 paths in a few round trips of latency, per level, not one a tag', async () => {
    const { accessToken: token } = await freshUser(accounts.admin.accessToken, 'ManyPaths');
    const paths = tree('Bulk', 10, 30);
    let reply: Awaited<ReturnType<typeof v3.upsert>> | undefined;
    const trips = await sequentialRoundTrips(async () => {
      reply = await v3.upsert(token, paths);
    });
    expect(reply?.status).toBe(200);
    expect(reply?.body.map((tag: Json) => tag.value)).toEqual(paths);
    // The session's read, the guards' and tags' reads, then each of the three levels' creates: not 311 creates one after another.
    expect(trips.sequential).toBeLessThanOrEqual(20);
    expect(trips.calls).toBeLessThanOrEqual(40);
    const all = await v3.all(token);
    expect(all).toHaveLength(1 + 10 + 300);
    const byValue = new Map(all.map((tag) => [tag.value, tag]));
    for (const tag of all) {
      const parent = String(tag.value).split('/').slice(0, -1).join('/');
      expect(tag.parentId).toBe(parent ? byValue.get(parent)?.id : undefined);
    }
    // Again: all there, read, nothing made.
    const again = await sequentialRoundTrips(() => v3.upsert(token, paths));
    expect(again.sequential).toBeLessThanOrEqual(6);
    expect((await v3.all(token)).length).toBe(311);
  });

  it('deletes a 600-tag tree in a bounded chain of round trips, with its assets untagged', async () => {
    const { accessToken: token } = await freshUser(accounts.admin.accessToken, 'BigTree');
    const made = await v3.upsert(token, tree('Big', 20, 30));
    expect(made.body).toHaveLength(600);
    const photo = await addPhoto(token, { color: [1, 99, 1] });
    expect((await v3.tag(token, String(made.body[599].id), [photo])).status).toBe(200);
    const root = (await v3.all(token)).find((tag) => tag.value === 'Big');
    let status = 0;
    const trips = await sequentialRoundTrips(async () => {
      status = (await v3.remove(token, String(root?.id))).status;
    });
    expect(status).toBe(204);
    // 621 tags' entries are read 16 at a time, their deletes go a level at a time: about 60 round trips one after another, not 640.
    expect(trips.sequential).toBeLessThanOrEqual(100);
    expect(await v3.all(token)).toEqual([]);
    expect((await tableItems('tagAsset')).filter((item) => item.assetId === photo)).toEqual([]);
  });

  it('a delete cut short leaves a whole smaller tree (no tag without its parent, no entry without its tag) that a retry finishes', async () => {
    const { accessToken: token } = await freshUser(accounts.admin.accessToken, 'CutTree');
    const photo = await addPhoto(token, { color: [99, 1, 1] });
    /** A tree of 105 tags, 31 of them on the photo; its tags' ids and its root. */
    const plant = async () => {
      const made = await v3.upsert(token, tree('Cut', 4, 25));
      const all = await v3.all(token);
      for (const tag of [...made.body.slice(0, 30), all.find((each) => each.value === 'Cut/Group 1')])
        expect((await v3.tag(token, String(tag?.id), [photo])).status).toBe(200);
      return { ids: new Set(all.map((tag) => String(tag.id))), root: String(all.find((tag) => tag.value === 'Cut')?.id) };
    };
    const whole = await plant();
    const { calls } = await sequentialRoundTrips(() => v3.remove(token, whole.root));
    expect(await v3.all(token)).toEqual([]);
    // A cut while the entries are deleted, and one just before the last deletes of tags.
    for (const allowed of [40, calls - 2]) {
      const { ids, root } = await plant();
      const { cut } = await cutAfter(allowed, () => v3.remove(token, root));
      expect(cut).toBe(true);

      const left = await v3.all(token);
      expect(left.length).toBeGreaterThan(0);
      const leftIds = new Set(left.map((tag) => String(tag.id)));
      for (const tag of left) if (tag.parentId) expect(leftIds.has(String(tag.parentId)), `${tag.value}'s parent`).toBe(true);
      const entries = (await tableItems('tagAsset')).filter((item) => ids.has(String(item.tagId)));
      for (const entry of entries) expect(leftIds.has(String(entry.tagId))).toBe(true);
      const guards = (await tableItems('tagValue')).filter((item) => ids.has(String(item.tagId)));
      expect(guards.map((guard) => guard.tagId).sort()).toEqual([...leftIds].sort());

      expect((await v3.remove(token, root)).status).toBe(204);
      expect(await v3.all(token)).toEqual([]);
      expect((await tableItems('tagAsset')).filter((item) => ids.has(String(item.tagId)))).toEqual([]);
      expect((await tableItems('tagValue')).filter((item) => ids.has(String(item.tagId)))).toEqual([]);
    }
  });
});
