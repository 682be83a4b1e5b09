import { beforeAll, describe, expect, it } from 'vitest';
import { handler as searchLargeAssets } from '#functions/v3/search/search-large-assets.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto } from '../support/library.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const large = (token: string, query: Record<string, string>) =>
  invoke(searchLargeAssets, { method: 'POST', path: '/api/search/large-assets', query, headers: bearer(token) });

describe('POST /search/large-assets (v3: the web app’s Large files)', () => {
  it('answers the caller’s files larger than minFileSize, largest first, with their EXIF', async () => {
    const token = (await freshUser(accounts.admin.accessToken, 'Hoarder')).accessToken;
    const [small, medium, big] = [
      await addPhoto(token, { width: 64, height: 48, color: [1, 2, 3] }),
      await addPhoto(token, { width: 640, height: 480, color: [4, 5, 6] }),
      await addPhoto(token, { width: 1600, height: 1200, color: [7, 8, 9] }),
    ];
    const all = await large(token, { minFileSize: '0' });
    expect(all.status).toBe(200);
    expect(all.body.map((asset: { id: string }) => asset.id)).toEqual([big, medium, small]);
    const sizes = all.body.map((asset: { exifInfo: { fileSizeInByte: number } }) => asset.exifInfo.fileSizeInByte);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));

    const over = await large(token, { minFileSize: String(sizes[2]), size: '1' });
    expect(over.body.map((asset: { id: string }) => asset.id)).toEqual([big]);
    expect((await large(token, { minFileSize: '0', withExif: 'false' })).body[0]).not.toHaveProperty('exifInfo');
    // Someone else's library has none of them; the locked folder needs the unlock; bad input is a 400.
    expect((await large(accounts.user2.accessToken, { minFileSize: '0' })).body).toEqual([]);
    expect((await large(token, { visibility: 'locked' })).status).toBe(401);
    expect((await large(token, { minFileSize: 'huge' })).body).toMatchObject({ message: 'Validation failed' });
  });
});
