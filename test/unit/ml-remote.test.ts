import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clipBackend, detectText, encodeImage, encodeText, type MlSettings, ocrEnabled, smartSearchEnabled } from '#shared/ml/ml.ts';
import { placeholderUrl, remoteConfigured, resetHealth } from '#shared/ml/remote.ts';
import { configDefaults } from '#shared/model/config.ts';
import { cosine } from '../support/clip-model.ts';
import { failure } from '../support/errors.ts';
import { colourEmbedding, type MlService, namedColours, startMlService, textEmbedding } from '../support/ml-service.ts';
import { makeJpeg } from '../support/photos.ts';
import { hangGuard } from '../support/timeouts.ts';

/**
 * The remote back end (docs/machine-learning.md) against a stand-in Immich ML service speaking
 * Immich 3.1's protocol (test/support/ml-service.ts): what is sent, which URL answers, and that
 * every failure ends in Immich's 502 rather than a hang.
 */
const settings = (urls: string[], changes: Partial<MlSettings> = {}): MlSettings => ({
  ...structuredClone(configDefaults.machineLearning),
  urls,
  ...changes,
});

const predicts = (service: MlService) => service.requests.filter((request) => request.path.endsWith('/predict'));
const pings = (service: MlService) => service.requests.filter((request) => request.path.endsWith('/ping'));

// A held request's wait, short so that it ends quickly: only the tests of a held request set it
// (every other request takes the hang guard: a busy machine's first answer can take seconds).
const heldTimeout = '1500';
const pingTimeoutMs = 1500;

let a: MlService;
let b: MlService;

beforeAll(async () => {
  [a, b] = await Promise.all([startMlService(), startMlService()]);
});

afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});

beforeEach(() => {
  resetHealth();
  for (const service of [a, b]) {
    service.requests.length = 0;
    service.setMode('ok');
    service.setPing('ok');
    service.setOcr([]);
  }
  process.env.ML_PREDICT_TIMEOUT_MS = String(hangGuard.wait);
});

afterEach(() => {
  delete process.env.ML_PREDICT_TIMEOUT_MS;
  delete process.env.ML_AUTH_HEADER;
});

