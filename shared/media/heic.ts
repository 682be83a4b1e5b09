/**
 * HEVC-coded HEIF (iPhones' HEIC), decoded by libheif in WebAssembly (libheif-js), one tile per
 * call, in worker threads. An iPhone stores a photo as a grid of 512-px HEVC tiles (a 12-MP photo
 * is 48 of them); libheif decodes a grid one tile after another on one thread, 0.9 s of the 1.2 s
 * its previews took (docs/benchmarks.md). Here the tiles are shared among as many workers as the
 * machine has cores (Lambda gives cores with memory), each writing its tiles straight into one
 * shared RGBA canvas. A photo that is one image (not a grid) is one tile.
 *
 * libheif places and turns each tile (`heif_image_handle_get_image_tiling` with the image's
 * transformations, `heif_image_handle_decode_image_tile`): `irot`, `imir` and `clap` apply as
 * HEIF requires, never the EXIF orientation. The workers stay for the container's next photo
 * (unref'd: they never keep a process alive) and compile the WebAssembly once, in this thread.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';

export interface DecodedImage {
  width: number;
  height: number;
  /** RGBA, row by row. */
  data: Uint8Array;
}

interface Tiling {
  columns: number;
  rows: number;
  tileWidth: number;
  tileHeight: number;
  width: number;
  height: number;
  top: number;
  left: number;
}

type Reply = { id: number; error?: string; tiling?: Tiling };

// The worker, as code (a worker needs a file or code, and a bundle has no file of its own to point
// to). It calls libheif's C API through the module's exports: a call that returns `heif_error`
// takes a pointer to it first (the WebAssembly C ABI), whose first field is the error code.
const workerCode = `
const { parentPort, workerData } = require('node:worker_threads');
const factory = require(workerData.libheif);
const M = factory({
  // At once, as libheif-js's own build does: its bindings are completed after this call returns.
  instantiateWasm(imports, receive) {
    return receive(new WebAssembly.Instance(workerData.wasm, imports), workerData.wasm);
  },
});
const RGB = 1, RGBA = 11, INTERLEAVED = 10;
const scratch = () => M._malloc(64);
const text = (at) => {
  let end = at;
  while (end && M.HEAPU8[end] !== 0) end++;
  return Buffer.from(M.HEAPU8.subarray(at, end)).toString('utf8');
};
const check = (error, what) => {
  const code = M.HEAP32[error >> 2];
  if (code !== 0) throw new Error(what + ' failed: ' + text(M.HEAPU32[(error >> 2) + 2]));
};
const open = (file) => {
  const error = scratch(), out = scratch();
  const bytes = M._malloc(file.byteLength);
  M.HEAPU8.set(new Uint8Array(file), bytes);
  const context = M._heif_context_alloc();
  const close = () => { M._heif_context_free(context); M._free(bytes); M._free(error); M._free(out); };
  try {
    M._heif_context_read_from_memory_without_copy(error, context, bytes, file.byteLength, 0);
    check(error, 'reading the file');
    M._heif_context_get_primary_image_handle(error, context, out);
    check(error, 'its primary image');
    const handle = M.HEAPU32[out >> 2];
    return { handle, error, out, close: () => { M._heif_image_handle_release(handle); close(); } };
  } catch (e) { close(); throw e; }
};
const tilingOf = (image) => {
  const tiling = M._malloc(128);
  try {
    M.HEAPU8.fill(0, tiling, tiling + 128);
    M.HEAP32[tiling >> 2] = 1;
    M._heif_image_handle_get_image_tiling(image.error, image.handle, 1, tiling);
    check(image.error, 'its tiling');
    const u = (index) => M.HEAPU32[(tiling >> 2) + index];
    return { columns: u(1), rows: u(2), tileWidth: u(3), tileHeight: u(4), width: u(5), height: u(6), top: u(7), left: u(8) };
  } finally { M._free(tiling); }
};
const decodeTile = (image, tiling, canvas, x, y) => {
  M._heif_image_handle_decode_image_tile(image.error, image.handle, image.out, RGB, RGBA, 0, x, y);
  check(image.error, 'decoding tile ' + x + ',' + y);
  const decoded = M.HEAPU32[image.out >> 2];
  try {
    const stride = M._malloc(8);
    const plane = M._heif_image_get_plane_readonly2(decoded, INTERLEAVED, stride);
    const rowBytes = M.HEAPU32[stride >> 2];
    M._free(stride);
    const tileWidth = M._heif_image_get_primary_width(decoded), tileHeight = M._heif_image_get_primary_height(decoded);
    // The tile's place in the image. Turned or mirrored, the grid's partial last column or row may
    // come first: libheif then gives how much of that first tile shows (the offsets), and the grid
    // starts that much less than a tile above or left of the image.
    const left = x * tiling.tileWidth - (tiling.left ? tiling.tileWidth - tiling.left : 0);
    const top = y * tiling.tileHeight - (tiling.top ? tiling.tileHeight - tiling.top : 0);
    const target = new Uint8Array(canvas);
    for (let row = Math.max(0, -top); row < tileHeight && top + row < tiling.height; row++) {
      const from = Math.max(0, -left), to = Math.min(tileWidth, tiling.width - left);
      if (to <= from) break;
      const source = plane + row * rowBytes;
      target.set(M.HEAPU8.subarray(source + from * 4, source + to * 4), ((top + row) * tiling.width + left + from) * 4);
    }
  } finally { M._heif_image_release(decoded); }
};
parentPort.on('message', ({ id, file, canvas, tiles }) => {
  let image;
  try {
    image = open(file);
    const tiling = tilingOf(image);
    if (canvas) for (const [x, y] of tiles) decodeTile(image, tiling, canvas, x, y);
    parentPort.postMessage({ id, tiling });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  } finally { if (image) image.close(); }
});
`;

