import { beforeAll, describe, expect, it } from 'vitest';
import { handler as searchMetadata } from '#functions/search/search-metadata.ts';
import { handler as createV1 } from '#functions/tag/create-tag.ts';
import { handler as getAssetsV1 } from '#functions/tag/get-tag-assets.ts';
import { handler as tagAssetsV1 } from '#functions/tag/tag-assets.ts';
import { handler as updateAssetV3 } from '#functions/v3/asset/update-asset.ts';
import { handler as setupPinCode } from '#functions/v3/auth/setup-pin-code.ts';
import { handler as unlockSession } from '#functions/v3/auth/unlock-auth-session.ts';
import { handler as getTimeBucket } from '#functions/v3/timeline/get-time-bucket.ts';
import { handler as getTimeBuckets } from '#functions/v3/timeline/get-time-buckets.ts';
import { bearer, createApiKey, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto } from '../support/library.ts';

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
    const tag = await invoke(createV1, { method: 'POST', path: '/api/tag', headers: bearer(token), body: { name: 'Secret', type: 'CUSTOM' } });
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
    const buckets = async () => (await invoke(getTimeBuckets, { path: '/api/timeline/buckets', query: { tagId }, headers: bearer(token) })).body;
    const search = async () =>
      (await invoke(searchMetadata, { method: 'POST', path: '/api/search/metadata', headers: bearer(token), body: { tagIds: [tagId] } })).body
        .assets.items;
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
      (await invoke(unlockSession, { method: 'POST', path: '/api/auth/session/unlock', headers: bearer(token), body: { pinCode: '123456' } }))
        .status,
    ).toBe(204);
    await check();
  });
});
