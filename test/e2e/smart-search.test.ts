import * as v1 from '@immich/sdk';
import * as v3 from '@immich/sdk-v3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MlService, startMlService } from '../support/ml-service.ts';
import { makeJpeg } from '../support/photos.ts';
import { adminWithApiKey, type SdkUser, sdkUpload } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';
import { hangGuard } from '../support/timeouts.ts';

/**
 * Smart search through the server (local, or the synthesized stack's bundles) with Immich's own
 * SDKs (docs/search.md): the admin points machine learning at an Immich ML stand-in (v3's config
 * API, `machineLearning.urls`), photos uploaded by @immich/sdk are embedded by the media function,
 * and both generations' searchSmart rank a colour query's photo first.
 */
describe('smart search through both SDKs', () => {
  const server = useServer();
  let ml: MlService;
  let user: SdkUser;
  const photos: Record<'red' | 'green' | 'blue', string> = { red: '', green: '', blue: '' };

  beforeAll(async () => {
    ml = await startMlService();
    const admin = await adminWithApiKey(server.baseUrl, 'smart@immich.cloud');
    const config = await v3.getConfig(admin);
    await v3.updateConfig({ adminConfigDto: { ...config, machineLearning: { ...config.machineLearning, urls: [ml.url] } } }, admin);
    expect((await v3.getConfig(admin)).machineLearning.urls).toEqual([ml.url]);
    const email = `smart${Date.now()}@immich.cloud`;
    await v1.createUser({ createUserDto: { email, password: 'password', name: 'Smart' } }, admin);
    const { accessToken } = await v1.login({ loginCredentialDto: { email, password: 'password' } }, { baseUrl: server.baseUrl });
    const session = { baseUrl: server.baseUrl, headers: { Authorization: `Bearer ${accessToken}` } };
    const { secret } = await v3.createApiKey({ apiKeyCreateDto: { name: 'smart', permissions: [v3.Permission.All] } }, session);
    user = { baseUrl: server.baseUrl, headers: { 'x-api-key': secret } };
    photos.red = await sdkUpload(user, makeJpeg({ width: 96, height: 64, color: [250, 10, 10] }), 'red.jpg');
    photos.green = await sdkUpload(user, makeJpeg({ width: 96, height: 64, color: [10, 250, 10] }), 'green.jpg');
    photos.blue = await sdkUpload(user, makeJpeg({ width: 96, height: 64, color: [10, 10, 250] }), 'blue.jpg');
    // The media function embeds each photo after the upload's answer: wait for all three.
    const deadline = Date.now() + hangGuard.wait;
    while ((await v3.searchSmart({ smartSearchDto: { query: 'red' } }, user)).assets.items.length < 3 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 250));
  });
  afterAll(() => ml?.close());

  it('ranks the photo of the colour asked for first, on v3 and v1.100', async () => {
    for (const colour of ['red', 'green', 'blue'] as const) {
      const found = await v3.searchSmart({ smartSearchDto: { query: colour, language: 'en-US' } }, user);
      expect(found.assets.items.map((asset) => asset.id)[0]).toBe(photos[colour]);
      expect(found.assets.items).toHaveLength(3);
      expect(found.albums).toMatchObject({ total: 0, count: 0, items: [] });
      const old = await v1.searchSmart({ smartSearchDto: { query: colour } }, user);
      expect(old.assets.items.map((asset) => asset.id)).toEqual(found.assets.items.map((asset) => asset.id));
    }
    // v1.100's deprecated GET /search with `clip`.
    const clip = await v1.search({ q: 'blue', clip: true }, user);
    expect(clip.assets.items[0]?.id).toBe(photos.blue);
  });

  it('pages, filters and searches by an asset', async () => {
    const first = await v3.searchSmart({ smartSearchDto: { query: 'green', size: 1 } }, user);
    expect(first.assets.items.map((asset) => asset.id)).toEqual([photos.green]);
    expect(first.assets.nextPage).toBe('2');
    const last = await v1.searchSmart({ smartSearchDto: { query: 'green', size: 1, page: 3 } }, user);
    expect(last.assets.items).toHaveLength(1);
    expect(last.assets.nextPage).toBeNull();
    expect((await v3.searchSmart({ smartSearchDto: { query: 'red', takenAfter: '2100-01-01T00:00:00.000Z' } }, user)).assets.items).toEqual(
      [],
    );
    const similar = await v3.searchSmart({ smartSearchDto: { queryAssetId: photos.blue } }, user);
    expect(similar.assets.items[0]?.id).toBe(photos.blue);
  });

  it('answers 502 when the ML service fails, and 400 for a bad request', async () => {
    ml.setMode('error');
    try {
      await expect(v3.searchSmart({ smartSearchDto: { query: 'never asked before' } }, user)).rejects.toMatchObject({ status: 502 });
    } finally {
      ml.setMode('ok');
    }
    await expect(v3.searchSmart({ smartSearchDto: { query: 'red', size: 0 } }, user)).rejects.toMatchObject({ status: 400 });
    await expect(v3.searchSmart({ smartSearchDto: { language: 'en' } }, user)).rejects.toMatchObject({ status: 400 });
  });
});
