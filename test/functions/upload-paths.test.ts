/**
 * The upload's paths beside the form in the request (issue 51, docs/large-uploads.md): Immich's
 * early duplicate answer (`x-immich-checksum`), uploads through a shared link that allows them,
 * and `recordStoredUpload` (the record step of a file already stored: the ingress, the upload
 * sessions), which leaves nothing behind whenever it refuses.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as uploadV1 } from '#functions/asset/upload-file.ts';
import { handler as createLinkHandler } from '#functions/shared-link/create-shared-link.ts';
import { handler as getMyLinkHandler } from '#functions/shared-link/get-my-shared-link.ts';
import { handler as uploadV3 } from '#functions/v3/asset/upload-asset.ts';
import { originalKey } from '#shared/domain/upload-files.ts';
import { readUploadFieldsV1 } from '#shared/dto/v1/asset.ts';
import type { Auth } from '#shared/model/user.ts';
import { recordStoredUpload, type StoredFile, uploadRoom } from '#shared/services/upload/stored-upload.service.ts';
import { originalsStore } from '#shared/storage/originals.ts';
import { bearer, createUser, freshUser, login, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { albumInfo, assetInfo, createAlbum } from '../support/library.ts';
import { makeJpeg } from '../support/photos.ts';
import { uploadFootprint } from '../support/table-items.ts';
import { cliFields, multipart, sha1 } from '../support/uploads.ts';
import { makeVideo } from '../support/videos.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const v3Fields = (size: number) => ({
  deviceAssetId: `web-${size}`,
  deviceId: 'WEB',
  fileCreatedAt: '2024-05-06T07:08:09.000Z',
  fileModifiedAt: '2024-05-06T07:08:09.000Z',
  isFavorite: 'false',
});

type Generation = 'v1' | 'v3';
const routes = {
  v1: { handler: uploadV1, path: '/api/asset/upload' },
  v3: { handler: uploadV3, path: '/api/assets' },
} as const;

/** POST the photo through a generation's route, with the caller's headers and query (a link's key). */
const post = async (generation: Generation, data: Buffer, caller: { headers?: Record<string, string>; query?: Record<string, string> }) => {
  const fields = generation === 'v1' ? cliFields('IMG_0001.jpg', data.length) : v3Fields(data.length);
  const { body, contentType } = await multipart(fields, { assetData: { data, fileName: 'IMG_0001.jpg', contentType: 'image/jpeg' } });
  const { handler, path } = routes[generation];
  return invoke(handler, { method: 'POST', path, headers: { ...caller.headers, 'content-type': contentType }, query: caller.query, body });
};

/** A POST with only the checksum header and no form at all: answered only if the body is never read. */
const postChecksumOnly = (generation: Generation, token: string, checksum: string) => {
  const { handler, path } = routes[generation];
  return invoke(handler, { method: 'POST', path, headers: { ...bearer(token), 'x-immich-checksum': checksum } });
};

const photo = () => makeJpeg({ color: [Math.random() * 255, Math.random() * 255, 40] });

