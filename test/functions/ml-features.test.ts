import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as getServerFeaturesV1 } from '#functions/server-info/get-server-features.ts';
import { handler as getConfigHandler } from '#functions/system-config/get-config.ts';
import { handler as updateConfigHandler } from '#functions/system-config/update-config.ts';
import { handler as getServerFeaturesV3 } from '#functions/v3/server/get-server-features.ts';
import { bearer, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { type MlService, startMlService } from '../support/ml-service.ts';

/**
 * Which machine-learning features both generations report (docs/machine-learning.md, "Features"),
 * from the settings an admin puts: smart search where a CLIP back end is (here the stand-in Immich
 * ML service; with Immich's placeholder URL and no local model, none), OCR where it is on,
 * duplicates where they are on (not tied to smart search, unlike Immich); and the settings'
 * rules (Immich's messages).
 */
type Config = Record<string, any>;
let headers: Record<string, string>;
let service: MlService;

beforeAll(async () => {
  headers = bearer((await setupAccounts()).admin.accessToken);
  service = await startMlService();
});

afterAll(async () => {
  await service.close();
});

const getConfig = async (): Promise<Config> => (await invoke(getConfigHandler, { path: '/api/system-config', headers })).body;
const put = (body: unknown) => invoke(updateConfigHandler, { method: 'PUT', path: '/api/system-config', headers, body });
/** The current configuration with each dot path of its machineLearning section set, put; returns the answer. */
const putMl = async (values: Record<string, unknown>) => {
  const config = await getConfig();
  for (const [path, value] of Object.entries(values)) {
    const parts = path.split('.');
    const node = parts.slice(0, -1).reduce<Config>((at, key) => at[key], config.machineLearning);
    node[parts.at(-1) as string] = value;
  }
  // As a v3 client sends it: `urls` without v1.100's `url` (a view of the first of them).
  delete config.machineLearning.url;
  return put(config);
};
const features = async () => {
  const v1 = (await invoke(getServerFeaturesV1, { path: '/api/server-info/features' })).body;
  const v3 = (await invoke(getServerFeaturesV3, { path: '/api/server/features' })).body;
  return {
    v1: { smartSearch: v1.smartSearch, facialRecognition: v1.facialRecognition },
    v3: { smartSearch: v3.smartSearch, ocr: v3.ocr, duplicateDetection: v3.duplicateDetection, facialRecognition: v3.facialRecognition },
  };
};

describe('the machine-learning features', () => {
  it("reports smart search off with Immich's placeholder URL and no local model; OCR and duplicates on", async () => {
    expect((await getConfig()).machineLearning.urls).toEqual(['http://immich-machine-learning:3003']);
    expect(await features()).toEqual({
      v1: { smartSearch: false, facialRecognition: true },
      v3: { smartSearch: false, ocr: true, duplicateDetection: true, facialRecognition: true },
    });
  });

  it('reports smart search on once a URL of an Immich ML service is set, in both generations', async () => {
    expect((await putMl({ urls: [service.url] })).status).toBe(200);
    expect(await features()).toEqual({
      v1: { smartSearch: true, facialRecognition: true },
      v3: { smartSearch: true, ocr: true, duplicateDetection: true, facialRecognition: true },
    });
    // Reporting a feature asks nothing of the service.
    expect(service.requests).toEqual([]);
  });

  it('follows each switch: CLIP, OCR and duplicates apart, machine learning for all but duplicates', async () => {
    await putMl({ 'clip.enabled': false, 'ocr.enabled': false });
    expect((await features()).v3).toEqual({ smartSearch: false, ocr: false, duplicateDetection: true, facialRecognition: true });
    expect((await features()).v1.smartSearch).toBe(false);
    await putMl({ 'clip.enabled': true, 'ocr.enabled': true, 'duplicateDetection.enabled': false });
    expect((await features()).v3).toEqual({ smartSearch: true, ocr: true, duplicateDetection: false, facialRecognition: true });
    await putMl({ enabled: false, 'duplicateDetection.enabled': true });
    expect(await features()).toEqual({
      v1: { smartSearch: false, facialRecognition: false },
      v3: { smartSearch: false, ocr: false, duplicateDetection: true, facialRecognition: false },
    });
    await putMl({ enabled: true });
  });
});

describe('the machine-learning settings', () => {
  it("refuses a CLIP model Immich does not know, with Immich's message, changing nothing", async () => {
    const before = await getConfig();
    const reply = await putMl({ 'clip.modelName': 'ViT-Nope__openai' });
    expect(reply).toMatchObject({
      status: 400,
      body: {
        message: 'Unknown CLIP model: ViT-Nope__openai. Please check the model name for typos and confirm this is a supported model.',
        error: 'Bad Request',
      },
    });
    expect(await getConfig()).toEqual(before);
    // Immich's names, also with a repository prefix (its cleanModelName).
    for (const name of ['ViT-B-16-SigLIP2__webli', 'immich-app/ViT-B-32__openai', 'ViT-B-32__openai'])
      expect((await putMl({ 'clip.modelName': name })).status, name).toBe(200);
  });

  it('refuses a URL that is not one while machine learning is on, and any string while it is off', async () => {
    const reply = await putMl({ urls: [service.url, 'not a url'] });
    expect(reply).toMatchObject({ status: 400, body: { message: ['machineLearning.each value in urls must be a URL address'] } });
    const off = await putMl({ enabled: false, urls: ['not a url'] });
    expect(off.status).toBe(200);
    expect((await putMl({ enabled: true, urls: [service.url] })).status).toBe(200);
    expect((await putMl({ urls: [] })).body.message).toEqual(['machineLearning.urls must contain at least 1 elements']);
  });

  it("keeps Immich's ranges on the OCR and availability settings", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ 'ocr.minRecognitionScore': 1.5 }, 'machineLearning.ocr.minRecognitionScore must not be greater than 1'],
      [{ 'ocr.maxResolution': 0 }, 'machineLearning.ocr.maxResolution must not be less than 1'],
      [{ 'availabilityChecks.timeout': 'soon' }, 'machineLearning.availabilityChecks.timeout must be an integer number'],
    ];
    for (const [values, message] of cases) {
      const reply = await putMl(values);
      expect(reply.status, message).toBe(400);
      expect(reply.body.message, message).toContain(message);
    }
  });
});
