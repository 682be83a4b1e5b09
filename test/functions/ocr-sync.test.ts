import { describe, expect, it } from 'vitest';
import { freshUser, login } from '../support/accounts.ts';
import { mediaJobsInProcess } from '../support/media.ts';
import type { StandInOcrLine } from '../support/ml-service.ts';
import { standInLine, useOcrStandIn } from '../support/ocr.ts';
import { SyncClient } from '../support/sync-client.ts';

const stand = useOcrStandIn();
const { processedPhoto } = stand;

const line = (text: string, y = 0.1): StandInOcrLine => standInLine(text, { y, width: 0.4, boxScore: 0.9, textScore: 0.92 });

const ocrAgain = async (assetId: string, lines: StandInOcrLine[]) => {
  stand.ml.setOcr(lines);
  const jobs = mediaJobsInProcess();
  jobs.start();
  try {
    jobs.run([{ kind: 'asset-ocr', assetId, force: true }]);
    await jobs.settle();
  } finally {
    jobs.stop();
  }
};

const texts = (client: SyncClient) => [...client.store.table('ocr').values()].map((row) => row.text).sort();

describe('the sync stream’s AssetOcrV1 and AssetOcrDeleteV1', () => {
  it('sends the owner’s lines as the app stores them, and a run again replaces them (old ids deleted)', async () => {
    const user = await freshUser(stand.adminToken, 'OcrSync');
    const other = await freshUser(stand.adminToken, 'OcrOther');
    const photo = await processedPhoto(user.accessToken, [line('Platform 9'), line('Exit', 0.5)], [60, 90, 120]);
    const client = new SyncClient(user.accessToken);
    const lines = await client.sync();
    const rows = [...client.store.table('ocr').values()];
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.text === 'Exit')).toEqual({
      id: expect.any(String),
      assetId: photo,
      x1: 0.1,
      y1: 0.5,
      x2: 0.5,
      y2: 0.5,
      x3: 0.5,
      y3: expect.closeTo(0.55, 6),
      x4: 0.1,
      y4: expect.closeTo(0.55, 6),
      boxScore: 0.9,
      textScore: 0.92,
      text: 'Exit',
      isVisible: true,
    });
    // Immich's order: the assets before their text.
    const types = lines.map((each) => each.type);
    expect(types.indexOf('AssetV2')).toBeLessThan(types.indexOf('AssetOcrV1'));
    const oldIds = rows.map((row) => row.id).sort();

    await ocrAgain(photo, [line('Platform 10')]);
    const again = await client.sync();
    expect(texts(client)).toEqual(['Platform 10']);
    expect(
      again
        .filter((each) => each.type === 'AssetOcrDeleteV1')
        .map((each) => each.data.id)
        .sort(),
    ).toEqual(oldIds);
    expect(again.filter((each) => each.type === 'AssetOcrDeleteV1')[0]?.data).toEqual({
      id: expect.any(String),
      assetId: photo,
      deletedAt: expect.any(String),
    });
    // Nothing more once acked.
    expect((await client.sync()).filter((each) => each.type.startsWith('AssetOcr'))).toEqual([]);
    // Another user's app never gets them.
    const stranger = new SyncClient(other.accessToken);
    await stranger.sync();
    expect(texts(stranger)).toEqual([]);
  });

  it('converges when a batch ends inside an asset’s lines and the stream is cut there', async () => {
    const user = await freshUser(stand.adminToken, 'OcrCut');
    await processedPhoto(user.accessToken, [line('one'), line('two', 0.3), line('three', 0.6)], [20, 40, 60]);
    await processedPhoto(user.accessToken, [line('four'), line('five', 0.3), line('six', 0.6)], [60, 40, 20]);
    const types = ['AuthUsersV1', 'UsersV1', 'AssetsV2', 'AssetOcrV1'];
    const full = new SyncClient(user.accessToken);
    const lines = await full.sync({ types });
    expect(texts(full)).toEqual(['five', 'four', 'one', 'six', 'three', 'two']);
    // Cut after each line from the first asset's text to the last's, in batches of two and of
    // three: some batches end inside an asset's lines, which the app applies and acks.
    const first = lines.findIndex((each) => each.type === 'AssetOcrV1');
    for (const batchSize of [2, 3])
      for (let cut = first + 1; cut <= first + 6; cut++) {
        const session = await login({ email: user.email, password: 'password-OcrCut' });
        const client = new SyncClient(session.accessToken, { batchSize });
        expect((await client.attempt({ types, cutAfter: cut })).ok).toBe(false);
        await client.sync({ types });
        expect(texts(client), `cut after ${cut} of ${lines.length}, batches of ${batchSize}`).toEqual(texts(full));
      }
  });
});
