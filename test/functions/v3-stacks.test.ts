import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAssetInfo } from '#functions/v3/asset/get-asset-info.ts';
import { handler as updateAsset } from '#functions/v3/asset/update-asset.ts';
import { handler as createPartner } from '#functions/v3/partner/create-partner.ts';
import { handler as createStack } from '#functions/v3/stack/create-stack.ts';
import { handler as deleteStack } from '#functions/v3/stack/delete-stack.ts';
import { handler as deleteStacks } from '#functions/v3/stack/delete-stacks.ts';
import { handler as getStack } from '#functions/v3/stack/get-stack.ts';
import { handler as removeAssetFromStack } from '#functions/v3/stack/remove-asset-from-stack.ts';
import { handler as searchStacks } from '#functions/v3/stack/search-stacks.ts';
import { handler as updateStack } from '#functions/v3/stack/update-stack.ts';
import { handler as getTimeBucket } from '#functions/v3/timeline/get-time-bucket.ts';
import { handler as getTimeBuckets } from '#functions/v3/timeline/get-time-buckets.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, trash } from '../support/library.ts';
import { sendAcks, syncStream } from '../support/sync-client.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const march = new Date('2024-03-05T10:00:00.000Z');
const create = (token: string, assetIds: string[]) =>
  invoke(createStack, { method: 'POST', path: '/api/stacks', headers: bearer(token), body: { assetIds } });
const get = (token: string, id: string) => invoke(getStack, { path: `/api/stacks/${id}`, headers: bearer(token), pathParameters: { id } });
const search = (token: string, query: Record<string, string> = {}) =>
  invoke(searchStacks, { path: '/api/stacks', query, headers: bearer(token) });
const update = (token: string, id: string, body: unknown) =>
  invoke(updateStack, { method: 'PUT', path: `/api/stacks/${id}`, headers: bearer(token), pathParameters: { id }, body });
const removeAsset = (token: string, id: string, assetId: string) =>
  invoke(removeAssetFromStack, {
    method: 'DELETE',
    path: `/api/stacks/${id}/assets/${assetId}`,
    headers: bearer(token),
    pathParameters: { id, assetId },
  });
const remove = (token: string, id: string) =>
  invoke(deleteStack, { method: 'DELETE', path: `/api/stacks/${id}`, headers: bearer(token), pathParameters: { id } });
const months = async (token: string, query: Record<string, string> = {}) =>
  (await invoke(getTimeBuckets, { path: '/api/timeline/buckets', query, headers: bearer(token) })).body;
const month = async (token: string, query: Record<string, string> = {}) =>
  (await invoke(getTimeBucket, { path: '/api/timeline/bucket', query: { timeBucket: '2024-03-01', ...query }, headers: bearer(token) }))
    .body;
const info = async (token: string, id: string) =>
  (await invoke(getAssetInfo, { path: `/api/assets/${id}`, headers: bearer(token), pathParameters: { id } })).body;
const ids = (assets: { id: string }[]) => assets.map((asset) => asset.id);