const require = createRequire(import.meta.url);
// Node's global (this project's TypeScript libraries have no WebAssembly types); a compiled module passes to workers.
declare const WebAssembly: { compile: (bytes: Uint8Array) => Promise<object> };

interface Pool {
  workers: Worker[];
  ask: (worker: Worker, message: { file: SharedArrayBuffer; canvas?: SharedArrayBuffer; tiles?: [number, number][] }) => Promise<Tiling>;
}

let pool: Promise<Pool> | undefined;

const startPool = async (): Promise<Pool> => {
  const libheif = require.resolve('libheif-js/libheif-wasm/libheif.js');
  const wasm = await WebAssembly.compile(await readFile(require.resolve('libheif-js/libheif-wasm/libheif.wasm')));
  const size = Math.max(1, Math.min(availableParallelism(), 8));
  let next = 0;
  const waiting = new Map<number, { worker: Worker; resolve: (tiling: Tiling) => void; reject: (error: Error) => void }>();
  // A worker keeps the process alive only while it works for it.
  const idle = (worker: Worker) => {
    if (![...waiting.values()].some((call) => call.worker === worker)) worker.unref();
  };
  const workers: Worker[] = [];
  for (let index = 0; index < size; index++) {
    // CommonJS, whatever flags this process started with (`--input-type=module` would make it ESM).
    // node:worker_threads is loaded with the pool, not at the media function's cold start (wasm-vips
    // loads it too, when it starts on the first event: docs/benchmarks.md, "The background backup path").
    const { Worker: Thread } = process.getBuiltinModule('node:worker_threads');
    const worker = new Thread(workerCode, { eval: true, execArgv: [], workerData: { libheif, wasm } });
    worker.on('message', ({ id, error, tiling }: Reply) => {
      const call = waiting.get(id);
      waiting.delete(id);
      idle(worker);
      if (error || !tiling) call?.reject(new Error(`HEIF: ${error ?? 'no answer'}`));
      else call?.resolve(tiling);
    });
    // A worker that dies fails what the pool was doing, and the next photo starts a new pool.
    worker.on('error', (error) => {
      pool = undefined;
      for (const call of waiting.values()) call.reject(error);
      waiting.clear();
      for (const each of workers) void each.terminate();
    });
    // After its listeners (adding one refs it again).
    worker.unref();
    workers.push(worker);
  }
  return {
    workers,
    ask: (worker, message) =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { worker, resolve, reject });
        worker.ref();
        worker.postMessage({ id, ...message });
      }),
  };
};

/**
 * Decodes a HEVC HEIF's primary image to RGBA, its tiles shared among the workers (`workers`: at
 * most that many, for the bench's one-thread comparison).
 */
export const decodeHeic = async (original: Uint8Array, options: { workers?: number } = {}): Promise<DecodedImage> => {
  // A pool that failed to start (its WebAssembly unreadable) is not kept: the next photo tries again.
  pool ??= startPool().catch((error: unknown) => {
    pool = undefined;
    throw error;
  });
  const { workers: all, ask } = await pool;
  const file = new SharedArrayBuffer(original.byteLength);
  new Uint8Array(file).set(original);
  const [first] = all;
  if (!first) throw new Error('no HEIF worker');
  const tiling = await ask(first, { file });
  const canvas = new SharedArrayBuffer(tiling.width * tiling.height * 4);
  const cells: [number, number][] = [];
  for (let y = 0; y < tiling.rows; y++) for (let x = 0; x < tiling.columns; x++) cells.push([x, y]);
  const workers = all.slice(0, Math.max(1, Math.min(options.workers ?? all.length, cells.length)));
  await Promise.all(
    workers.map((worker, index) => ask(worker, { file, canvas, tiles: cells.filter((_, cell) => cell % workers.length === index) })),
  );
  return { width: tiling.width, height: tiling.height, data: new Uint8Array(canvas) };
};
