/**
 * `npm run upload -- [paths]`: a library into the server, as `immich upload` does, and files of
 * any size: up to `largeFileBytes` through Immich's `POST /asset/upload`, larger ones through
 * upload sessions (docs/large-uploads.md), their parts sent straight to the store. Interrupted
 * and run again, it resumes: the server is asked which files it has (the bulk upload check) and,
 * for each open session (kept in a state file beside the Immich CLI's auth.yml), which parts it
 * holds; only the rest is sent.
 */
import { mkdir, open, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { inBatches } from '#shared/core/concurrency.ts';
import { type Hashes, hashFile, type LocalFile } from './files.ts';

export interface Connection {
  /** The API's base URL (`…/api`). */
  url: string;
  apiKey: string;
}

export interface UploadOptions {
  /** Files above this go through upload sessions (4 MiB: under the deployed 4.4 MB request limit, with the form around it). */
  largeFileBytes: number;
  /** The parts' size (at least 5 MiB, S3's smallest); a file of more than 1,000 parts gets larger ones. */
  partSize: number;
  concurrency: number;
  dryRun: boolean;
  /** `--album`: an album per folder, named after it. */
  albumPerFolder: boolean;
  /** `--album-name`: one album for every file. */
  albumName?: string;
  /** Bytes a second at most (parts wait their turn), for slow links; 0: no limit. */
  rateLimit: number;
  /** Where open sessions are remembered between runs. */
  statePath: string;
  /** Told of every change (the progress bar). */
  onProgress?: (progress: Progress) => void;
  /** Told of each file's outcome. */
  onFile?: (file: LocalFile, outcome: string) => void;
}

export interface Progress {
  files: number;
  filesDone: number;
  bytes: number;
  bytesDone: number;
}

export interface Summary {
  files: number;
  uploaded: number;
  duplicates: number;
  failed: number;
  /** Files sent through sessions, and of those resumed from an earlier run. */
  sessions: number;
  resumed: number;
  partsSent: number;
  /** Parts an earlier run had sent, not sent again. */
  partsSkipped: number;
  bytesSent: number;
  albums: number;
}

interface SessionState {
  sessionId: string;
  size: number;
  mtimeMs: number;
  checksum: string;
  partSize: number;
}
type State = Record<string, Record<string, SessionState>>;

const mebibyte = 1024 * 1024;
const maxParts = 1000;

export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown, what: string) {
    const message =
      typeof body === 'object' && body !== null && 'message' in body ? String((body as { message: unknown }).message) : String(body);
    super(`${what}: ${status} ${message}`);
    this.status = status;
    this.body = body;
  }
}

