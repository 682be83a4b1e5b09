/**
 * The remote back end: the user's Immich ML service(s), spoken to as Immich 3.1's server does
 * (its machine-learning.repository.ts; docs/machine-learning.md, "The remote back end"):
 * `POST <url>/predict` with a multipart form of `entries` (the request as JSON) and `image` (the
 * preview JPEG) or `text`; `GET <url>/ping` for health. URLs are tried in order, the healthy ones
 * first; the first good answer wins; if none gives one, `DomainError('upstream', …)` (502).
 *
 * Where this differs from Immich, because a Lambda function has no timer running between requests
 * and an API request must answer within 29 s:
 * - health is checked lazily: before a request, a URL whose last check is older than
 *   `availabilityChecks.interval` is pinged (all such URLs at once, each bounded by
 *   `availabilityChecks.timeout`) and the result kept in this process; with one URL there is no
 *   order to choose, so none is pinged. Each request's outcome also marks its URL (as Immich's).
 * - each `/predict` has a timeout (Immich's has none): `ML_PREDICT_TIMEOUT_MS`, else 20 s for an
 *   image and 8 s for a text query, whose tries together stop after 25 s (`textBudgetMs`).
 * - an answer is checked: a CLIP embedding must be a list of finite numbers of the model's
 *   length, an OCR result lists of matching lengths; anything else counts as that URL failing.
 * `new URL('predict', url)` is relative, as Immich 3.1 resolves it: a URL with a path keeps it
 * only if it ends in `/` (`https://host/ml/` → `https://host/ml/predict`; `https://host/ml` →
 * `https://host/predict`).
 */

import * as env from '../core/env.ts';
import { DomainError } from '../core/errors.ts';
import { log } from '../core/log.ts';
import { clipDimensions } from '../domain/clip-models.ts';
import { authHeader } from './auth-header.ts';
import { type MlSettings, placeholderUrl, remoteConfigured, remoteUrls } from './features.ts';

export { placeholderUrl, remoteConfigured, remoteUrls };

const imageTimeoutMs = 20_000;
const textTimeoutMs = 8_000;
/** A text query's tries together: the search route must answer within API Gateway's 29 s. */
export const textBudgetMs = 25_000;

interface Health {
  healthy: boolean;
  at: number;
}
const health = new Map<string, Health>();

const setHealthy = (url: string, healthy: boolean): void => {
  if (health.get(url)?.healthy !== healthy) log.info('Machine learning server health changed', { origin: originOf(url), healthy });
  health.set(url, { healthy, at: Date.now() });
};

/** Forgets every URL's health (tests start each case from a new process's state). */
export const resetHealth = (): void => health.clear();

const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return 'an invalid URL';
  }
};

const headersWith = (header: { name: string; value: string } | undefined): Record<string, string> =>
  header ? { [header.name]: header.value } : {};

const ping = async (url: string, ml: MlSettings, header: { name: string; value: string } | undefined): Promise<void> => {
  let healthy = false;
  try {
    const response = await fetch(new URL('ping', url), {
      headers: headersWith(header),
      signal: AbortSignal.timeout(ml.availabilityChecks.timeout),
    });
    healthy = response.ok;
    await response.body?.cancel();
  } catch {
    // unreachable, refused or too slow: unhealthy
  }
  setHealthy(url, healthy);
};

/** The URLs in the order to try: healthy first, then the rest, each group in the configured order. */
const ordered = async (ml: MlSettings, urls: string[], header: { name: string; value: string } | undefined): Promise<string[]> => {
  if (!ml.availabilityChecks.enabled || urls.length < 2) return urls;
  const now = Date.now();
  const stale = urls.filter((url) => {
    const known = health.get(url);
    return !known || now - known.at >= ml.availabilityChecks.interval;
  });
  await Promise.all(stale.map((url) => ping(url, ml, header)));
  const isHealthy = (url: string) => health.get(url)?.healthy === true;
  return [...urls.filter(isHealthy), ...urls.filter((url) => !isHealthy(url))];
};

type Payload = { image: Buffer } | { text: string };

const formOf = (entries: unknown, payload: Payload): FormData => {
  const form = new FormData();
  form.append('entries', JSON.stringify(entries));
  if ('image' in payload) form.append('image', new Blob([new Uint8Array(payload.image)]));
  else form.append('text', payload.text);
  return form;
};

/** The answer's result, or a reason it is not one (that URL failed). */
type Check<T> = (body: unknown) => T | string;

/**
 * One request to the URLs in turn until one gives a good answer. `deadline`: a time after which
 * no further URL is tried (a text query's budget).
 */