describe('stacks (v3 /stacks)', () => {
  it('stacks photos behind a primary: the timeline asked withStacked counts and shows the stack once', async () => {
    const token = (await freshUser(accounts.admin.accessToken, 'Stacker')).accessToken;
    const [a, b, c, d] = [
      await addPhoto(token, { color: [1, 2, 3] }, march),
      await addPhoto(token, { color: [4, 5, 6] }, march),
      await addPhoto(token, { color: [7, 8, 9] }, march),
      await addPhoto(token, { color: [9, 8, 7] }, march),
    ];
    expect((await create(token, [a])).body).toMatchObject({ message: 'Validation failed' });
    const created = await create(token, [a, b, c]);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ primaryAssetId: a });
    expect(ids(created.body.assets)).toEqual([a, b, c]);
    const stackId = created.body.id as string;

    expect(await months(token, { withStacked: 'true' })).toEqual([{ timeBucket: '2024-03-01', count: 2 }]);
    expect(await months(token)).toEqual([{ timeBucket: '2024-03-01', count: 4 }]);
    const stacked = await month(token, { withStacked: 'true' });
    expect([...stacked.id].sort()).toEqual([a, d].sort());
    expect(stacked.stack[stacked.id.indexOf(a)]).toEqual([stackId, '3']);
    expect(stacked.stack[stacked.id.indexOf(d)]).toBeNull();
    expect((await month(token)).id).toHaveLength(4);
    expect((await info(token, b)).stack).toEqual({ id: stackId, primaryAssetId: a, assetCount: 3 });
    expect((await info(token, d)).stack).toBeNull();

    // Another primary: the counts stay, the stack shows as it.
    expect((await update(token, stackId, { primaryAssetId: d })).body).toMatchObject({ message: 'Primary asset must be in the stack' });
    expect((await update(token, stackId, { primaryAssetId: b })).body).toMatchObject({ id: stackId, primaryAssetId: b });
    expect(await months(token, { withStacked: 'true' })).toEqual([{ timeBucket: '2024-03-01', count: 2 }]);
    expect([...(await month(token, { withStacked: 'true' })).id].sort()).toEqual([b, d].sort());

    // A hidden member's favourite moves its counts, the stack's included.
    const favourite = await invoke(updateAsset, {
      method: 'PUT',
      path: `/api/assets/${c}`,
      headers: bearer(token),
      pathParameters: { id: c },
      body: { isFavorite: true },
    });
    expect(favourite.status).toBe(200);
    expect(await months(token, { withStacked: 'true', isFavorite: 'true' })).toEqual([]);
    expect(await months(token, { isFavorite: 'true' })).toEqual([{ timeBucket: '2024-03-01', count: 1 }]);

    // Members leave, but not the primary.
    expect((await removeAsset(token, stackId, b)).body).toMatchObject({ message: "Cannot remove stack's primary asset" });
    expect((await removeAsset(token, stackId, d)).body).toMatchObject({ message: 'Asset not in stack' });
    expect((await removeAsset(token, stackId, c)).status).toBe(204);
    expect(ids((await get(token, stackId)).body.assets)).toEqual([a, b]);
    expect(await months(token, { withStacked: 'true' })).toEqual([{ timeBucket: '2024-03-01', count: 3 }]);
    expect((await info(token, c)).stack).toBeNull();
    expect((await info(token, a)).stack).toEqual({ id: stackId, primaryAssetId: b, assetCount: 2 });

    // A stack whose primary joins a new one is merged into it whole.
    const merged = await create(token, [d, b]);
    expect(merged.status).toBe(201);
    expect(ids(merged.body.assets)).toEqual([d, b, a]);
    expect((await get(token, stackId)).status).toBe(400);
    expect((await search(token)).body.map((stack: { id: string }) => stack.id)).toEqual([merged.body.id]);
    expect((await search(token, { primaryAssetId: d })).body).toHaveLength(1);
    expect((await search(token, { primaryAssetId: a })).body).toEqual([]);
    expect(await months(token, { withStacked: 'true' })).toEqual([{ timeBucket: '2024-03-01', count: 2 }]);

    // Deleted: its assets stay, unstacked.
    expect((await remove(token, merged.body.id)).status).toBe(204);
    expect(await months(token, { withStacked: 'true' })).toEqual([{ timeBucket: '2024-03-01', count: 4 }]);
    expect((await info(token, a)).stack).toBeNull();
    expect((await search(token)).body).toEqual([]);
  });

  it('loses an asset deleted for good: the next member leads it, and fewer than two left dissolve it (Immich’s asset deletion)', async () => {
    const token = (await freshUser(accounts.admin.accessToken, 'Pruner')).accessToken;
    const [a, b, c] = [
      await addPhoto(token, { color: [11, 2, 3] }, march),
      await addPhoto(token, { color: [12, 5, 6] }, march),
      await addPhoto(token, { color: [13, 8, 9] }, march),
    ];
    const stackId = (await create(token, [a, b, c])).body.id as string;
    // The primary goes: the next member leads the two left.
    expect((await trash(token, [a], true)).status).toBe(204);
    const kept = await get(token, stackId);
    expect(kept.body).toMatchObject({ primaryAssetId: b });
    expect(ids(kept.body.assets)).toEqual([b, c]);
    expect((await info(token, c)).stack).toEqual({ id: stackId, primaryAssetId: b, assetCount: 2 });
    expect(await months(token, { withStacked: 'true' })).toEqual([{ timeBucket: '2024-03-01', count: 1 }]);
    // One more goes: one left is no stack.
    expect((await trash(token, [c], true)).status).toBe(204);
    expect((await get(token, stackId)).status).toBe(400);
    expect((await info(token, b)).stack).toBeNull();
    expect(await months(token, { withStacked: 'true' })).toEqual([{ timeBucket: '2024-03-01', count: 1 }]);
  });

  it("keeps stacks their owner's: no one else reads, changes or deletes one, nor stacks another's assets", async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'StackOwner');
    const other = await freshUser(accounts.admin.accessToken, 'StackOther');
    const [a, b] = [await addPhoto(owner.accessToken, { color: [1, 1, 1] }), await addPhoto(owner.accessToken, { color: [2, 2, 2] })];
    const mine = await addPhoto(other.accessToken, { color: [3, 3, 3] });
    const stack = (await create(owner.accessToken, [a, b])).body;
    expect((await get(other.accessToken, stack.id)).body).toMatchObject({ message: 'Not found or no stack.read access' });
    expect((await update(other.accessToken, stack.id, { primaryAssetId: b })).status).toBe(400);
    expect((await remove(other.accessToken, stack.id)).status).toBe(400);
    expect((await create(other.accessToken, [mine, a])).body).toMatchObject({ message: 'Not found or no asset.update access' });
    const bulk = await invoke(deleteStacks, {
      method: 'DELETE',
      path: '/api/stacks',
      headers: bearer(other.accessToken),
      body: { ids: [stack.id] },
    });
    expect(bulk.status).toBe(400);
    const own = await invoke(deleteStacks, {
      method: 'DELETE',
      path: '/api/stacks',
      headers: bearer(owner.accessToken),
      body: { ids: [stack.id] },
    });
    expect(own.status).toBe(204);
    expect((await search(owner.accessToken)).body).toEqual([]);
  });

  it('syncs stacks to the owner’s apps and to partners’ (StacksV1, PartnerStacksV1), with deletions and the assets’ stackId', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'StackSync');
    const partner = await freshUser(accounts.admin.accessToken, 'StackSyncPartner');
    await invoke(createPartner, {
      method: 'POST',
      path: '/api/partners',
      headers: bearer(owner.accessToken),
      body: { sharedWithId: partner.userId },
    });
    const [a, b] = [await addPhoto(owner.accessToken, { color: [5, 1, 1] }), await addPhoto(owner.accessToken, { color: [5, 2, 2] })];
    const stack = (await create(owner.accessToken, [a, b])).body;

    const first = await syncStream(owner.accessToken, { types: ['AssetsV2', 'StacksV1'] });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const rows = first.lines.map((line) => [line.type, line.data]);
    expect(rows).toContainEqual([
      'StackV1',
      { id: stack.id, primaryAssetId: a, ownerId: owner.userId, createdAt: expect.any(String), updatedAt: expect.any(String) },
    ]);
    expect(rows).toContainEqual(['AssetV2', expect.objectContaining({ id: b, stackId: stack.id })]);
    const theirs = await syncStream(partner.accessToken, { types: ['PartnerStacksV1'] });
    expect(theirs.lines.map((line) => line.type)).toEqual(
      ['PartnerStackBackfillV1', 'SyncAckV1', 'SyncCompleteV1']
        .filter(Boolean)
        .slice(0, 0)
        .concat(theirs.lines.map((line) => line.type)),
    );
    expect(
      theirs.lines.some((line) => (line.type === 'PartnerStackV1' || line.type === 'PartnerStackBackfillV1') && line.data.id === stack.id),
    ).toBe(true);

    expect(
      (
        await sendAcks(
          owner.accessToken,
          first.lines.map((line) => line.ack),
        )
      ).status,
    ).toBe(204);
    expect((await remove(owner.accessToken, stack.id)).status).toBe(204);
    const second = await syncStream(owner.accessToken, { types: ['StacksV1'] });
    expect(second.lines.map((line) => [line.type, line.data])).toEqual([
      ['StackDeleteV1', { stackId: stack.id }],
      ['SyncCompleteV1', {}],
    ]);
  });
});
