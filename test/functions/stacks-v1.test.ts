import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAssetInfoV1 } from '#functions/asset/get-asset-info.ts';
import { handler as getTimeBucketV1 } from '#functions/asset/get-time-bucket.ts';
import { handler as getTimeBucketsV1 } from '#functions/asset/get-time-buckets.ts';
import { handler as updateAssetsV1 } from '#functions/asset/update-assets.ts';
import { handler as updateStackParent } from '#functions/asset/update-stack-parent.ts';
import { handler as getStack } from '#functions/v3/stack/get-stack.ts';
import { handler as searchStacks } from '#functions/v3/stack/search-stacks.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto } from '../support/library.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const march = new Date('2024-03-05T10:00:00.000Z');
const put = (token: string, body: unknown) => invoke(updateAssetsV1, { method: 'PUT', path: '/api/asset', headers: bearer(token), body });
const info = async (token: string, id: string) =>
  (await invoke(getAssetInfoV1, { path: `/api/asset/${id}`, headers: bearer(token), pathParameters: { id } })).body;
const months = async (token: string, query: Record<string, string> = {}) =>
  (await invoke(getTimeBucketsV1, { path: '/api/asset/time-buckets', query: { size: 'MONTH', ...query }, headers: bearer(token) })).body;
const stacks = async (token: string) => (await invoke(searchStacks, { path: '/api/stacks', headers: bearer(token) })).body;

describe("v1.100's stacks (PUT /asset stackParentId / removeParent, PUT /asset/stack/parent) over v3's", () => {
  it('stacks under a parent, adds to its stack, changes the parent, and unstacks, as v1.100 answers', async () => {
    const token = (await freshUser(accounts.admin.accessToken, 'OldStacker')).accessToken;
    const [a, b, c, d] = [
      await addPhoto(token, { color: [10, 2, 3] }, march),
      await addPhoto(token, { color: [10, 5, 6] }, march),
      await addPhoto(token, { color: [10, 8, 9] }, march),
      await addPhoto(token, { color: [10, 8, 7] }, march),
    ];
    expect((await put(token, { ids: [b], stackParentId: a })).status).toBe(204);
    expect((await put(token, { ids: [c], stackParentId: a, isFavorite: true })).status).toBe(204);
    const [stack] = await stacks(token);
    expect(stack).toMatchObject({ primaryAssetId: a });
    expect(stack.assets.map((asset: { id: string }) => asset.id)).toEqual([a, b, c]);
    // The other edits of the request still apply.
    expect((await info(token, c)).isFavorite).toBe(true);

    const parent = await info(token, a);
    expect(parent).toMatchObject({ stackParentId: a, stackCount: 3 });
    expect(parent.stack.map((child: { id: string }) => child.id)).toEqual([b, c]);
    expect(await months(token, { withStacked: 'true' })).toEqual([{ timeBucket: '2024-03-01T00:00:00.000Z', count: 2 }]);
    const bucket = await invoke(getTimeBucketV1, {
      path: '/api/asset/time-bucket',
      query: { size: 'MONTH', timeBucket: '2024-03-01T00:00:00.000Z', withStacked: 'true' },
      headers: bearer(token),
    });
    expect(bucket.body.map((asset: { id: string }) => asset.id).sort()).toEqual([a, d].sort());
    expect(bucket.body.find((asset: { id: string }) => asset.id === a)).toMatchObject({ stackParentId: a, stackCount: 3 });

    const moved = await invoke(updateStackParent, {
      method: 'PUT',
      path: '/api/asset/stack/parent',
      headers: bearer(token),
      body: { oldParentId: a, newParentId: b },
    });
    expect(moved.status).toBe(204);
    expect((await info(token, c)).stackParentId).toBe(b);
    const notStacked = await invoke(updateStackParent, {
      method: 'PUT',
      path: '/api/asset/stack/parent',
      headers: bearer(token),
      body: { oldParentId: d, newParentId: a },
    });
    expect(notStacked.body).toMatchObject({ message: 'Asset not found or not in a stack', statusCode: 400 });

    // Unstacking the children: one left is no stack (v1.100 deletes it).
    expect((await put(token, { ids: [c], removeParent: true })).status).toBe(204);
    expect((await info(token, c)).stackCount).toBeNull();
    expect((await stacks(token))[0].assets).toHaveLength(2);
    expect((await put(token, { ids: [a], removeParent: true })).status).toBe(204);
    expect(await stacks(token)).toEqual([]);
    expect(
      (await invoke(getStack, { path: `/api/stacks/${stack.id}`, headers: bearer(token), pathParameters: { id: stack.id } })).status,
    ).toBe(400);
    expect(await months(token, { withStacked: 'true' })).toEqual([{ timeBucket: '2024-03-01T00:00:00.000Z', count: 4 }]);
  });

  it("refuses a parent that is not the caller's", async () => {
    const token = (await freshUser(accounts.admin.accessToken, 'OldStackGuard')).accessToken;
    const mine = await addPhoto(token, { color: [11, 1, 1] });
    const theirs = await addPhoto(accounts.user2.accessToken, { color: [11, 2, 2] });
    const reply = await put(token, { ids: [mine], stackParentId: theirs });
    expect(reply.body).toMatchObject({ message: 'Not found or no asset.update access' });
    expect(await stacks(token)).toEqual([]);
  });
});
