import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as downloadArchiveHandler } from '#functions/download/download-archive.ts';
import { handler as getDownloadInfoHandler } from '#functions/download/get-download-info.ts';
import { handler as createLinkHandler } from '#functions/shared-link/create-shared-link.ts';
import { originalsStore } from '#shared/storage/originals.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { assetInfo, createAlbum, trash } from '../support/library.ts';
import { makeJpeg } from '../support/photos.ts';
import { storedFiles, upload } from '../support/uploads.ts';
import { makeVideo } from '../support/videos.ts';
import { readZip } from '../support/zip.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const info = (token: string, body: unknown) =>
  invoke(getDownloadInfoHandler, { method: 'POST', path: '/api/download/info', headers: bearer(token), body });
const archive = (token: string, assetIds: unknown) =>
  invoke(downloadArchiveHandler, { method: 'POST', path: '/api/download/archive', headers: bearer(token), body: { assetIds } });

describe('POST /download/info and POST /download/archive', () => {
  it('splits into archives past archiveSize, with live photos’ video parts; by ids, album or own library', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Downloader${Date.now()}`)).accessToken;
    const photo = async (comment: string, fileName = 'IMG.jpg', extra = {}) => {
      const data = makeJpeg({ comment, width: 32, height: 32 });
      const reply = await upload(token, { data, fileName, ...extra });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      return { id: reply.body.id as string, data, size: data.length };
    };
    const a = await photo('a');
    const b = await photo('b');
    const video = makeVideo({ seconds: 1, width: 160, height: 120 });
    const live = await photo('live', 'LIVE.jpg', { extraFiles: { livePhotoData: { data: video, fileName: 'LIVE.mov' } } });
    const motionId = (await assetInfo(token, live.id)).body.livePhotoVideoId as string;
    const gone = await photo('gone');
    expect((await trash(token, [gone.id])).status).toBe(204);

    const all = await info(token, { assetIds: [a.id, b.id, live.id] });
    expect(all.status).toBe(201);
    expect(all.body).toEqual({
      totalSize: a.size + b.size + live.size + video.length,
      archives: [{ size: a.size + b.size + live.size + video.length, assetIds: [a.id, b.id, live.id, motionId] }],
    });
    // An archive closes once it passes the size.
    const split = await info(token, { assetIds: [a.id, b.id, live.id], archiveSize: a.size + b.size - 1 });
    expect(split.body.archives.map((each: { assetIds: string[] }) => each.assetIds)).toEqual([
      [a.id, b.id],
      [live.id, motionId],
    ]);
    const album = await createAlbum(token, { albumName: 'down', assetIds: [b.id, gone.id] });
    expect((await info(token, { albumId: album.id })).body.archives[0].assetIds).toEqual([b.id]);
    const me = (await assetInfo(token, a.id)).body.ownerId as string;
    expect((await info(token, { userId: me })).body.archives[0].assetIds.sort()).toEqual([a.id, b.id, live.id, motionId].sort());

    // The archive: the originals, stored, named as uploaded (repeats numbered as Immich does).
    const before = await storedFiles();
    const zip = await archive(token, [a.id, b.id]);
    expect(zip.status).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.headers['content-disposition']).toMatch(/^attachment; filename="immich-\d{4}-\d{2}-\d{2}\.zip"/);
    const entries = readZip(Buffer.from(zip.body, 'base64'));
    expect(entries.map((entry) => entry.name)).toEqual(['IMG.jpg', 'IMG+1.jpg']);
    expect(entries.map((entry) => entry.method)).toEqual([0, 0]);
    expect(Buffer.compare(entries[0]?.data ?? Buffer.alloc(0), a.data)).toBe(0);
    expect(Buffer.compare(entries[1]?.data ?? Buffer.alloc(0), b.data)).toBe(0);
    expect((await storedFiles()).filter((key) => !before.includes(key)).every((key) => key.startsWith('downloads/'))).toBe(true);
  });

  it('leaves out an original that is missing from the store, instead of failing the archive', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Lost${Date.now()}`)).accessToken;
    const kept = (await upload(token, { data: makeJpeg({ comment: 'kept' }), fileName: 'KEPT.jpg' })).body.id as string;
    const lost = (await upload(token, { data: makeJpeg({ comment: 'lost' }), fileName: 'LOST.jpg' })).body.id as string;
    const lostKey = (await storedFiles()).find((key) => key.startsWith('upload/') && key.includes(lost));
    expect(lostKey).toBeDefined();
    await rm(join(process.env.ORIGINALS_DIR ?? '', lostKey ?? ''));
    const zip = await archive(token, [kept, lost]);
    expect(zip.status).toBe(200);
    expect(readZip(Buffer.from(zip.body, 'base64')).map((entry) => entry.name)).toEqual(['KEPT.jpg']);
  });

  it('holds each asset once however often it is named, takes at most 10,000 ids, and removes a local archive once served', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Repeat${Date.now()}`)).accessToken;
    const data = makeJpeg({ comment: 'repeated' });
    const id = (await upload(token, { data, fileName: 'ONCE.jpg' })).body.id as string;
    const before = await storedFiles();
    const zip = await archive(
      token,
      Array.from({ length: 1000 }, () => id),
    );
    expect(zip.status).toBe(200);
    expect(readZip(Buffer.from(zip.body, 'base64')).map((entry) => entry.name)).toEqual(['ONCE.jpg']);
    expect(await storedFiles()).toEqual(before);
    expect(
      (
        await archive(
          token,
          Array.from({ length: 10_001 }, () => id),
        )
      ).body,
    ).toMatchObject({
      statusCode: 400,
      message: ['assetIds must contain no more than 10000 elements'],
    });
  });

  it('names entries safely whatever file name an upload gave (no path, no drive, no control character)', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Names${Date.now()}`)).accessToken;
    const ids: string[] = [];
    for (const fileName of ['../x.jpg', '/etc/y.jpg', 'C:\\z.jpg', 'tab\tname.jpg']) {
      const reply = await upload(token, { data: makeJpeg({ comment: fileName }), fileName });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      ids.push(reply.body.id);
    }
    const zip = await archive(token, ids);
    expect(zip.status).toBe(200);
    expect(readZip(Buffer.from(zip.body, 'base64')).map((entry) => entry.name)).toEqual(['x.jpg', 'y.jpg', 'z.jpg', 'tabname.jpg']);
  });

  it('an original that goes while the archive is written: a 409, no partial file left, and the process lives on', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Vanish${Date.now()}`)).accessToken;
    const kept = (await upload(token, { data: makeJpeg({ comment: 'stays' }), fileName: 'STAYS.jpg' })).body.id as string;
    const vanishing = (await upload(token, { data: makeJpeg({ comment: 'goes' }), fileName: 'GOES.jpg' })).body.id as string;
    const key = (await storedFiles()).find((each) => each.startsWith('upload/') && each.includes(vanishing)) ?? '';
    const store = await originalsStore();
    const read = store.getStream.bind(store);
    const before = await storedFiles();
    // Removed after the archive checked it and before its turn to be read, as a force delete does.
    store.getStream = async (wanted) => {
      if (wanted === key) await rm(join(process.env.ORIGINALS_DIR ?? '', key));
      return read(wanted);
    };
    try {
      expect((await archive(token, [kept, vanishing])).body).toMatchObject({
        statusCode: 409,
        message: 'An asset of the archive was removed while it was being written; ask again',
      });
      // A file that cannot be read at all (here a folder where the original was): a 500, logged.
      await mkdir(join(process.env.ORIGINALS_DIR ?? '', key));
      expect((await archive(token, [kept, vanishing])).status).toBe(500);
    } finally {
      store.getStream = read;
      await rm(join(process.env.ORIGINALS_DIR ?? '', key), { recursive: true, force: true });
    }
    expect((await storedFiles()).filter((each) => !before.includes(each))).toEqual([]);
    expect((await archive(token, [kept])).status).toBe(200);
  });

  it('refuses what the caller may not download, and bad input, as Immich', async () => {
    const token = (await freshUser(accounts.admin.accessToken, `Nodown${Date.now()}`)).accessToken;
    const theirs = (await upload(accounts.user2.accessToken, { data: makeJpeg({ comment: 'theirs' }) })).body.id as string;
    expect((await info(token, { assetIds: [theirs] })).body).toMatchObject({
      statusCode: 400,
      message: 'Not found or no asset.download access',
    });
    expect((await archive(token, [theirs])).body).toMatchObject({ statusCode: 400, message: 'Not found or no asset.download access' });
    expect((await info(token, { userId: accounts.user2.userId })).body.message).toBe('Not found or no timeline.download access');
    expect((await info(token, {})).body).toMatchObject({ statusCode: 400, message: 'assetIds, albumId, or userId is required' });
    expect((await info(token, { assetIds: [theirs], archiveSize: 0 })).body.message).toEqual(['archiveSize must be a positive number']);
    expect((await archive(token, 'x')).body.message).toEqual(['each value in assetIds must be a UUID', 'assetIds must be an array']);
  });

  it("a shared link's visitor downloads what the link shows, only when it allows downloads", async () => {
    const owner = (await freshUser(accounts.admin.accessToken, `Linker${Date.now()}`)).accessToken;
    const shown = (await upload(owner, { data: makeJpeg({ comment: 'shown' }), fileName: 'shown.jpg' })).body.id as string;
    const hidden = (await upload(owner, { data: makeJpeg({ comment: 'hidden' }), fileName: 'hidden.jpg' })).body.id as string;
    const album = await createAlbum(owner, { albumName: 'linked', assetIds: [shown] });
    const other = await createAlbum(owner, { albumName: 'other', assetIds: [hidden] });
    const link = async (allowDownload: boolean) =>
      (
        await invoke(createLinkHandler, {
          method: 'POST',
          path: '/api/shared-link',
          headers: bearer(owner),
          body: { type: 'ALBUM', albumId: album.id, allowDownload },
        })
      ).body.key as string;
    const key = await link(true);
    const visit = (handler: typeof getDownloadInfoHandler, path: string, body: unknown, withKey = key) =>
      invoke(handler, { method: 'POST', path, query: { key: withKey }, body });
    expect((await visit(getDownloadInfoHandler, '/api/download/info', { albumId: album.id })).body.archives[0].assetIds).toEqual([shown]);
    const zip = await visit(downloadArchiveHandler, '/api/download/archive', { assetIds: [shown] });
    expect(zip.status).toBe(200);
    expect(readZip(Buffer.from(zip.body, 'base64')).map((entry) => entry.name)).toEqual(['shown.jpg']);
    expect((await visit(downloadArchiveHandler, '/api/download/archive', { assetIds: [shown, hidden] })).body.message).toBe(
      'Not found or no asset.download access',
    );
    expect((await visit(getDownloadInfoHandler, '/api/download/info', { albumId: other.id })).body.message).toBe(
      'Not found or no album.download access',
    );
    expect(
      (await visit(getDownloadInfoHandler, '/api/download/info', { userId: (await assetInfo(owner, shown)).body.ownerId })).body.message,
    ).toBe('Not found or no timeline.download access');
    const noDownloads = await link(false);
    expect((await visit(downloadArchiveHandler, '/api/download/archive', { assetIds: [shown] }, noDownloads)).status).toBe(400);
    expect((await visit(getDownloadInfoHandler, '/api/download/info', { albumId: album.id }, noDownloads)).status).toBe(400);
  });
});
