import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v3 from '@immich/sdk-v3';
import { beforeAll, describe, expect, it } from 'vitest';
import { immichCli } from '../support/immich-cli.ts';
import { type SdkUser, sdkUpload } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';
import { SyncClient } from '../support/sync-client.ts';
import { httpTransport } from '../support/sync-http.ts';
import { type TextImage, textImageSet } from '../support/text-images.ts';
import { sha1 } from '../support/uploads.ts';
import { pollUntil } from '../support/waits.ts';

/** Words compared without spaces: PP-OCRv4 sometimes drops one between two words (docs/ocr.md, "Accuracy"). */
const squash = (text: string) => text.replace(/\s+/g, '').toLowerCase();

describe('OCR with the defaults: the words of an uploaded image, searchable and synced', () => {
  const server = useServer();
  let user: SdkUser;
  let token: string;
  let hello: TextImage;
  let station: TextImage;
  let photo: TextImage;
  const ids = { hello: '', station: '', photo: '' };

  /** The asset's OCR lines once the media function has read it (an image with text has some). */
  const linesOf = (id: string): Promise<v3.AssetOcrResponseDto[]> =>
    pollUntil(
      () => v3.getAssetOcr({ id }, user),
      (lines) => lines.length > 0,
    );

  beforeAll(async () => {
    const { baseUrl } = server;
    await v3.signUpAdmin({ signUpDto: { email: 'admin@immich.cloud', password: 'password', name: 'Admin' } }, { baseUrl });
    const admin = await v3.login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl });
    token = admin.accessToken;
    const session = { baseUrl, headers: { Authorization: `Bearer ${token}` } };
    const { secret } = await v3.createApiKey({ apiKeyCreateDto: { name: 'cli', permissions: [v3.Permission.All] } }, session);
    user = { baseUrl, headers: { 'x-api-key': secret } };
    // Nothing configured: the defaults have OCR on and no ML service.
    const config = await v3.getConfig(user);
    expect(config.machineLearning.ocr.enabled).toBe(true);
    expect((await v3.getServerFeatures(user)).ocr).toBe(true);

    hello = await textImageSet.blackOnWhite();
    station = await textImageSet.twoLines();
    // Two images by the CLI, as a person uploads a folder.
    const root = mkdtempSync(join(tmpdir(), 'ocr-e2e-'));
    mkdirSync(join(root, 'photos'));
    writeFileSync(join(root, 'photos', 'hello.jpg'), hello.jpeg);
    writeFileSync(join(root, 'photos', 'station.jpg'), station.jpeg);
    await immichCli(join(root, 'config'), 'login', baseUrl, secret);
    const uploaded = await immichCli(join(root, 'config'), 'upload', '--recursive', join(root, 'photos'));
    expect(uploaded.stdout).toMatch(/Successfully uploaded 2 new assets/);
    const { results } = await v3.checkBulkUpload(
      {
        assetBulkUploadCheckDto: {
          assets: [
            { id: 'hello', checksum: sha1(hello.jpeg) },
            { id: 'station', checksum: sha1(station.jpeg) },
          ],
        },
      },
      user,
    );
    ids.hello = results.find((result) => result.id === 'hello')?.assetId ?? '';
    ids.station = results.find((result) => result.id === 'station')?.assetId ?? '';
    expect(ids.hello).not.toBe('');
    expect(ids.station).not.toBe('');
    // And one by the SDK, as the app uploads.
    photo = await textImageSet.whiteOnPhoto();
    ids.photo = await sdkUpload(user, photo.jpeg, 'holiday.jpg');
  });

  it('answers the words of each image at getAssetOcr, with boxes where they were drawn', async () => {
    const helloLines = await linesOf(ids.hello);
    expect(helloLines.map((line) => squash(line.text))).toEqual(['helloworld2024']);
    const [line] = helloLines;
    const drawn = hello.texts[0]!.box;
    expect(line).toMatchObject({ assetId: ids.hello, id: expect.any(String) });
    // Corners clockwise from top-left, 0–1 of the image, around the drawn text (a few pixels' margin).
    const margin = 0.03;
    expect(Math.min(line!.x1, line!.x4)).toBeGreaterThan(drawn.x1 - margin);
    expect(Math.min(line!.x1, line!.x4)).toBeLessThan(drawn.x1 + margin);
    expect(Math.max(line!.x2, line!.x3)).toBeGreaterThan(drawn.x2 - margin);
    expect(Math.max(line!.x2, line!.x3)).toBeLessThan(drawn.x2 + margin);
    expect(Math.min(line!.y1, line!.y2)).toBeGreaterThan(drawn.y1 - margin);
    expect(Math.min(line!.y1, line!.y2)).toBeLessThan(drawn.y1 + margin);
    expect(Math.max(line!.y3, line!.y4)).toBeGreaterThan(drawn.y2 - margin);
    expect(Math.max(line!.y3, line!.y4)).toBeLessThan(drawn.y2 + margin);
    expect(line!.boxScore).toBeGreaterThan(0.5);
    expect(line!.textScore).toBeGreaterThan(0.8);

    const stationLines = await linesOf(ids.station);
    expect(stationLines.map((found) => squash(found.text))).toEqual(station.texts.map((text) => squash(text.text)));
    // The first line above the second.
    expect(stationLines[0]!.y1).toBeLessThan(stationLines[1]!.y1);
    // White bold capitals on a photo-like background, uploaded by the SDK.
    expect((await linesOf(ids.photo)).map((found) => squash(found.text))).toEqual([squash(photo.texts[0]!.text)]);
  });

  it('finds an asset by a word of its text with searchAssets({ ocr }), and only that asset', async () => {
    await linesOf(ids.hello);
    await linesOf(ids.station);
    const found = async (ocr: string) =>
      (await v3.searchAssets({ metadataSearchDto: { ocr } }, user)).assets.items.map((asset) => asset.id);
    // Whole words, as docs/immich-compatibility.md ("OCR") says; the engine may join two (docs/ocr.md).
    expect(await found('2024')).toEqual([ids.hello]);
    expect(await found('Central')).toEqual([ids.station]);
    expect(await found('Grand Central')).toEqual([ids.station]);
    expect(await found('holiday')).toEqual([ids.photo]);
    expect(await found('zebra')).toEqual([]);
  });

  it('delivers the lines to the 3.x app as AssetOcrV1 in its sync stream', async () => {
    const expected = [...(await linesOf(ids.hello)), ...(await linesOf(ids.station)), ...(await linesOf(ids.photo))];
    const client = new SyncClient(httpTransport(server.baseUrl, token));
    await client.sync();
    expect(client.seen).toContain('AssetOcrV1');
    const synced = [...client.store.table('ocr').values()];
    expect(synced.map((row) => row.id).sort()).toEqual(expected.map((line) => line.id).sort());
    for (const line of expected) {
      const row = synced.find((candidate) => candidate.id === line.id);
      expect(row).toMatchObject({ assetId: line.assetId, text: line.text, x1: line.x1, y3: line.y3, boxScore: line.boxScore });
    }
    // Nothing new afterwards: the acks were taken.
    const again = await client.sync();
    expect(again.filter((synced) => synced.type === 'AssetOcrV1')).toEqual([]);
  });
});