describe.each(['v1', 'v3'] as const)('x-immich-checksum (%s)', (generation) => {
  const duplicateBody = (id: string) => (generation === 'v1' ? { id, duplicate: true } : { id, status: 'duplicate' });

  it("answers the caller's file as a duplicate before the body is read, the SHA-1 in hex or base64", async () => {
    const owner = await freshUser(accounts.admin.accessToken, `Early${generation}${Date.now()}`);
    const data = photo();
    const created = await post(generation, data, { headers: bearer(owner.accessToken) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    for (const checksum of [sha1(data), sha1(data).toUpperCase(), sha1(data, 'base64')]) {
      const reply = await postChecksumOnly(generation, owner.accessToken, checksum);
      expect({ status: reply.status, body: reply.body }).toEqual({ status: 200, body: duplicateBody(created.body.id) });
    }
  });

  it("a header that names no file of the caller's (another user's, unknown, malformed) is no answer: the form is read", async () => {
    const owner = await freshUser(accounts.admin.accessToken, `EarlyOther${generation}${Date.now()}`);
    const data = photo();
    expect((await post(generation, data, { headers: bearer(accounts.user2.accessToken) })).status).toBe(201);
    for (const checksum of [sha1(data), sha1(Buffer.from('nothing uploaded')), 'not-a-checksum', '']) {
      const reply = await postChecksumOnly(generation, owner.accessToken, checksum);
      expect(reply.status, checksum).toBe(400);
      expect(reply.body.message).toContain('assetData');
    }
    // And with the form, the upload goes on as without the header.
    const sent = await post(generation, data, { headers: { ...bearer(owner.accessToken), 'x-immich-checksum': 'zz' } });
    expect(sent.status).toBe(201);
  });
});

const createLink = async (token: string, body: Record<string, unknown>) => {
  const reply = await invoke(createLinkHandler, { method: 'POST', path: '/api/shared-link', headers: bearer(token), body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body as { id: string; key: string };
};

describe.each(['v1', 'v3'] as const)('uploads through a shared link (%s)', (generation) => {
  it('a link that allows uploads takes the file into its album, which the owner owns', async () => {
    const owner = await freshUser(accounts.admin.accessToken, `LinkAlbum${generation}${Date.now()}`);
    const album = await createAlbum(owner.accessToken, { albumName: 'drop box' });
    const link = await createLink(owner.accessToken, { type: 'ALBUM', albumId: album.id, allowUpload: true });
    const data = photo();
    const reply = await post(generation, data, { query: { key: link.key } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const shown = await albumInfo(owner.accessToken, album.id);
    expect(shown.body.assets.map((asset: { id: string }) => asset.id)).toEqual([reply.body.id]);
    expect((await assetInfo(owner.accessToken, reply.body.id)).body.ownerId).toBe(owner.userId);
    // The same file again through the link: a duplicate, still in the album once.
    const again = await post(generation, data, { query: { key: link.key } });
    expect({ status: again.status, id: again.body.id }).toEqual({ status: 200, id: reply.body.id });
    expect((await albumInfo(owner.accessToken, album.id)).body.assets).toHaveLength(1);
  });

  it('an individual link that allows uploads takes the file among its assets, visible through the link', async () => {
    const owner = await freshUser(accounts.admin.accessToken, `LinkAssets${generation}${Date.now()}`);
    const first = await post(generation, photo(), { headers: bearer(owner.accessToken) });
    const link = await createLink(owner.accessToken, { type: 'INDIVIDUAL', assetIds: [first.body.id], allowUpload: true });
    const reply = await post(generation, photo(), { query: { key: link.key } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const me = await invoke(getMyLinkHandler, { path: '/api/shared-link/me', query: { key: link.key } });
    expect(me.body.assets.map((asset: { id: string }) => asset.id).sort()).toEqual([first.body.id, reply.body.id].sort());
  });

  it('a link that does not allow uploads is refused as Immich refuses it, before the form, and nothing is stored', async () => {
    const owner = await freshUser(accounts.admin.accessToken, `LinkNoUpload${generation}${Date.now()}`);
    const album = await createAlbum(owner.accessToken, { albumName: 'look only' });
    const link = await createLink(owner.accessToken, { type: 'ALBUM', albumId: album.id, allowUpload: false });
    const data = photo();
    // Even the owner's file named by its checksum is not answered: the visitor learns nothing.
    expect((await post(generation, data, { headers: bearer(owner.accessToken) })).status).toBe(201);
    const before = await uploadFootprint();
    const reply = await post(generation, photo(), { query: { key: link.key }, headers: { 'x-immich-checksum': sha1(data) } });
    expect({ status: reply.status, message: reply.body.message }).toEqual(
      generation === 'v1' ? { status: 401, message: 'Unauthorized' } : { status: 400, message: 'Not found or no asset.upload access' },
    );
    expect(await uploadFootprint()).toEqual(before);
    expect((await albumInfo(owner.accessToken, album.id)).body.assets).toEqual([]);
  });
});

describe('recordStoredUpload', () => {
  const authOf = (userId: string): Auth => ({ user: { id: userId, email: 'stored@immich.cloud', isAdmin: false } });

  /** A file put with the store at its asset's key, as the ingress leaves it. */
  const stored = async (userId: string, data: Buffer, fileName = 'IMG_0002.jpg'): Promise<StoredFile> => {
    const assetId = randomUUID();
    const key = originalKey(userId, assetId, fileName);
    const object = await (await originalsStore()).put(key, data, 'image/jpeg');
    return { fileName, key, ...(object.version ? { version: object.version } : {}), size: data.length, checksum: sha1(data), assetId };
  };
  const exists = async (file: StoredFile) => (await originalsStore()).exists(file.key);
  const record = (userId: string, file: StoredFile, extra: { sidecar?: { fileName: string; data: Buffer }; livePhoto?: StoredFile } = {}) =>
    recordStoredUpload(authOf(userId), { file, fields: cliFields(file.fileName, file.size), readFields: readUploadFieldsV1, ...extra });

  it('records the stored file (with its sidecar and v1.100 live-photo video) as the asset of its id', async () => {
    const owner = await freshUser(accounts.admin.accessToken, `Stored${Date.now()}`);
    const file = await stored(owner.userId, photo());
    const video = makeVideo({ seconds: 1 });
    const live = await stored(owner.userId, video, 'IMG_0002.mov');
    const sidecar = Buffer.from(
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:description><rdf:Alt><rdf:li xml:lang="x-default">from the sidecar</rdf:li></rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>',
    );
    const outcome = await record(owner.userId, file, { sidecar: { fileName: 'IMG_0002.jpg.xmp', data: sidecar }, livePhoto: live });
    expect(outcome).toEqual({ id: file.assetId, duplicate: false });
    const asset = (await assetInfo(owner.accessToken, file.assetId)).body;
    expect(asset).toMatchObject({ checksum: sha1(await (await originalsStore()).getRange(file.key, 0, file.size - 1), 'base64') });
    expect(asset.livePhotoVideoId).toBe(live.assetId);
    expect(asset.exifInfo.description).toBe('from the sidecar');
    expect(await exists(live)).toBe(true);
    expect(await (await originalsStore()).exists(`${file.key}.xmp`)).toBe(true);
  });

  it("a motion photo's embedded video (found by ranged reads) becomes its hidden video, stored beside it", async () => {
    const owner = await freshUser(accounts.admin.accessToken, `StoredMotion${Date.now()}`);
    const video = makeVideo({ seconds: 1, width: 320, height: 240 });
    const samples = [
      ['PXL_0001.MP.jpg', Buffer.concat([makeJpeg({ width: 400, height: 300, color: [1, 2, 3] }), video])],
      [
        'SAMSUNG_0001.jpg',
        Buffer.concat([
          makeJpeg({ width: 400, height: 300, color: [4, 5, 6] }),
          Buffer.from('MotionPhoto_Data'),
          video,
          Buffer.from('SEFH\x01\x00\x00\x00trailer'),
        ]),
      ],
    ] as const;
    const motionIds = new Set<string>();
    for (const [fileName, data] of samples) {
      const file = await stored(owner.userId, data, fileName);
      expect(await record(owner.userId, file)).toEqual({ id: file.assetId, duplicate: false });
      const asset = (await assetInfo(owner.accessToken, file.assetId)).body;
      expect(asset.livePhotoVideoId, fileName).toMatch(/^[0-9a-f-]{36}$/);
      motionIds.add(asset.livePhotoVideoId);
    }
    // The same video in both: stored once, the second photo linked to it.
    expect(motionIds.size).toBe(1);
    const [motionId] = [...motionIds];
    const motion = (await assetInfo(owner.accessToken, motionId ?? '')).body;
    expect(motion).toMatchObject({ type: 'VIDEO', checksum: sha1(video, 'base64'), originalFileName: 'PXL_0001.MP.mp4' });
    expect(await (await originalsStore()).get(originalKey(owner.userId, motion.id, 'PXL_0001.MP.mp4'))).toEqual(video);
  });

  it.each([
    ['an empty file', async () => Buffer.alloc(0), undefined, 'Field(s) assetData should not be empty'],
    ['an unreadable image', async () => Buffer.from('not a jpeg at all'), undefined, 'Corrupt or unreadable image file IMG_0002.jpg'],
    ['a sidecar that is not XMP', async () => photo(), Buffer.from('{"not":"xmp"}'), 'Invalid XMP sidecar IMG_0002.jpg.xmp'],
  ])('%s: refused with a 400, no object and no item left', async (_name, data, sidecar, message) => {
    const owner = await freshUser(accounts.admin.accessToken, `StoredBad${Date.now()}${Math.random()}`);
    const file = await stored(owner.userId, await data());
    const live = await stored(owner.userId, makeVideo({ seconds: 1 }), 'IMG_0002.mov');
    const before = await uploadFootprint();
    await expect(
      record(owner.userId, file, { livePhoto: live, ...(sidecar ? { sidecar: { fileName: 'IMG_0002.jpg.xmp', data: sidecar } } : {}) }),
    ).rejects.toThrow(message);
    expect([await exists(file), await exists(live), await (await originalsStore()).exists(`${file.key}.xmp`)]).toEqual([
      false,
      false,
      false,
    ]);
    expect(await uploadFootprint()).toEqual(before);
  });

  it('over the quota: refused, nothing left; uploadRoom says what is left', async () => {
    const email = `stored-quota-${Date.now()}@immich.cloud`;
    const user = await createUser(accounts.admin.accessToken, { email, password: 'password', name: 'Q', quotaSizeInBytes: 500 });
    expect(await uploadRoom(authOf(user.id))).toBe(500);
    const file = await stored(user.id, photo());
    expect(file.size).toBeGreaterThan(500);
    const before = await uploadFootprint();
    await expect(record(user.id, file)).rejects.toThrow('Quota has been exceeded!');
    expect(await exists(file)).toBe(false);
    expect(await uploadFootprint()).toEqual(before);
    expect(await uploadRoom(authOf(accounts.user1.userId))).toBe(Number.POSITIVE_INFINITY);
    await login({ email, password: 'password' });
  });

  it('the same file recorded twice at once: one asset, the other answered duplicate with its objects removed', async () => {
    const owner = await freshUser(accounts.admin.accessToken, `StoredRace${Date.now()}`);
    const data = photo();
    const files = [await stored(owner.userId, data), await stored(owner.userId, data)];
    const outcomes = await Promise.all(files.map((file) => record(owner.userId, file)));
    const created = outcomes.filter((outcome) => !outcome.duplicate);
    expect(created).toHaveLength(1);
    const winner = created[0]?.id;
    expect(outcomes.map((outcome) => outcome.id)).toEqual([winner, winner]);
    expect(await Promise.all(files.map((file) => exists(file)))).toEqual(files.map((file) => file.assetId === winner));
  });
});
