import {
  checkExistingAssets,
  createAlbum,
  createApiKey,
  createSharedLink,
  deleteAlbum,
  getAlbumCount,
  getAllPeople,
  getAllUserAssetsByDeviceId,
  getAssetInfo,
  getMemoryLane,
  getPersonAssets,
  getPersonStatistics,
  SharedLinkType,
  updateAlbumInfo,
  updateApiKey,
  updateAsset,
} from '@immich/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg } from '../support/photos.ts';
import { adminWithApiKey, type SdkUser, sdkUpload } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';
import { hangGuard } from '../support/timeouts.ts';

// Calls Immich's web app makes beside the pages' main ones (the person page loads
// getPersonStatistics with getPerson; the albums page getAlbumCount).
describe('counts the web app reads, through @immich/sdk 1.100.0', () => {
  const server = useServer();
  let user: SdkUser;

  beforeAll(async () => {
    user = await adminWithApiKey(server.baseUrl, 'counts@immich.cloud');
    // Not about OCR or duplicates: off, as each photo's cost (test/support/ml-tasks.ts).
    await turnOffMlTasks(user, ['ocr', 'duplicateDetection']);
  });

  const send = (data: Buffer, fileName: string) => sdkUpload(user, data, fileName);

  it('getPersonStatistics counts what getPersonAssets shows (not archived, not trashed)', async () => {
    const face = [{ name: 'Counted Person', x: 0.3, y: 0.3, w: 0.2, h: 0.2 }];
    const ids = [];
    for (const index of [1, 2, 3])
      ids.push(await send(makeJpeg({ width: 64, height: 64, comment: `c${index}`, mwgFaces: face }), `c${index}.jpg`));
    const person = (await getAllPeople({}, user)).people.find((each) => each.name === 'Counted Person');
    const id = person?.id ?? '';
    expect(await getPersonStatistics({ id }, user)).toEqual({ assets: 3 });
    await updateAsset({ id: ids[0] ?? '', updateAssetDto: { isArchived: true } }, user);
    expect(await getPersonStatistics({ id }, user)).toEqual({ assets: 2 });
    expect((await getPersonAssets({ id }, user)).length).toBe(2);
    const missing = await fetch(`${server.baseUrl}/person/${crypto.randomUUID()}/statistics`, { headers: user.headers });
    expect(missing.status).toBe(400);
  });

  it('getAlbumCount: owned, shared (by a link) and not shared', async () => {
    expect(await getAlbumCount(user)).toEqual({ owned: 0, shared: 0, notShared: 0 });
    const first = await createAlbum({ createAlbumDto: { albumName: 'One' } }, user);
    await createAlbum({ createAlbumDto: { albumName: 'Two' } }, user);
    await createSharedLink({ sharedLinkCreateDto: { type: SharedLinkType.Album, albumId: first.id } }, user);
    expect(await getAlbumCount(user)).toEqual({ owned: 2, shared: 1, notShared: 1 });
  });

  it('the library chores: rename an album, delete it (its link with it), rename an API key', async () => {
    const album = await createAlbum({ createAlbumDto: { albumName: 'Chores' } }, user);
    const renamed = await updateAlbumInfo({ id: album.id, updateAlbumDto: { albumName: 'Done', description: 'tidy' } }, user);
    expect(renamed).toMatchObject({ id: album.id, albumName: 'Done', description: 'tidy' });
    const link = await createSharedLink({ sharedLinkCreateDto: { type: SharedLinkType.Album, albumId: album.id } }, user);
    const before = await getAlbumCount(user);
    await deleteAlbum({ id: album.id }, user);
    expect(await getAlbumCount(user)).toEqual({ ...before, owned: before.owned - 1, shared: before.shared - 1 });
    expect((await fetch(`${server.baseUrl}/shared-link/me?key=${link.key}`)).status).toBe(401);
    const { apiKey } = await createApiKey({ apiKeyCreateDto: { name: 'old' } }, user);
    expect(await updateApiKey({ id: apiKey.id, apiKeyUpdateDto: { name: 'new' } }, user)).toMatchObject({ id: apiKey.id, name: 'new' });
  });

  it('the mobile app’s backup checks: a device’s assets and which exist', async () => {
    await send(makeJpeg({ width: 32, height: 32, comment: 'backup' }), 'backup.jpg');
    // `send` uploads with deviceId e2e and the file name as deviceAssetId.
    expect(await getAllUserAssetsByDeviceId({ deviceId: 'e2e' }, user)).toContain('backup.jpg');
    expect(
      await checkExistingAssets({ checkExistingAssetsDto: { deviceId: 'e2e', deviceAssetIds: ['backup.jpg', 'not-there.jpg'] } }, user),
    ).toEqual({ existingIds: ['backup.jpg'] });
  });

  it('memory lane: this day in earlier years, once the previews exist', async () => {
    const lastYear = new Date().getUTCFullYear() - 1;
    const id = await send(
      makeJpeg({ width: 40, height: 30, dateTimeOriginal: `${lastYear}:03:09 10:00:00`, offsetTimeOriginal: '+01:00' }),
      'memory.jpg',
    );
    const deadline = Date.now() + hangGuard.wait;
    while (!(await getAssetInfo({ id }, user)).resized && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const lane = await getMemoryLane({ day: 9, month: 3 }, user);
    expect(lane.map((group) => [group.yearsAgo, group.title, group.assets.map((asset) => asset.id)])).toEqual([
      [1, '1 year since...', [id]],
    ]);
  });
});