const predict = async <T>(ml: MlSettings, entries: unknown, payload: Payload, check: Check<T>, deadline?: number): Promise<T> => {
  const header = await authHeader();
  const urls = await ordered(ml, remoteUrls(ml), header);
  const perRequest = env.mlPredictTimeoutMs('image' in payload ? imageTimeoutMs : textTimeoutMs);
  for (const url of urls) {
    const left = deadline === undefined ? perRequest : Math.min(perRequest, deadline - Date.now());
    if (left <= 0) break;
    const reason = await (async (): Promise<{ value: T } | string> => {
      try {
        const response = await fetch(new URL('predict', url), {
          method: 'POST',
          body: formOf(entries, payload),
          headers: headersWith(header),
          signal: AbortSignal.timeout(left),
        });
        const text = await response.text();
        if (!response.ok) return `status ${response.status}`;
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          return 'an answer that is not JSON';
        }
        const result = check(body);
        return typeof result === 'string' ? result : { value: result };
      } catch (error) {
        return error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${left} ms` : String(error);
      }
    })();
    if (typeof reason !== 'string') {
      setHealthy(url, true);
      return reason.value;
    }
    log.warn('Machine learning request failed', { origin: originOf(url), reason });
    setHealthy(url, false);
  }
  throw new DomainError('upstream', `Machine learning request '${JSON.stringify(entries)}' failed for all URLs`);
};

const isNumberList = (x: unknown): x is number[] =>
  Array.isArray(x) && x.every((item) => typeof item === 'number' && Number.isFinite(item));

/** A CLIP answer: `clip` holds the embedding as a JSON array in a string (Immich's); a plain array is taken too. */
const clipCheck =
  (modelName: string): Check<Float32Array> =>
  (body) => {
    let value = (body as { clip?: unknown } | null)?.clip;
    if (typeof value === 'string') {
      try {
        value = JSON.parse(value);
      } catch {
        return 'a CLIP answer that is not a JSON array';
      }
    }
    if (!isNumberList(value) || value.length === 0) return 'a CLIP answer that is not a list of numbers';
    const expected = clipDimensions(modelName);
    if (expected !== undefined && value.length !== expected) return `a CLIP answer of ${value.length} numbers, not ${expected}`;
    return Float32Array.from(value);
  };

/** CLIP image embedding of a preview JPEG, as the model gives it. */
export const encodeImageRemote = (ml: MlSettings, jpeg: Buffer): Promise<Float32Array> =>
  predict(ml, { clip: { visual: { modelName: ml.clip.modelName } } }, { image: jpeg }, clipCheck(ml.clip.modelName));

/** CLIP text embedding of a search query; `language` as Immich passes it (the multilingual models read it). */
export const encodeTextRemote = (ml: MlSettings, text: string, language?: string): Promise<Float32Array> =>
  predict(
    ml,
    { clip: { textual: { modelName: ml.clip.modelName, options: { language } } } },
    { text },
    clipCheck(ml.clip.modelName),
    Date.now() + textBudgetMs,
  );

/** One OCR line, box corners 0–1 of the image clockwise from the top left (Immich's). */
export interface RemoteOcrLine {
  text: string;
  box: [number, number, number, number, number, number, number, number];
  boxScore: number;
  textScore: number;
}

const ocrCheck: Check<RemoteOcrLine[]> = (body) => {
  const ocr = (body as { ocr?: { text?: unknown; box?: unknown; boxScore?: unknown; textScore?: unknown } } | null)?.ocr;
  if (!ocr || typeof ocr !== 'object') return 'an OCR answer without `ocr`';
  const { text, box, boxScore, textScore } = ocr;
  if (!Array.isArray(text) || !text.every((item) => typeof item === 'string')) return 'an OCR answer whose `text` is not a list of strings';
  if (!isNumberList(box) || !isNumberList(boxScore) || !isNumberList(textScore))
    return 'an OCR answer whose boxes or scores are not numbers';
  const n = text.length;
  if (box.length !== 8 * n || boxScore.length !== n || textScore.length !== n) return 'an OCR answer whose lists do not match';
  return text.map((line, i) => ({
    text: line,
    box: box.slice(8 * i, 8 * i + 8) as RemoteOcrLine['box'],
    boxScore: boxScore[i] as number,
    textScore: textScore[i] as number,
  }));
};

/** The text lines of a preview JPEG, with Immich's OCR options. */
export const detectTextRemote = (ml: MlSettings, jpeg: Buffer): Promise<RemoteOcrLine[]> => {
  const { modelName, minDetectionScore, minRecognitionScore, maxResolution } = ml.ocr;
  return predict(
    ml,
    {
      ocr: {
        detection: { modelName, options: { minScore: minDetectionScore, maxResolution } },
        recognition: { modelName, options: { minScore: minRecognitionScore } },
      },
    },
    { image: jpeg },
    ocrCheck,
  );
};
