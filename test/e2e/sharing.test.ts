import { createHash } from 'node:crypto';
import {
  addAssetsToAlbum,
  createAlbum,
  createSharedLink,
  deleteAssets,
  getAllSharedLinks,
  getMySharedLink,
  isHttpError,
  SharedLinkType,
  uploadFile,
} from '@immich/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg } from '../support/photos.ts';
import { adminWithApiKey, type SdkUser } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';

// Albums and password-protected shared links through @immich/sdk, end to end: the functions that
// derive link keys and password tokens need the link secret (deployed: read from Secrets Manager).
describe('sharing an album through @immich/sdk 1.100.0', () => {
  const server = useServer();
  let owner: SdkUser;

  beforeAll(async () => {
    owner = await adminWithApiKey(server.baseUrl, 'owner@immich.cloud');
    await turnOffMlTasks(owner, ['facialRecognition', 'ocr', 'duplicateDetection']);
  });

  it('uploads a photo into an album, shares it behind a password; a visitor gets in with the password, then with the token it earned', async () => {
    const photo = makeJpeg({ make: 'Sharing' });
    const { id: assetId } = await uploadFile(
      {
        createAssetDto: {
          assetData: new File([new Uint8Array(photo)], 'shared.jpg'),
          deviceAssetId: 'shared-1',
          deviceId: 'e2e',
          fileCreatedAt: '2024-02-03T04:05:06.000Z',
          fileModifiedAt: '2024-02-03T04:05:06.000Z',
        },
      },
      owner,
    );
    const album = await createAlbum({ createAlbumDto: { albumName: 'Holiday' } }, owner);
    expect(await addAssetsToAlbum({ id: album.id, bulkIdsDto: { ids: [assetId] } }, owner)).toEqual([{ id: assetId, success: true }]);

    const link = await createSharedLink(
      { sharedLinkCreateDto: { type: SharedLinkType.Album, albumId: album.id, password: 'open sesame' } },
      owner,
    );
    expect(link.key).toMatch(/^[\w-]{67}$/);
    expect((await getAllSharedLinks(owner)).map((each) => each.key)).toEqual([link.key]);

    const visitor = { baseUrl: server.baseUrl };
    const refused = await getMySharedLink({ key: link.key }, visitor).catch((error: unknown) => error);
    expect(isHttpError(refused) && [refused.status, refused.data.message]).toEqual([401, 'Invalid password']);
    const opened = await getMySharedLink({ key: link.key, password: 'open sesame' }, visitor);
    expect(opened.album?.albumName).toBe('Holiday');
    expect(opened.assets.map((asset) => asset.checksum)).toEqual([createHash('sha1').update(photo).digest('base64')]);
    const token = (opened as { token?: string }).token ?? '';
    expect(token).toMatch(/^\d+\.[\w-]{43}$/);
    expect((await getMySharedLink({ key: link.key, token }, visitor)).album?.id).toBe(album.id);

    await deleteAssets({ assetBulkDeleteDto: { ids: [assetId], force: true } }, owner);
    expect((await getMySharedLink({ key: link.key, token }, visitor)).assets).toEqual([]);
  });
});
