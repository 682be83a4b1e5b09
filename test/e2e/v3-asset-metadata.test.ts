import * as v3 from '@immich/sdk-v3';
import { beforeAll, describe, expect, it } from 'vitest';
import { assetItem } from '#shared/db/items/asset.ts';
import { putItems } from '../support/bulk-write.ts';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg } from '../support/photos.ts';
import { assetRecord } from '../support/records.ts';
import { useServer } from '../support/server.ts';
import { SyncClient } from '../support/sync-client.ts';
import { httpTransport } from '../support/sync-http.ts';

type Opts = { baseUrl: string; headers: Record<string, string> };

/** What the iOS app keeps under `mobile-app` (its iCloud id), every value a string. */
const cloudId = (n: number, extra: Record<string, string> = {}) => ({
  iCloudId: `8F1E2C1A-6D2B-4B1E-9F2E-${String(n).padStart(12, '0')}:001:AWKeBa3ue4sXeO9xUfmDOiwBn0Xq`,
  createdAt: '2023-06-15T10:23:45.000Z',
  latitude: '37.331828333',
  longitude: '-122.030177',
  ...extra,
});

/**
 * The iOS app's cloud ids (asset metadata) through @immich/sdk 3.2.2 and the server, on both
 * targets: sent with an upload, upserted and deleted one by one and in bulk, read back, and synced
 * into the app's cloud-id table; a page of several MB goes through the transport's limits.
 */
describe('asset metadata through @immich/sdk 3.2.2', () => {
  const server = useServer();
  let me: Opts;
  let token: string;
  let userId: string;

  beforeAll(async () => {
    const { baseUrl } = server;
    await v3.signUpAdmin({ signUpDto: { email: 'admin@immich.cloud', password: 'password', name: 'Admin' } }, { baseUrl });
    const admin = await v3.login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl });
    token = admin.accessToken;
    userId = admin.userId;
    me = { baseUrl, headers: { Authorization: `Bearer ${token}` } };
    // The metadata is what this file is about: none of the uploads' machine learning.
    await turnOffMlTasks(me, ['facialRecognition', 'ocr', 'duplicateDetection']);
  });

  /** The asset once its previews are made (they change it: a sync after that sends it as it stays). */
  const settled = async (id: string) => {
    for (let attempt = 0; attempt < 100; attempt++) {
      if ((await v3.getAssetInfo({ id }, me)).thumbhash) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no previews for ${id}`);
  };

  it('keeps the cloud id sent with an upload, reads, changes and deletes keys, and syncs them to the app', async () => {
    const uploaded = await v3.uploadAsset(
      {
        assetMediaCreateDto: {
          assetData: new File([new Uint8Array(makeJpeg({ color: [120, 30, 200] }))], 'IMG_0001.jpg'),
          fileCreatedAt: '2023-06-15T10:23:45.000Z',
          fileModifiedAt: '2023-06-15T10:23:45.000Z',
          // The app's form: one text field of JSON (the SDK would send each item as a file part).
          metadata: JSON.stringify([{ key: 'mobile-app', value: cloudId(1) }]) as never,
        },
      },
      me,
    );
    const id = uploaded.id;
    await settled(id);
    expect(await v3.getAssetMetadata({ id }, me)).toEqual([{ key: 'mobile-app', value: cloudId(1), updatedAt: expect.any(String) }]);

    const app = new SyncClient(httpTransport(server.baseUrl, token));
    await app.sync();
    expect(app.cloudIds.get(id)).toMatchObject({ cloudId: cloudId(1).iCloudId, latitude: 37.331828333, longitude: -122.030177 });

    const changed = await v3.updateAssetMetadata(
      { id, assetMetadataUpsertDto: { items: [{ key: 'mobile-app', value: cloudId(1, { adjustmentTime: '2024-02-03T04:05:06.000Z' }) }] } },
      me,
    );
    expect(changed).toEqual([
      { key: 'mobile-app', value: cloudId(1, { adjustmentTime: '2024-02-03T04:05:06.000Z' }), updatedAt: expect.any(String) },
    ]);
    expect((await v3.getAssetMetadataByKey({ id, key: 'mobile-app' }, me)).value.adjustmentTime).toBe('2024-02-03T04:05:06.000Z');
    await expect(v3.getAssetMetadataByKey({ id, key: 'other/key' }, me)).rejects.toMatchObject({
      status: 400,
      data: { message: `Metadata with key "other/key" not found for asset with id "${id}"` },
    });
    const bulk = await v3.updateBulkAssetMetadata(
      { assetMetadataBulkUpsertDto: { items: [{ assetId: id, key: 'other/key', value: { n: 1 } }] } },
      me,
    );
    expect(bulk).toEqual([{ assetId: id, key: 'other/key', value: { n: 1 }, updatedAt: expect.any(String) }]);
    expect((await v3.getAssetMetadataByKey({ id, key: 'other/key' }, me)).value).toEqual({ n: 1 });
    await app.sync();
    expect(app.cloudIds.get(id)?.adjustmentTime).toBe('2024-02-03T04:05:06.000Z');

    await v3.deleteBulkAssetMetadata({ assetMetadataBulkDeleteDto: { items: [{ assetId: id, key: 'other/key' }] } }, me);
    await v3.deleteAssetMetadata({ id, key: 'mobile-app' }, me);
    expect(await v3.getAssetMetadata({ id }, me)).toEqual([]);
    const gone = await app.sync();
    expect(gone.filter((line) => line.type === 'AssetMetadataDeleteV1').map((line) => line.data.key)).toEqual(['other/key', 'mobile-app']);
    expect(app.cloudIds.has(id)).toBe(false);
  });

  it('takes a page of several MB within the bulk limit and answers it compressed; a larger one is a 413', async () => {
    // 1,000 photos written straight to the table (as uploads leave them), each given a 5 KB value:
    // about 5.2 MB of request (within what a Lambda invocation carries), and as much answer.
    const assets = Array.from({ length: 1_000 }, () => assetRecord(userId));
    await putItems(assets.map(assetItem));
    const items = assets.map((asset, n) => ({ assetId: asset.id, key: 'mobile-app', value: cloudId(n, { note: 'n'.repeat(5_000) }) }));
    expect(Buffer.byteLength(JSON.stringify({ items }))).toBeGreaterThan(5_000_000);
    // The SDK's own fetch (which asks for gzip), watched for how the answer came.
    let encoding: string | null = null;
    const watched: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      encoding = response.headers.get('content-encoding');
      return response;
    };
    const answer = await v3.updateBulkAssetMetadata({ assetMetadataBulkUpsertDto: { items } }, { ...me, fetch: watched });
    expect(encoding).toBe('gzip');
    expect(answer).toHaveLength(1_000);
    expect(answer[999]).toEqual({ ...items[999], updatedAt: expect.any(String) });
    expect((await v3.getAssetMetadataByKey({ id: assets[500]?.id ?? '', key: 'mobile-app' }, me)).value).toEqual(items[500]?.value);

    // Over the bulk limit (5.5 MB): refused before anything is read or written.
    const over = items.map((item) => ({ ...item, key: 'over', value: { ...item.value, more: 'm'.repeat(600) } }));
    await expect(v3.updateBulkAssetMetadata({ assetMetadataBulkUpsertDto: { items: over } }, me)).rejects.toMatchObject({ status: 413 });
    expect(await v3.getAssetMetadata({ id: assets[0]?.id ?? '' }, me)).toHaveLength(1);
  });
});
