import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAssetsByOriginalPath } from '#functions/v3/view/get-assets-by-original-path.ts';
import { handler as getUniqueOriginalPaths } from '#functions/v3/view/get-unique-original-paths.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, assetInfo, trash, updateAsset } from '../support/library.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const uniquePaths = (token: string) => invoke(getUniqueOriginalPaths, { path: '/api/view/folder/unique-paths', headers: bearer(token) });
const inFolder = (token: string, query: Record<string, string>) =>
  invoke(getAssetsByOriginalPath, { path: '/api/view/folder', query, headers: bearer(token) });
const folderOf = (path: string) => path.slice(0, path.lastIndexOf('/'));
const ids = (assets: { id: string }[]) => assets.map((asset) => asset.id);

describe('GET /view/folder/unique-paths and /view/folder (v3: the web app’s Folders)', () => {
  it('lists the folders of the caller’s timeline assets and each folder’s assets, by file name', async () => {
    const token = (await freshUser(accounts.admin.accessToken, 'FolderKeeper')).accessToken;
    const photos = [];
    for (const color of [10, 20, 30, 40, 50]) photos.push(await addPhoto(token, { width: 32, height: 24, color: [color, 1, 2] }));
    const paths = new Map<string, string>();
    for (const id of photos) paths.set(id, (await assetInfo(token, id)).body.originalPath);
    const [kept, other, archived, trashed, last] = photos as [string, string, string, string, string];
    expect((await updateAsset(token, archived, { isArchived: true })).status).toBe(200);
    expect((await trash(token, [trashed])).status).toBe(204);

    // Each asset is in a folder of its own id's first characters, as Immich's upload layout.
    const folders = await uniquePaths(token);
    expect(folders.status).toBe(200);
    const expected = [...new Set([kept, other, last].map((id) => folderOf(paths.get(id) as string)))].sort();
    expect(folders.body).toEqual(expected);

    const folder = folderOf(paths.get(kept) as string);
    const reply = await inFolder(token, { path: folder });
    expect(reply.status).toBe(200);
    expect(ids(reply.body)).toContain(kept);
    expect(reply.body[0]).toMatchObject({ originalPath: paths.get(kept), exifInfo: { exifImageWidth: 32 }, isTrashed: false });
    for (const asset of reply.body) expect(folderOf(asset.originalPath)).toBe(folder);
    const names = reply.body.map((asset: { originalPath: string }) => asset.originalPath);
    expect(names).toEqual([...names].sort());
    // A trailing slash, or the folder's end alone, name the same folder (Immich's match).
    expect(ids((await inFolder(token, { path: `${folder}/` })).body)).toEqual(ids(reply.body));
    expect(ids((await inFolder(token, { path: folder.split('/').slice(-2).join('/') })).body)).toEqual(ids(reply.body));
    // The archived and the trashed asset are in no folder; nothing lies below a file's folder.
    expect(ids((await inFolder(token, { path: folderOf(paths.get(archived) as string) })).body)).not.toContain(archived);
    expect(ids((await inFolder(token, { path: folderOf(paths.get(trashed) as string) })).body)).not.toContain(trashed);
    expect((await inFolder(token, { path: folderOf(folder) })).body).toEqual([]);
  });

  it('shows nobody another user’s folders, and asks for a path', async () => {
    const token = (await freshUser(accounts.admin.accessToken, 'FolderOwner')).accessToken;
    const id = await addPhoto(token, { width: 16, height: 16, color: [9, 9, 9] });
    const folder = folderOf((await assetInfo(token, id)).body.originalPath);
    expect((await uniquePaths(accounts.user2.accessToken)).body).not.toContain(folder);
    expect((await inFolder(accounts.user2.accessToken, { path: folder })).body).toEqual([]);
    expect(ids((await inFolder(token, { path: folder })).body)).toEqual([id]);
    const missing = await inFolder(token, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ message: 'Validation failed' });
    expect((await uniquePaths('not-a-token')).status).toBe(401);
  });
});
