import { createHash } from 'node:crypto';
import * as v1 from '@immich/sdk';
import * as v3 from '@immich/sdk-v3';
import { beforeAll, describe, expect, it } from 'vitest';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg } from '../support/photos.ts';
import { useServer } from '../support/server.ts';
import { hangGuard } from '../support/timeouts.ts';
import { makeVideo } from '../support/videos.ts';

type Opts = { baseUrl: string; headers: Record<string, string> };

const sha1 = (bytes: Buffer | ArrayBuffer) =>
  createHash('sha1')
    .update(Buffer.from(bytes as ArrayBuffer))
    .digest('hex');
const bytesOf = async (blob: Blob) => Buffer.from(await blob.arrayBuffer());

/**
 * One library through both generations: today's SDK (@immich/sdk 3.2.2) signs in, uploads, edits,
 * shares, searches, browses the timeline, trashes and restores; every step is read back through
 * @immich/sdk 1.100.0, and changes made there through v3.
 */
describe('one library through @immich/sdk 3.2.2 and 1.100.0', () => {
  const server = useServer();
  let me: Opts;
  let friend: { opts: Opts; id: string };
  let photo: { id: string; data: Buffer };
  let video: { id: string; data: Buffer };
  let second: string;

  beforeAll(async () => {
    const { baseUrl } = server;
    await v3.signUpAdmin({ signUpDto: { email: 'admin@immich.cloud', password: 'password', name: 'Admin' } }, { baseUrl });
    const admin = await v3.login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl });
    const asAdmin = { baseUrl, headers: { Authorization: `Bearer ${admin.accessToken}` } };
    // Not about OCR or duplicates or faces: off, as each photo's cost (test/support/ml-tasks.ts).
    await turnOffMlTasks(asAdmin, ['facialRecognition', 'ocr', 'duplicateDetection']);
    for (const name of ['Maria', 'Joao']) {
      await v3.createUserAdmin(
        {
          userAdminCreateDto: {
            email: `${name.toLowerCase()}@immich.cloud`,
            password: `password-${name}`,
            name,
            shouldChangePassword: false,
          },
        },
        asAdmin,
      );
    }
    const login = async (name: string) =>
      v3.login({ loginCredentialDto: { email: `${name.toLowerCase()}@immich.cloud`, password: `password-${name}` } }, { baseUrl });
    const maria = await login('Maria');
    expect(maria).toMatchObject({ name: 'Maria', shouldChangePassword: false, isOnboarded: false });
    me = { baseUrl, headers: { Authorization: `Bearer ${maria.accessToken}` } };
    const joao = await login('Joao');
    friend = { opts: { baseUrl, headers: { Authorization: `Bearer ${joao.accessToken}` } }, id: joao.userId };
  });

  it('signs in, reads and changes the account and its preferences, read back through v1.100', async () => {
    const user = await v3.getMyUser(me);
    expect(user).toMatchObject({ email: 'maria@immich.cloud', license: null, isAdmin: false });
    await v3.updateMyUser({ userUpdateMeDto: { name: 'Maria S' } }, me);
    expect(await v1.getMyUserInfo(me)).toMatchObject({ name: 'Maria S' });
    const preferences = await v3.updateMyPreferences({ userPreferencesUpdateDto: { memories: { enabled: false } } }, me);
    expect(preferences.memories.enabled).toBe(false);
    expect((await v1.getMyUserInfo(me)).memoriesEnabled).toBe(false);
    await v1.updateUser({ updateUserDto: { id: user.id, memoriesEnabled: true } }, me);
    expect((await v3.getMyPreferences(me)).memories.enabled).toBe(true);
  });

  it('uploads through POST /assets and serves the asset, its thumbnail, original and playback', async () => {
    const data = makeJpeg({ width: 640, height: 480, color: [30, 140, 200], make: 'Canon', city: 'Porto' });
    const upload = async (bytes: Buffer, name: string, extra: Partial<v3.AssetMediaCreateDto> = {}) =>
      v3.uploadAsset(
        {
          assetMediaCreateDto: {
            assetData: new File([new Uint8Array(bytes)], name),
            fileCreatedAt: '2024-06-01T10:00:00.000Z',
            fileModifiedAt: '2024-06-01T10:00:00.000Z',
            ...extra,
          },
        },
        me,
      );
    const created = await upload(data, 'porto.jpg');
    expect(created.status).toBe(v3.AssetMediaStatus.Created);
    expect((await upload(data, 'porto.jpg')).status).toBe(v3.AssetMediaStatus.Duplicate);
    photo = { id: created.id, data };
    const clip = makeVideo({ seconds: 1, width: 160, height: 90 });
    video = { id: (await upload(clip, 'clip.mp4', { duration: 1000 })).id, data: clip };
    second = (await upload(makeJpeg({ color: [200, 10, 10] }), 'second.jpg')).id;

    // Previews are made after the upload's answer: the thumbhash says they exist.
    const deadline = Date.now() + hangGuard.wait;
    let asset = await v3.getAssetInfo({ id: photo.id }, me);
    while (asset.thumbhash === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      asset = await v3.getAssetInfo({ id: photo.id }, me);
    }
    expect(asset).toMatchObject({ visibility: 'timeline', width: 640, height: 480, exifInfo: { make: 'Canon', city: 'Porto' } });
    const thumbnail = await bytesOf(await v3.viewAsset({ id: photo.id, size: v3.AssetMediaSize.Thumbnail }, me));
    expect(thumbnail.subarray(8, 12).toString()).toBe('WEBP');
    const preview = await bytesOf(await v3.viewAsset({ id: photo.id, size: v3.AssetMediaSize.Preview }, me));
    expect([...preview.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(sha1(await bytesOf(await v3.downloadAsset({ id: photo.id }, me)))).toBe(sha1(data));
    // fullsize of a JPEG is its original (a redirect the SDK follows).
    expect(sha1(await bytesOf(await v3.viewAsset({ id: photo.id, size: v3.AssetMediaSize.Fullsize }, me)))).toBe(sha1(data));
    expect(sha1(await bytesOf(await v3.playAssetVideo({ id: video.id }, me)))).toBe(sha1(clip));
    expect(await v3.getAssetInfo({ id: video.id }, me)).toMatchObject({ type: 'VIDEO', duration: 1000 });

    // v1.100 reads the same asset, with its own flags and duration text.
    expect(await v1.getAssetInfo({ id: photo.id }, me)).toMatchObject({ id: photo.id, isArchived: false, checksum: asset.checksum });
    expect(await v1.getAssetInfo({ id: video.id }, me)).toMatchObject({ duration: '00:00:01.000' });
  });

  it('favourites and archives many through visibility; v1.100 reads isArchived, and its unarchive reads back as timeline', async () => {
    await v3.updateAssets(
      { assetBulkUpdateDto: { ids: [photo.id, second], isFavorite: true, visibility: v3.AssetVisibility.Archive } },
      me,
    );
    expect(await v1.getAssetInfo({ id: second }, me)).toMatchObject({ isFavorite: true, isArchived: true });
    expect(await v3.getAssetStatistics({ visibility: v3.AssetVisibility.Archive }, me)).toEqual({ images: 2, videos: 0, total: 2 });
    await v1.updateAssets({ assetBulkUpdateDto: { ids: [photo.id, second], isArchived: false } }, me);
    expect((await v3.getAssetInfo({ id: photo.id }, me)).visibility).toBe(v3.AssetVisibility.Timeline);
  });

  it('makes an album with a user in a role, read through v1.100; the viewer looks, the owner promotes', async () => {
    const album = await v3.createAlbum(
      { createAlbumDto: { albumName: 'Porto', assetIds: [photo.id], albumUsers: [{ userId: friend.id, role: v3.AlbumUserRole.Viewer }] } },
      me,
    );
    expect(album.albumUsers.map((entry) => entry.role)).toEqual(['owner', 'viewer']);
    const old = await v1.getAlbumInfo({ id: album.id }, me);
    expect(old).toMatchObject({ albumName: 'Porto', assetCount: 1, sharedUsers: [{ id: friend.id }] });
    const theirs = (
      await v3.uploadAsset(
        {
          assetMediaCreateDto: {
            assetData: new File([new Uint8Array(makeJpeg({ color: [1, 200, 1] }))], 'joao.jpg'),
            fileCreatedAt: '2024-06-02T10:00:00.000Z',
            fileModifiedAt: '2024-06-02T10:00:00.000Z',
          },
        },
        friend.opts,
      )
    ).id;
    await expect(v3.addAssetsToAlbum({ id: album.id, bulkIdsDto: { ids: [theirs] } }, friend.opts)).rejects.toMatchObject({ status: 400 });
    await v3.updateAlbumUser({ id: album.id, userId: friend.id, updateAlbumUserDto: { role: v3.AlbumUserRole.Editor } }, me);
    expect(await v3.addAssetsToAlbum({ id: album.id, bulkIdsDto: { ids: [theirs] } }, friend.opts)).toEqual([
      { id: theirs, success: true },
    ]);
    expect((await v1.getAlbumInfo({ id: album.id }, me)).assetCount).toBe(2);
  });

  it('shares a link, opened by a visitor through both generations', async () => {
    const link = await v3.createSharedLink({ sharedLinkCreateDto: { type: v3.SharedLinkType.Individual, assetIds: [photo.id] } }, me);
    const visit = await v3.getMySharedLink({ key: link.key }, { baseUrl: server.baseUrl });
    expect(visit.assets.map((asset) => asset.id)).toEqual([photo.id]);
    const old = await v1.getMySharedLink({ key: link.key }, { baseUrl: server.baseUrl });
    expect(old.assets.map((asset) => asset.id)).toEqual([photo.id]);
    expect((await v1.getAllSharedLinks(me)).map((each) => each.id)).toContain(link.id);
  });

  it('searches on the path both generations share, each in its own shape', async () => {
    const found = await v3.searchAssets(
      { metadataSearchDto: { visibility: v3.AssetVisibility.Timeline, city: 'Porto', withExif: true } },
      me,
    );
    expect(found.assets.items.map((asset) => asset.id)).toEqual([photo.id]);
    expect(found.assets.items[0]?.visibility).toBe('timeline');
    const old = await v1.searchMetadata({ metadataSearchDto: { city: 'Porto' } }, me);
    expect(old.assets.items.map((asset) => asset.id)).toEqual([photo.id]);
    expect(old.assets.items[0]).not.toHaveProperty('visibility');
    expect(await v3.getSearchSuggestions({ $type: v3.SearchSuggestionType.City }, me)).toContain('Porto');
  });

  it("browses the timeline's months and a month's columns, counted as v1.100 counts them", async () => {
    const buckets = await v3.getTimeBuckets({}, me);
    expect(buckets).toEqual([{ timeBucket: '2024-06-01', count: 3 }]);
    const month = await v3.getTimeBucket({ timeBucket: '2024-06-01' }, me);
    expect(month.id.sort()).toEqual([photo.id, video.id, second].sort());
    const old = await v1.getTimeBuckets({ size: v1.TimeBucketSize.Month }, me);
    expect(old).toEqual([{ timeBucket: '2024-06-01T00:00:00.000Z', count: 3 }]);
  });

  it('trashes and restores, v3 told how many, v1.100 its empty answers', async () => {
    await v3.deleteAssets({ assetBulkDeleteDto: { ids: [second] } }, me);
    expect((await v1.getAssetInfo({ id: second }, me)).isTrashed).toBe(true);
    expect(await v3.restoreTrash(me)).toEqual({ count: 1 });
    expect((await v3.getAssetInfo({ id: second }, me)).isTrashed).toBe(false);
    await v1.deleteAssets({ assetBulkDeleteDto: { ids: [second] } }, me);
    await v1.restoreAssets({ bulkIdsDto: { ids: [second] } }, me);
    expect((await v3.getAssetInfo({ id: second }, me)).isTrashed).toBe(false);
    await v3.deleteAssets({ assetBulkDeleteDto: { ids: [second] } }, me);
    expect(await v3.emptyTrash(me)).toEqual({ count: 1 });
    await expect(v1.getAssetInfo({ id: second }, me)).rejects.toMatchObject({ status: 400 });
  });

  it("lists and ends sessions, seen as v1.100's devices", async () => {
    const extra = await v3.login(
      { loginCredentialDto: { email: 'maria@immich.cloud', password: 'password-Maria' } },
      { baseUrl: server.baseUrl },
    );
    const sessions = await v3.getSessions(me);
    expect(sessions.filter((session) => session.current)).toHaveLength(1);
    expect((await v1.getAuthDevices(me)).map((device) => device.id).sort()).toEqual(sessions.map((session) => session.id).sort());
    await v3.deleteAllSessions(me);
    await expect(
      v3.getMyUser({ baseUrl: server.baseUrl, headers: { Authorization: `Bearer ${extra.accessToken}` } }),
    ).rejects.toMatchObject({
      status: 401,
    });
    expect(await v3.getSessions(me)).toHaveLength(1);
  });
});
