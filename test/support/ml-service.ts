/**
 * A stand-in for an Immich ML service (docs/machine-learning.md): a real HTTP server speaking
 * Immich 3.1's protocol (`GET /ping` → `pong`; `POST /predict` with a multipart form of `entries`
 * and `image` or `text`), deterministic so that tests can say what a search should find:
 * - an image's CLIP embedding follows its mean colour (`colourEmbedding`): near the named colour's
 *   direction, so the query `red` finds the red photo;
 * - a text's embedding is its colour word's direction (red, green, blue, white, black, yellow),
 *   any other text a direction made from a hash of it (`textEmbedding`);
 * - OCR answers the lines the test set (`setOcr`), filtered by the request's minimum scores as
 *   Immich's service filters them.
 * The CLIP answer is a JSON array in a string, as Immich's (research: `orjson.dumps(...).decode()`).
 * Each request is recorded (`requests`): path, headers, the parsed `entries`, the text or the image's size.
 * `setMode`: `ok`; `slow` (holds /predict until the server closes: a timeout must end the wait);
 * `wrong` (200 with an embedding of the wrong length); `garbage` (200, not JSON); `error` (500);
 * `dead` (drops each connection unanswered, /ping too). `setPing` sets /ping's own answer.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import jpeg from 'jpeg-js';

export type MlMode = 'ok' | 'slow' | 'wrong' | 'garbage' | 'error' | 'dead';
export type PingMode = 'ok' | 'error' | 'dead';

export interface StandInOcrLine {
  text: string;
  box: [number, number, number, number, number, number, number, number];
  boxScore: number;
  textScore: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed `entries` field of a /predict request. */
  entries?: unknown;
  text?: string;
  /** The `image` part's size in bytes, and the decoded picture's. */
  imageBytes?: number;
  imageWidth?: number;
  imageHeight?: number;
}

export interface MlServiceOptions {
  /** Length of the CLIP embeddings (default 512, ViT-B-32's). */
  dims?: number;
  mode?: MlMode;
  ping?: PingMode;
}

export interface MlService {
  /** The service's base URL, ending in `/` (as `new URL('predict', url)` needs for a path). */
  url: string;
  requests: RecordedRequest[];
  setMode(mode: MlMode): void;
  setPing(mode: PingMode): void;
  setOcr(lines: StandInOcrLine[]): void;
  close(): Promise<void>;
}

type Rgb = [number, number, number];
export const namedColours: Record<string, Rgb> = {
  red: [255, 0, 0],
  green: [0, 255, 0],
  blue: [0, 0, 255],
  white: [255, 255, 255],
  black: [0, 0, 0],
  yellow: [255, 255, 0],
};

/** A deterministic unit vector from a seed (xorshift32). */
const direction = (seed: number, dims: number): number[] => {
  let state = seed >>> 0 || 1;
  const values = Array.from({ length: dims }, () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0xffffffff - 0.5;
  });
  const norm = Math.hypot(...values);
  return values.map((value) => value / norm);
};

const hash = (text: string): number => {
  let h = 2166136261;
  for (const char of text) h = Math.imul(h ^ (char.codePointAt(0) ?? 0), 16777619);
  return h >>> 0;
};

/** The direction of a colour word. */
const colourDirection = (name: string, dims: number): number[] => direction(hash(`colour:${name}`), dims);

/** An image's embedding from its mean colour: the colour words' directions, the nearest weighing most. */
export const colourEmbedding = (rgb: Rgb, dims = 512): number[] => {
  const sum = new Array<number>(dims).fill(0);
  for (const [name, colour] of Object.entries(namedColours)) {
    const distance = Math.hypot(rgb[0] - colour[0], rgb[1] - colour[1], rgb[2] - colour[2]) / 255;
    const weight = Math.exp(-((distance / 0.35) ** 2));
    colourDirection(name, dims).forEach((value, i) => {
      sum[i] = (sum[i] ?? 0) + weight * value;
    });
  }
  return sum;
};

/** A text's embedding: its colour word's direction, else a direction from its hash. */
export const textEmbedding = (text: string, dims = 512): number[] => {
  const word = text.trim().toLowerCase();
  return word in namedColours ? colourDirection(word, dims) : direction(hash(`text:${word}`), dims);
};

const meanColour = (data: Uint8Array): Rgb => {
  const sums = [0, 0, 0];
  const pixels = data.length / 4;
  for (let i = 0; i < data.length; i += 4) {
    sums[0] = (sums[0] ?? 0) + (data[i] ?? 0);
    sums[1] = (sums[1] ?? 0) + (data[i + 1] ?? 0);
    sums[2] = (sums[2] ?? 0) + (data[i + 2] ?? 0);
  }
  return sums.map((sum) => sum / Math.max(1, pixels)) as Rgb;
};

