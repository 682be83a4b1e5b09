import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, type OriginalsStore, type PartChecksum, type ReceivedPart, type StoredObject } from './store.ts';

/** A multipart upload's folder records when it started, for the sweep of abandoned ones. */
const startedFile = 'started';
/** As the bucket's lifecycle rule (infra/cdk/stack.ts): incomplete multipart uploads go after a day. */
const abandonedAfterMs = 24 * 3600 * 1000;
const sweepEveryMs = 5 * 60 * 1000;
const lastSweep = new Map<string, number>();

const uploadIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Originals in a folder (npm start, tests). Writes go to a temporary name first, so a reader never sees half a file. */
export class FileStore implements OriginalsStore {
  readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  localPath(key: string): string {
    return this.path(key);
  }

  private path(key: string): string {
    assertSafeKey(key);
    return join(this.root, ...key.split('/'));
  }

  async put(key: string, body: Buffer): Promise<StoredObject> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${randomUUID()}.partial`;
    try {
      await writeFile(temporary, body, { flag: 'wx', mode: 0o600 });
      await rename(temporary, path);
      return { key };
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    assertSafeKey(key);
    return access(this.path(key)).then(
      () => true,
      () => false,
    );
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.path(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async getStream(key: string): Promise<Readable | undefined> {
    const path = this.path(key);
    if (!(await this.exists(key))) return undefined;
    return createReadStream(path);
  }

  async putFile(key: string, path: string): Promise<StoredObject> {
    return this.putStream(key, createReadStream(path));
  }

  /** Writes a stream under `key`, through a temporary name (a reader never sees half a file). */
  async putStream(key: string, body: Readable): Promise<StoredObject> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${randomUUID()}.partial`;
    try {
      await pipeline(body, createWriteStream(temporary, { flags: 'wx', mode: 0o600 }));
      await rename(temporary, path);
      return { key };
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  /** An unfinished multipart upload's parts: `<root>/.multipart/<uploadId>/<n>.part`. */
  private partsDir(uploadId: string): string {
    if (!uploadIdPattern.test(uploadId)) throw new Error(`Refusing upload id ${JSON.stringify(uploadId)}`);
    return join(this.root, '.multipart', uploadId);
  }

  async getRange(key: string, start: number, end: number): Promise<Buffer> {
    const file = await open(this.path(key), 'r');
    try {
      const buffer = Buffer.alloc(end - start + 1);
      const { bytesRead } = await file.read(buffer, 0, buffer.length, start);
      return buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  }

  async createMultipart(key: string): Promise<string> {
    assertSafeKey(key);
    const uploadId = randomUUID();
    await mkdir(this.partsDir(uploadId), { recursive: true, mode: 0o700 });
    await writeFile(join(this.partsDir(uploadId), startedFile), String(Date.now()), { mode: 0o600 });
    if (Date.now() - (lastSweep.get(this.root) ?? 0) > sweepEveryMs) {
      lastSweep.set(this.root, Date.now());
      await this.abortAbandoned();
    }
    return uploadId;
  }

  /**
   * Aborts the multipart uploads started more than `afterMs` ago (a day), as the bucket's lifecycle
   * rule does deployed (docs/large-uploads.md): the parts of a session that was never completed or
   * deleted do not stay. Run when a multipart upload starts, at most every few minutes.
   */
  async abortAbandoned(afterMs = abandonedAfterMs): Promise<string[]> {
    const root = join(this.root, '.multipart');
    const names = (await readdir(root).catch(() => [] as string[])).filter((name) => uploadIdPattern.test(name));
    const aborted: string[] = [];
    for (const name of names) {
      const dir = join(root, name);
      const started = Number(await readFile(join(dir, startedFile), 'utf8').catch(() => Number.NaN));
      // A folder without its start time (an older server's) is dated by its last change.
      const since = Number.isFinite(started) ? started : (await stat(dir).catch(() => undefined))?.mtimeMs;
      if (since !== undefined && Date.now() - since > afterMs) {
        await rm(dir, { recursive: true, force: true });
        aborted.push(name);
      }
    }
    return aborted;
  }

  async putPart(uploadId: string, partNumber: number, body: Buffer): Promise<void> {
    const dir = this.partsDir(uploadId);
    // A part PUT after an abort (or expiry) has nowhere to go.
    if (
      !(await stat(dir).then(
        () => true,
        () => false,
      ))
    )
      throw new Error('No such upload');
    const path = join(dir, `${partNumber}.part`);
    const temporary = `${path}.${randomUUID()}.partial`;
    try {
      await writeFile(temporary, body, { flag: 'wx', mode: 0o600 });
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async listParts(_key: string, uploadId: string): Promise<ReceivedPart[]> {
    const dir = this.partsDir(uploadId);
    const names = await readdir(dir).catch(() => [] as string[]);
    const parts = await Promise.all(
      names
        .filter((name) => /^\d+\.part$/.test(name))
        .map(async (name) => ({ partNumber: Number.parseInt(name, 10), size: (await stat(join(dir, name))).size, etag: name })),
    );
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async completeMultipart(key: string, uploadId: string, parts: readonly PartChecksum[]): Promise<StoredObject> {
    const dir = this.partsDir(uploadId);
    const files = parts.map((part) => join(dir, `${part.partNumber}.part`));
    const joined = Readable.from(
      (async function* () {
        for (const file of files) yield* createReadStream(file);
      })(),
    );
    const stored = await this.putStream(key, joined);
    await rm(dir, { recursive: true, force: true });
    return stored;
  }

  async abortMultipart(_key: string, uploadId: string): Promise<void> {
    await rm(this.partsDir(uploadId), { recursive: true, force: true });
  }

  async delete(objects: readonly StoredObject[]): Promise<void> {
    await Promise.all(objects.map(({ key }) => rm(this.path(key), { force: true })));
  }
}
