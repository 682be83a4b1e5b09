import {
  AssetOrder,
  createAlbum,
  createSharedLink,
  deleteAssets,
  EntityType,
  getAlbumInfo,
  getAllAssets,
  getAllPeople,
  getAssetStatistics,
  getAssetThumbnail,
  getAuditDeletes,
  getMemoryLane,
  getMySharedLink,
  getMyUserInfo,
  getPerson,
  getPersonStatistics,
  getServerConfig,
  getServerFeatures,
  getServerInfo,
  getServerVersion,
  getTheme,
  getTimeBucket,
  getTimeBuckets,
  login,
  SharedLinkType,
  TimeBucketSize,
  updateAsset,
} from '@immich/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeJpeg } from '../support/photos.ts';
import { adminWithApiKey, type SdkUser, sdkUpload } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';

// The calls Immich's web and mobile apps (v1.100) make, in their order, through @immich/sdk:
// the web app's login → photos → person → album → shared link pages, and the mobile app's
// login → full sync → delta sync after a delete.
describe("Immich's apps, replayed through @immich/sdk 1.100.0", () => {
  const server = useServer();
  const email = 'apps@immich.cloud';
  const password = 'password';
  let owner: SdkUser;
  const photos: string[] = [];

  beforeAll(async () => {
    owner = await adminWithApiKey(server.baseUrl, email, password);
    const face = [{ name: 'Flow Person', x: 0.3, y: 0.3, w: 0.2, h: 0.2 }];
    const shots = [
      { dateTimeOriginal: '2023:07:01 00:30:00', offsetTimeOriginal: '+02:00', mwgFaces: face },
      { dateTimeOriginal: '2023:07:20 18:00:00', offsetTimeOriginal: '-07:00' },
      { dateTimeOriginal: '2022:12:31 23:00:00', offsetTimeOriginal: '+00:00', mwgFaces: face },
    ];
    for (const [index, shot] of shots.entries())
      photos.push(
        await sdkUpload(owner, makeJpeg({ width: 48, height: 32, comment: `flow${index}`, ...shot }), `flow${index}.jpg`, 'phone'),
      );
  });

  it('the web app: login, photos, a person, an album and its shared link as a visitor', async () => {
    const { baseUrl } = server;
    // Login page.
    expect((await getServerConfig({ baseUrl })).isInitialized).toBe(true);
    expect((await getServerFeatures({ baseUrl })).passwordLogin).toBe(true);
    const session = await login({ loginCredentialDto: { email, password } }, { baseUrl });
    const web = { baseUrl, headers: { Authorization: `Bearer ${session.accessToken}` } };
    expect((await getMyUserInfo(web)).email).toBe(email);
    await Promise.all([getServerVersion(web), getTheme(web), getServerInfo(web)]);

    // Photos: the buckets, then each bucket on screen.
    const buckets = await getTimeBuckets({ size: TimeBucketSize.Month, isArchived: false, withPartners: true, withStacked: true }, web);
    expect(buckets).toEqual([
      { timeBucket: '2023-07-01T00:00:00.000Z', count: 2 },
      { timeBucket: '2022-12-01T00:00:00.000Z', count: 1 },
    ]);
    const july = await getTimeBucket(
      { size: TimeBucketSize.Month, timeBucket: buckets[0]?.timeBucket ?? '', isArchived: false, withPartners: true, withStacked: true },
      web,
    );
    expect(july.map((asset) => asset.id)).toEqual([photos[1], photos[0]]);
    expect(await getMemoryLane({ day: 1, month: 7 }, web)).toBeInstanceOf(Array);
    expect(await getAssetStatistics({}, web)).toEqual({ images: 3, videos: 0, total: 3 });

    // A person's page: the person, their statistics, their buckets.
    const person = (await getAllPeople({}, web)).people.find((each) => each.name === 'Flow Person');
    const personId = person?.id ?? '';
    const [found, stats, personBuckets] = await Promise.all([
      getPerson({ id: personId }, web),
      getPersonStatistics({ id: personId }, web),
      getTimeBuckets({ size: TimeBucketSize.Month, personId, isArchived: false }, web),
    ]);
    expect(found.name).toBe('Flow Person');
    expect(stats).toEqual({ assets: 2 });
    expect(personBuckets.map((bucket) => bucket.count)).toEqual([1, 1]);

    // An album's page, and its shared link opened by a visitor (key only).
    const album = await createAlbum({ createAlbumDto: { albumName: 'Flow', assetIds: [photos[0] ?? '', photos[2] ?? ''] } }, web);
    expect((await getAlbumInfo({ id: album.id, withoutAssets: true }, web)).assetCount).toBe(2);
    const albumBuckets = await getTimeBuckets({ size: TimeBucketSize.Month, albumId: album.id, order: AssetOrder.Asc }, web);
    expect(albumBuckets.map((bucket) => bucket.timeBucket)).toEqual(['2022-12-01T00:00:00.000Z', '2023-07-01T00:00:00.000Z']);
    const link = await createSharedLink({ sharedLinkCreateDto: { type: SharedLinkType.Album, albumId: album.id } }, web);
    const visitor = { baseUrl };
    const shared = await getMySharedLink({ key: link.key }, visitor);
    expect(shared.album?.id).toBe(album.id);
    const visitorBuckets = await getTimeBuckets({ size: TimeBucketSize.Month, albumId: album.id, key: link.key }, visitor);
    expect(visitorBuckets).toEqual(albumBuckets.slice().reverse());
    const visible = await getTimeBucket(
      { size: TimeBucketSize.Month, albumId: album.id, key: link.key, timeBucket: visitorBuckets[0]?.timeBucket ?? '' },
      visitor,
    );
    expect(visible.map((asset) => asset.id)).toEqual([photos[0]]);
    // The visitor cannot reach the owner's timeline.
    await expect(getTimeBuckets({ size: TimeBucketSize.Month, key: link.key }, visitor)).rejects.toMatchObject({ status: 400 });
    await expect(getAssetThumbnail({ id: photos[1] ?? '', key: link.key }, visitor)).rejects.toMatchObject({ status: 400 });
  });

  it('the mobile app: login, a full sync in chunks, then a delta sync after a change and a delete', async () => {
    const { baseUrl } = server;
    const session = await login({ loginCredentialDto: { email, password } }, { baseUrl });
    const phone = { baseUrl, headers: { Authorization: `Bearer ${session.accessToken}` } };
    const userId = session.userId;

    const started = new Date().toISOString();
    const chunk = await getAllAssets({ userId, updatedBefore: started, skip: 0, take: 10_000 }, phone);
    expect(chunk.map((asset) => asset.id).sort()).toEqual([...photos].sort());
    const deleted = await getAuditDeletes({ after: started, entityType: EntityType.Asset, userId }, phone);
    expect(deleted).toEqual({ needsFullSync: false, ids: [] });

    // The next sync asks what changed since the last one (past the index's lag window).
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    const since = new Date().toISOString();
    await updateAsset({ id: photos[1] ?? '', updateAssetDto: { isFavorite: true } }, phone);
    await deleteAssets({ assetBulkDeleteDto: { ids: [photos[2] ?? ''], force: true } }, phone);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const deletes = await getAuditDeletes({ after: since, entityType: EntityType.Asset, userId }, phone);
    expect(deletes).toEqual({ needsFullSync: false, ids: [photos[2]] });
    const changed = await getAllAssets({ userId, updatedAfter: since }, phone);
    expect(changed.map((asset) => asset.id)).toEqual([photos[1]]);
    expect(changed[0]?.isFavorite).toBe(true);
  });
});