const readBody = async (request: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const send = (response: ServerResponse, status: number, body: unknown, type = 'application/json'): void => {
  response.writeHead(status, { 'content-type': type });
  response.end(typeof body === 'string' && type !== 'application/json' ? body : JSON.stringify(body));
};

type Entries = Record<string, Record<string, { modelName?: unknown; options?: Record<string, unknown> }>>;

export const startMlService = async (options: MlServiceOptions = {}): Promise<MlService> => {
  const dims = options.dims ?? 512;
  let mode: MlMode = options.mode ?? 'ok';
  let pingMode: PingMode = options.ping ?? 'ok';
  let ocrLines: StandInOcrLine[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const held = new Set<ServerResponse>();

  const predict = async (request: IncomingMessage, response: ServerResponse, record: RecordedRequest): Promise<void> => {
    const body = await readBody(request);
    const form = await new Response(new Uint8Array(body), { headers: { 'content-type': request.headers['content-type'] ?? '' } })
      .formData()
      .catch(() => undefined);
    const entriesText = form?.get('entries');
    let entries: Entries | undefined;
    try {
      entries = typeof entriesText === 'string' ? (JSON.parse(entriesText) as Entries) : undefined;
    } catch {
      entries = undefined;
    }
    record.entries = entries;
    const image = form?.get('image');
    const text = form?.get('text');
    if (typeof text === 'string') record.text = text;
    let pixels: { width: number; height: number; data: Uint8Array } | undefined;
    if (image instanceof Blob) {
      const bytes = Buffer.from(await image.arrayBuffer());
      record.imageBytes = bytes.length;
      try {
        pixels = jpeg.decode(bytes, { useTArray: true });
        record.imageWidth = pixels.width;
        record.imageHeight = pixels.height;
      } catch {
        pixels = undefined;
      }
    }
    const models = entries && typeof entries === 'object' ? Object.values(entries).flatMap((task) => Object.values(task ?? {})) : [];
    if (!entries || models.length === 0 || models.some((model) => typeof model?.modelName !== 'string')) {
      return send(response, 422, { detail: 'Invalid request format.' });
    }
    if (typeof text !== 'string' && !(image instanceof Blob))
      return send(response, 400, { detail: 'Either image or text must be provided' });
    if (image instanceof Blob && !pixels) return send(response, 400, { detail: 'Image could not be decoded' });

    if (mode === 'error') return send(response, 500, { detail: 'Stand-in failure' });
    if (mode === 'garbage') return send(response, 200, 'this is not JSON', 'text/plain');
    if (mode === 'slow') {
      held.add(response);
      return;
    }

    const sizes = pixels ? { imageHeight: pixels.height, imageWidth: pixels.width } : {};
    const answer: Record<string, unknown> = { ...sizes };
    if (entries.clip) {
      const vector = pixels ? colourEmbedding(meanColour(pixels.data), dims) : textEmbedding(text as string, dims);
      answer.clip = JSON.stringify(mode === 'wrong' ? vector.slice(1) : vector);
    }
    if (entries.ocr) {
      const minBox = Number(entries.ocr.detection?.options?.minScore ?? 0);
      const minText = Number(entries.ocr.recognition?.options?.minScore ?? 0);
      const lines = ocrLines.filter((line) => line.boxScore >= minBox && line.textScore >= minText);
      answer.ocr = {
        text: lines.map((line) => line.text),
        box: mode === 'wrong' ? [] : lines.flatMap((line) => line.box),
        boxScore: lines.map((line) => line.boxScore),
        textScore: lines.map((line) => line.textScore),
      };
    }
    send(response, 200, answer);
  };

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://stand-in').pathname;
    const record: RecordedRequest = { method: request.method ?? '', path, headers: { ...request.headers } };
    requests.push(record);
    const isPing = request.method === 'GET' && path.endsWith('/ping');
    if (mode === 'dead' || (isPing && pingMode === 'dead')) {
      request.socket.destroy();
      return;
    }
    if (isPing) {
      if (pingMode === 'error') return send(response, 500, { detail: 'Stand-in failure' });
      return send(response, 200, 'pong', 'text/plain');
    }
    if (request.method === 'GET' && path.endsWith('/')) return send(response, 200, { message: 'Immich ML' });
    if (request.method === 'POST' && path.endsWith('/predict')) {
      predict(request, response, record).catch((error: unknown) => send(response, 500, { detail: String(error) }));
      return;
    }
    send(response, 404, { detail: 'Not Found' });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    setMode: (next) => {
      mode = next;
    },
    setPing: (next) => {
      pingMode = next;
    },
    setOcr: (lines) => {
      ocrLines = lines;
    },
    close: async () => {
      for (const response of held) response.destroy();
      held.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
