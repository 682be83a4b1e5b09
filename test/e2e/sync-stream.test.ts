import * as v3 from '@immich/sdk-v3';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Deployment } from '#infra/local/deployed/assembly.ts';
import { assetItem } from '#shared/db/items/asset.ts';
import { AssetRecordSchema } from '#shared/model/asset.ts';
import { putItems } from '../support/bulk-write.ts';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg } from '../support/photos.ts';
import { target, useServer } from '../support/server.ts';
import { appTypes, SyncClient } from '../support/sync-client.ts';
import { httpTransport, streamOverHttp } from '../support/sync-http.ts';

type Opts = { baseUrl: string; headers: Record<string, string> };

// The streaming function gets a heap far smaller than the stream it sends (deployed form): an
// answer collected before it is sent would not fit.
const streamHeapMb = 48;
const capStreamHeap = (deployment: Deployment): void => {
  for (const url of deployment.functionUrls) {
    const fn = deployment.functions.get(url.functionId);
    if (fn) fn.memoryMb = streamHeapMb;
  }
};

/**
 * The mobile app's sync through the server itself (both targets: `npm start`, and the template as
 * deployed, where the stream is a function URL in RESPONSE_STREAM mode behind the distribution).
 */
describe('the sync stream over HTTP', () => {
  const server = useServer({ adjust: capStreamHeap });
  let me: Opts;
  let token: string;
  let userId: string;

  const upload = async (color: [number, number, number], name: string) =>
    v3.uploadAsset(
      {
        assetMediaCreateDto: {
          assetData: new File([new Uint8Array(makeJpeg({ color }))], name),
          fileCreatedAt: '2024-06-01T10:00:00.000Z',
          fileModifiedAt: '2024-06-01T10:00:00.000Z',
        },
      },
      me,
    );

  const settled = async (id: string) => {
    for (let attempt = 0; attempt < 100; attempt++) {
      if ((await v3.getAssetInfo({ id }, me)).thumbhash) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no previews for ${id}`);
  };

  beforeAll(async () => {
    const { baseUrl } = server;
    await v3.signUpAdmin({ signUpDto: { email: 'admin@immich.cloud', password: 'password', name: 'Admin' } }, { baseUrl });
    const admin = await v3.login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl });
    token = admin.accessToken;
    userId = admin.userId;
    me = { baseUrl, headers: { Authorization: `Bearer ${token}` } };
    // The stream is what this file is about: none of the uploads' machine learning.
    await turnOffMlTasks(me, ['facialRecognition', 'ocr', 'duplicateDetection']);
  });

  it('first sync, an incremental one, DELETE /sync/ack and a reset, as the app does them', async () => {
    const first = await upload([200, 10, 10], 'one.jpg');
    const second = await upload([10, 200, 10], 'two.jpg');
    // Their previews are made in the background and change them (the thumbhash): let that land first.
    await settled(first.id);
    await settled(second.id);
    const client = new SyncClient(httpTransport(server.baseUrl, token));
    const lines = await client.sync();
    expect(lines.at(-1)?.type).toBe('SyncCompleteV1');
    expect([...client.assets.keys()].sort()).toEqual([first.id, second.id].sort());
    expect(client.authUser).toMatchObject({ id: userId, email: 'admin@immich.cloud', isAdmin: true });

    // Acked: nothing new but the completion.
    expect((await client.sync()).map((line) => line.type)).toEqual(['SyncCompleteV1']);
    await v3.updateAsset({ id: first.id, updateAssetDto: { isFavorite: true } }, me);
    const changed = await client.sync();
    expect(changed.filter((line) => line.type === 'AssetV2').map((line) => line.data.id)).toEqual([first.id]);
    expect(client.assets.get(first.id)?.isFavorite).toBe(true);

    const acks = await v3.getSyncAck(me);
    expect(acks.map((ack) => ack.type)).toEqual(expect.arrayContaining(['AssetV2', 'AssetExifV1', 'SyncCompleteV1']));
    await v3.deleteSyncAck({ syncAckDeleteDto: { types: [v3.SyncEntityType.AssetV2] } }, me);
    expect((await client.sync()).filter((line) => line.type === 'AssetV2')).toHaveLength(2);

    const reset = await streamOverHttp(server.baseUrl, token, { types: appTypes, reset: true });
    expect(reset.lines.filter((line) => line.type === 'AssetV2')).toHaveLength(2);
    await v3.sendSyncAck({ syncAckSetDto: { acks: ['SyncResetV1|reset'] } }, me);
    expect(await v3.getSyncAck(me)).toEqual([]);
  });

  it('a sync cut off mid-stream resumes from its last ack and converges', async () => {
    for (let i = 0; i < 4; i++) await settled((await upload([i * 40, 30, 90], `cut-${i}.jpg`)).id);
    const session = await v3.login(
      { loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } },
      { baseUrl: server.baseUrl },
    );
    // Batches of 2 lines (the app's are 5,000): the cut comes after two whole batches and one line.
    const client = new SyncClient(httpTransport(server.baseUrl, session.accessToken), { batchSize: 2 });
    const cut = await client.attempt({ cutAfter: 5 });
    expect(cut.ok).toBe(false);
    expect(cut.lines).toHaveLength(5);
    expect(client.seen).toHaveLength(4);
    await client.sync();
    const whole = new SyncClient(httpTransport(server.baseUrl, token));
    await v3.sendSyncAck({ syncAckSetDto: { acks: ['SyncResetV1|reset'] } }, me);
    await whole.sync();
    expect(client.assets).toEqual(whole.assets);
    expect(client.exifs).toEqual(whole.exifs);
  });

  it('refuses an API key with Immich’s 403, and answers a bad request as JSON', async () => {
    const key = await v3.createApiKey({ apiKeyCreateDto: { name: 'sync', permissions: [v3.Permission.All] } }, me);
    const response = await fetch(`${server.baseUrl}/sync/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key.secret },
      body: JSON.stringify({ types: ['AssetsV2'] }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: 'Sync endpoints cannot be used with API keys' });
    const old = await streamOverHttp(server.baseUrl, token, { types: ['AssetsV1'] });
    expect(old.status).toBe(400);
    expect(old.body.message).toBe('SyncRequestType.AssetsV1 is deprecated, use SyncRequestType.AssetsV2 instead');
  });

  // Deployed, the function's heap (48 MB) is far smaller than the 32 MB of 900 assets with long
  // descriptions (35,000 characters each: the bytes of ten times as many assets with 3,500, for a
  // tenth of the items to write): only an answer sent as it is read fits. From source (`npm start`)
  // no heap is capped, and 200 assets (7 MB, past Lambda's 6 MB for an answer not streamed) prove
  // the streaming and the compression for a fifth of the writes and reads.
  const bulk =
    target() === 'deployed'
      ? { assets: 900, bytes: 30_000_000, title: 'streams 30 MB, compressed on the way, with the function’s memory flat' }
      : { assets: 200, bytes: 6_291_456, title: 'streams 7 MB, compressed on the way' };
  it(bulk.title, async () => {
    // Assets with long descriptions, written straight to the table (as uploads would leave them).
    const description = 'd'.repeat(35_000);
    const now = new Date().toISOString();
    const items = Array.from({ length: bulk.assets }, (_, i) => {
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      return assetItem(
        v.parse(AssetRecordSchema, {
          id,
          ownerId: userId,
          libraryId: '00000000-0000-4000-8000-000000000000',
          deviceAssetId: `bulk-${i}`,
          deviceId: 'bulk',
          type: 'IMAGE',
          originalPath: `upload/${userId}/bulk/${id}.jpg`,
          originalFileName: `bulk-${i}.jpg`,
          checksum: i.toString(16).padStart(40, '0'),
          fileCreatedAt: now,
          fileModifiedAt: now,
          localDateTime: now,
          createdAt: now,
          updatedAt: now,
          isFavorite: false,
          visibility: 'timeline',
          isOffline: false,
          isReadOnly: false,
          isExternal: false,
          exif: { description },
        }),
      );
    });
    await putItems(items);
    const session = await v3.login(
      { loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } },
      { baseUrl: server.baseUrl },
    );
    let assets = 0;
    const reply = await streamOverHttp(
      server.baseUrl,
      session.accessToken,
      { types: ['AssetsV2', 'AssetExifsV1'] },
      {
        onLine: (line) => {
          if (line.type === 'AssetV2') assets++;
        },
      },
    );
    expect(reply.status).toBe(200);
    // fetch asks for gzip and undoes it: the server compressed what it sent.
    expect(reply.headers.get('content-encoding')).toBe('gzip');
    expect(reply.bytes).toBeGreaterThan(bulk.bytes);
    expect(assets).toBeGreaterThanOrEqual(bulk.assets);
    expect(reply.lines.at(-1)?.type).toBe('SyncCompleteV1');
  });
});