/** A thin client of the API calls the uploader makes. */
export class Api {
  readonly connection: Connection;
  constructor(connection: Connection) {
    this.connection = connection;
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.connection.url}${path}`, {
      method,
      headers: {
        'x-api-key': this.connection.apiKey,
        ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: body instanceof FormData ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    const parsed: unknown = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
    if (!response.ok) throw new ApiError(response.status, parsed, `${method} ${path}`);
    return parsed as T;
  }

  /** PUTs one part to the URL its session gave (S3's presigned URL, or the local server's). */
  async putPart(part: { url: string; headers: Record<string, string> }, body: Buffer): Promise<void> {
    const response = await fetch(new URL(part.url, this.connection.url), {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', ...part.headers },
      body: new Uint8Array(body.buffer, body.byteOffset, body.length),
    });
    if (!response.ok) throw new ApiError(response.status, await response.text(), `PUT part`);
    await response.arrayBuffer();
  }
}

const readState = async (path: string): Promise<State> => {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as State;
  } catch {
    return {};
  }
};

/** Remembers open sessions, written through a temporary file so a kill never leaves half of it. */
class SessionStore {
  private state: State = {};
  private writing: Promise<void> = Promise.resolve();
  private readonly path: string;
  private readonly server: string;
  constructor(path: string, server: string) {
    this.path = path;
    this.server = server;
  }
  async load(): Promise<void> {
    this.state = await readState(this.path);
  }
  get(file: string): SessionState | undefined {
    return this.state[this.server]?.[file];
  }
  set(file: string, session: SessionState | undefined): Promise<void> {
    const sessions = { ...this.state[this.server] };
    if (session) sessions[file] = session;
    else delete sessions[file];
    this.state = { ...this.state, [this.server]: sessions };
    const snapshot = JSON.stringify(this.state, null, 2);
    this.writing = this.writing.then(async () => {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      const temporary = `${this.path}.${process.pid}.tmp`;
      await writeFile(temporary, snapshot, { mode: 0o600 });
      await rename(temporary, this.path);
    });
    return this.writing;
  }
}

const partSizeFor = (size: number, wanted: number): number => Math.max(wanted, Math.ceil(size / maxParts / mebibyte) * mebibyte);

const readPart = async (path: string, start: number, length: number): Promise<Buffer> => {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await file.read(buffer, 0, length, start);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
};

interface SessionPart {
  partNumber: number;
  url: string;
  headers: Record<string, string>;
  uploaded: boolean;
}
interface SessionReply {
  id: string;
  duplicate: boolean;
  sessionId?: string;
  partSize?: number;
  parts?: SessionPart[];
}

export const uploadFiles = async (api: Api, files: readonly LocalFile[], options: UploadOptions): Promise<Summary> => {
  const summary: Summary = {
    files: files.length,
    uploaded: 0,
    duplicates: 0,
    failed: 0,
    sessions: 0,
    resumed: 0,
    partsSent: 0,
    partsSkipped: 0,
    bytesSent: 0,
    albums: 0,
  };
  const progress: Progress = { files: files.length, filesDone: 0, bytes: files.reduce((sum, file) => sum + file.size, 0), bytesDone: 0 };
  const report = () => options.onProgress?.({ ...progress });
  const sessions = new SessionStore(options.statePath, api.connection.url);
  await sessions.load();

  // Hashes first (each file read once; a large file's parts hashed in the same pass), then one
  // bulk check: what the server has is skipped, without sending a byte of it.
  const hashes = new Map<string, Hashes & { partSize?: number }>();
  await inBatches(files, Math.max(1, options.concurrency), async (file) => {
    const partSize = file.size > options.largeFileBytes ? partSizeFor(file.size, options.partSize) : undefined;
    hashes.set(file.path, { ...(await hashFile(file.path, partSize)), ...(partSize ? { partSize } : {}) });
  });
  const assetIds = new Map<string, string>();
  const accepted: LocalFile[] = [];
  for (let start = 0; start < files.length; start += 1000) {
    const batch = files.slice(start, start + 1000);
    const { results } = await api.call<{ results: { id: string; action: string; assetId?: string }[] }>(
      'POST',
      '/asset/bulk-upload-check',
      {
        assets: batch.map((file) => ({ id: file.path, checksum: hashes.get(file.path)?.checksum ?? '' })),
      },
    );
    for (const result of results) {
      const file = batch.find((each) => each.path === result.id);
      if (!file) continue;
      if (result.action === 'accept') accepted.push(file);
      else {
        summary.duplicates++;
        if (result.assetId) assetIds.set(file.path, result.assetId);
        progress.filesDone++;
        progress.bytesDone += file.size;
        options.onFile?.(file, 'already on the server');
      }
    }
  }
  report();
  if (options.dryRun) {
    for (const file of accepted) options.onFile?.(file, file.size > options.largeFileBytes ? 'would upload (session)' : 'would upload');
    return summary;
  }

  // Each send waits for its slot: a send of n bytes holds the link for n / rate seconds, and no
  // credit builds up while nothing is sent (hashing, the bulk check), so there is never a burst.
  let nextSlot = 0;
  const throttle = async (bytes: number): Promise<void> => {
    if (!options.rateLimit) return;
    const start = Math.max(Date.now(), nextSlot);
    nextSlot = start + (bytes / options.rateLimit) * 1000;
    if (start > Date.now()) await new Promise((resolve) => setTimeout(resolve, start - Date.now()));
  };

  const sendSmall = async (file: LocalFile): Promise<{ id: string; duplicate: boolean }> => {
    const form = new FormData();
    const stats = { created: new Date(file.mtimeMs).toISOString() };
    form.set('deviceAssetId', `${basename(file.path)}-${file.size}`.replace(/\s+/g, ''));
    form.set('deviceId', 'immich-serverless-uploader');
    form.set('fileCreatedAt', stats.created);
    form.set('fileModifiedAt', stats.created);
    form.set('isFavorite', 'false');
    form.set('assetData', new Blob([await readFile(file.path)]), basename(file.path));
    if (file.sidecar) form.set('sidecarData', new Blob([await readFile(file.sidecar)]), basename(file.sidecar));
    await throttle(file.size);
    const reply = await api.call<{ id: string; duplicate: boolean }>('POST', '/asset/upload', form);
    summary.bytesSent += file.size;
    return reply;
  };

  const sendLarge = async (file: LocalFile, credit: (bytes: number) => void): Promise<{ id: string; duplicate: boolean }> => {
    const hash = hashes.get(file.path);
    if (!hash?.partSize) throw new Error('not hashed');
    summary.sessions++;
    let session: SessionReply | undefined;
    const remembered = sessions.get(file.path);
    if (remembered && remembered.checksum === hash.checksum && remembered.size === file.size) {
      session = await api.call<SessionReply>('GET', `/asset/upload-session/${remembered.sessionId}`).catch((error: unknown) => {
        // Expired, completed or deleted since: a new session.
        if (error instanceof ApiError && error.status === 400) return undefined;
        throw error;
      });
      if (session) summary.resumed++;
    }
    if (!session) {
      const created = new Date(file.mtimeMs).toISOString();
      session = await api.call<SessionReply>('POST', '/asset/upload-session', {
        deviceAssetId: `${basename(file.path)}-${file.size}`.replace(/\s+/g, ''),
        deviceId: 'immich-serverless-uploader',
        fileCreatedAt: created,
        fileModifiedAt: created,
        fileName: basename(file.path),
        size: file.size,
        checksum: hash.checksum,
        partSize: hash.partSize,
        partChecksums: hash.partChecksums,
        ...(file.sidecar ? { sidecarData: await readFile(file.sidecar, 'utf8') } : {}),
      });
      if (session.duplicate) return { id: session.id, duplicate: true };
      await sessions.set(file.path, {
        sessionId: session.sessionId ?? '',
        size: file.size,
        mtimeMs: file.mtimeMs,
        checksum: hash.checksum,
        partSize: hash.partSize,
      });
    }
    const partSize = session.partSize ?? hash.partSize;
    for (const part of session.parts ?? []) {
      const length = Math.min(partSize, file.size - (part.partNumber - 1) * partSize);
      if (part.uploaded) {
        summary.partsSkipped++;
        credit(length);
        continue;
      }
      const body = await readPart(file.path, (part.partNumber - 1) * partSize, length);
      await throttle(body.length);
      await api.putPart(part, body);
      summary.partsSent++;
      summary.bytesSent += body.length;
      credit(length);
    }
    const done = await api.call<{ id: string; duplicate: boolean }>('POST', `/asset/upload-session/${session.sessionId}/complete`);
    await sessions.set(file.path, undefined);
    return done;
  };

  await inBatches(accepted, Math.max(1, options.concurrency), async (file) => {
    try {
      const large = file.size > options.largeFileBytes;
      let credited = 0;
      const credit = (bytes: number) => {
        credited += bytes;
        progress.bytesDone += bytes;
        report();
      };
      const result = large ? await sendLarge(file, credit) : await sendSmall(file);
      credit(file.size - credited);
      assetIds.set(file.path, result.id);
      if (result.duplicate) summary.duplicates++;
      else summary.uploaded++;
      options.onFile?.(file, result.duplicate ? 'already on the server' : large ? 'uploaded (session)' : 'uploaded');
    } catch (error) {
      summary.failed++;
      options.onFile?.(file, `failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    progress.filesDone++;
    report();
  });

  summary.albums = await addToAlbums(api, files, assetIds, options);
  return summary;
};

/** `--album` (an album per folder) or `--album-name`: existing albums of that name are reused, as `immich upload` does. */
const addToAlbums = async (
  api: Api,
  files: readonly LocalFile[],
  assetIds: ReadonlyMap<string, string>,
  options: UploadOptions,
): Promise<number> => {
  if (!options.albumPerFolder && !options.albumName) return 0;
  const wanted = new Map<string, string[]>();
  for (const file of files) {
    const id = assetIds.get(file.path);
    if (!id) continue;
    const name = options.albumName ?? basename(dirname(file.path));
    wanted.set(name, [...(wanted.get(name) ?? []), id]);
  }
  const existing = new Map(
    (await api.call<{ id: string; albumName: string }[]>('GET', '/album')).map((album) => [album.albumName, album.id]),
  );
  for (const [name, ids] of wanted) {
    const albumId = existing.get(name) ?? (await api.call<{ id: string }>('POST', '/album', { albumName: name })).id;
    await api.call('PUT', `/album/${albumId}/assets`, { ids });
  }
  return wanted.size;
};