describe('the remote back end', () => {
  it('sends the preview as Immich does and reads the embedding from its string', async () => {
    const red = makeJpeg({ width: 32, height: 24, color: [250, 10, 10] });
    const embedding = await encodeImage(settings([a.url]), red);
    expect(embedding).toBeInstanceOf(Float32Array);
    expect(embedding).toHaveLength(512);
    const [request] = predicts(a);
    expect(request?.entries).toEqual({ clip: { visual: { modelName: 'ViT-B-32__openai' } } });
    expect(request?.imageBytes).toBe(red.length);
    expect([request?.imageWidth, request?.imageHeight]).toEqual([32, 24]);
    // The stand-in's embedding of the decoded picture, to float precision.
    expect(cosine(embedding, colourEmbedding([250, 10, 10]))).toBeGreaterThan(0.9999);
    const scores = Object.keys(namedColours).map((word) => [word, cosine(embedding, textEmbedding(word))] as const);
    expect(scores.sort((x, y) => y[1] - x[1])[0]?.[0]).toBe('red');
  });

  it('sends a text query with its language', async () => {
    const embedding = await encodeText(settings([a.url]), 'yellow', 'de');
    expect(predicts(a).map((request) => [request.entries, request.text])).toEqual([
      [{ clip: { textual: { modelName: 'ViT-B-32__openai', options: { language: 'de' } } } }, 'yellow'],
    ]);
    expect(cosine(embedding, textEmbedding('yellow'))).toBeGreaterThan(0.9999);
  });

  it('sends OCR with the configured scores and reads its lines', async () => {
    const box = [0.1, 0.1, 0.5, 0.1, 0.5, 0.2, 0.1, 0.2] as [number, number, number, number, number, number, number, number];
    a.setOcr([
      { text: 'HELLO', box, boxScore: 0.9, textScore: 0.95 },
      { text: 'faint', box, boxScore: 0.9, textScore: 0.5 },
    ]);
    const ml = settings([a.url]);
    const lines = await detectText(ml, makeJpeg({ color: [255, 255, 255] }));
    expect(lines).toEqual([{ text: 'HELLO', box, boxScore: 0.9, textScore: 0.95 }]);
    expect(predicts(a)[0]?.entries).toEqual({
      ocr: {
        detection: { modelName: 'PP-OCRv5_mobile', options: { minScore: 0.5, maxResolution: 736 } },
        recognition: { modelName: 'PP-OCRv5_mobile', options: { minScore: 0.8 } },
      },
    });
  });

  it('goes on to the next URL when the first is down, and answers from it', async () => {
    a.setMode('dead');
    const embedding = await encodeText(settings([a.url, b.url]), 'blue');
    expect(cosine(embedding, textEmbedding('blue'))).toBeGreaterThan(0.9999);
    expect(predicts(b)).toHaveLength(1);
  });

  it('gives up on a URL that does not answer in time, and tries the next', async () => {
    a.setMode('slow');
    process.env.ML_PREDICT_TIMEOUT_MS = heldTimeout;
    const embedding = await encodeImage(settings([a.url, b.url]), makeJpeg({ color: [0, 0, 250] }));
    expect(predicts(a)).toHaveLength(1);
    expect(predicts(b)).toHaveLength(1);
    expect(cosine(embedding, colourEmbedding([0, 0, 250]))).toBeGreaterThan(0.9999);
  });

  it("answers Immich's 502 when no URL answers in time (never a hang)", async () => {
    a.setMode('slow');
    process.env.ML_PREDICT_TIMEOUT_MS = heldTimeout;
    const error = await failure(encodeText(settings([a.url]), 'red'));
    expect(error.kind).toBe('upstream');
    expect(error.message).toBe(
      `Machine learning request '{"clip":{"textual":{"modelName":"ViT-B-32__openai","options":{}}}}' failed for all URLs`,
    );
  });

  it('counts a wrong answer as a failed URL: wrong length, not JSON, a server error', async () => {
    for (const mode of ['wrong', 'garbage', 'error'] as const) {
      a.setMode(mode);
      const embedding = await encodeText(settings([a.url, b.url]), 'green');
      expect(cosine(embedding, textEmbedding('green')), mode).toBeGreaterThan(0.9999);
      expect((await failure(encodeText(settings([a.url]), 'green'))).kind, mode).toBe('upstream');
    }
    a.setMode('wrong');
    a.setOcr([{ text: 'X', box: [0, 0, 1, 0, 1, 1, 0, 1], boxScore: 1, textScore: 1 }]);
    expect((await failure(detectText(settings([a.url]), makeJpeg()))).kind).toBe('upstream');
  });

  it('sends the reverse proxy header to /predict and /ping', async () => {
    process.env.ML_AUTH_HEADER = 'X-Ml-Key: s3cret value';
    await encodeText(settings([a.url, b.url]), 'red');
    for (const request of [...a.requests, ...b.requests]) expect(request.headers['x-ml-key'], request.path).toBe('s3cret value');
    expect(pings(a)).toHaveLength(1);
    expect(predicts(a)).toHaveLength(1);
  });

  it('refuses a header it cannot send, as an upstream failure', async () => {
    process.env.ML_AUTH_HEADER = 'no colon here';
    expect((await failure(encodeText(settings([a.url]), 'red'))).kind).toBe('upstream');
    expect(a.requests).toEqual([]);
  });

  it('tries a URL whose /ping fails after the healthy ones, and keeps the check for the interval', async () => {
    a.setPing('error');
    const ml = settings([a.url, b.url], {
      availabilityChecks: { enabled: true, timeout: pingTimeoutMs, interval: 3_600_000 },
    });
    await encodeText(ml, 'red');
    await encodeText(ml, 'blue');
    expect(predicts(a)).toEqual([]);
    expect(predicts(b)).toHaveLength(2);
    // Checked once in this process, not before every request.
    expect([pings(a).length, pings(b).length]).toEqual([1, 1]);
  });

  it('demotes a URL whose /ping does not answer, and one that failed a request', async () => {
    a.setPing('dead');
    const ml = settings([a.url, b.url], {
      availabilityChecks: { enabled: true, timeout: pingTimeoutMs, interval: 3_600_000 },
    });
    await encodeText(ml, 'red');
    expect(predicts(a)).toEqual([]);
    // b fails a request: it goes behind a, which is tried and answers.
    resetHealth();
    a.setPing('ok');
    b.setMode('error');
    const reversed = settings([b.url, a.url], ml);
    await encodeText({ ...reversed, urls: [b.url, a.url] }, 'red');
    b.setMode('ok');
    a.requests.length = 0;
    b.requests.length = 0;
    await encodeText({ ...reversed, urls: [b.url, a.url] }, 'red');
    expect([predicts(a).length, predicts(b).length]).toEqual([1, 0]);
  });

  it('tries the URLs in their order, unchecked, when availability checks are off', async () => {
    a.setPing('error');
    const ml = settings([a.url, b.url], { availabilityChecks: { enabled: false, timeout: pingTimeoutMs, interval: 3_600_000 } });
    await encodeText(ml, 'red');
    expect(predicts(a)).toHaveLength(1);
    expect(pings(a)).toEqual([]);
  });

  it("resolves /predict against the URL as Immich 3.1 does (a path is kept only with a trailing '/')", async () => {
    await encodeText(settings([`${a.url}ml/`]), 'red');
    await encodeText(settings([`${a.url}ml`]), 'red');
    expect(predicts(a).map((request) => request.path)).toEqual(['/ml/predict', '/predict']);
  });
});

describe('the choice of back end', () => {
  it("treats Immich's placeholder URL as none set", () => {
    expect(remoteConfigured(settings([placeholderUrl]))).toBe(false);
    expect(remoteConfigured(settings([`${placeholderUrl}/`, '']))).toBe(false);
    expect(remoteConfigured(settings([placeholderUrl, 'http://ml.example:3003']))).toBe(true);
    expect(remoteConfigured(settings(['http://ml.example:3003'], { enabled: false }))).toBe(false);
  });

  it('uses the remote back end when a URL is set, and none when CLIP or machine learning is off', async () => {
    expect(await clipBackend(settings([a.url]))).toBe('remote');
    expect(await smartSearchEnabled(settings([a.url]))).toBe(true);
    const off = settings([a.url]);
    off.clip.enabled = false;
    expect(await clipBackend(off)).toBeUndefined();
    expect(await clipBackend(settings([a.url], { enabled: false }))).toBeUndefined();
    expect((await failure(encodeText(off, 'red'))).message).toBe('Smart search is not enabled');
    expect(a.requests).toEqual([]);
  });

  it('has no CLIP back end with the placeholder URL and no local model', async () => {
    delete process.env.ML_MODELS_DIR;
    expect(await clipBackend(settings([placeholderUrl]))).toBeUndefined();
    expect(await smartSearchEnabled(settings([placeholderUrl]))).toBe(false);
  });

  it('gates OCR on machine learning and OCR being on', () => {
    expect(ocrEnabled(settings([placeholderUrl]))).toBe(true);
    expect(ocrEnabled(settings([placeholderUrl], { enabled: false }))).toBe(false);
  });
});
