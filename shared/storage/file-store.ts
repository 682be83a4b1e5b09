import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, type OriginalsStore, type StoredObject } from './store.ts';

/** Originals in a folder (npm start, tests). Writes go to a temporary name first, so a reader never sees half a file. */
export class FileStore implements OriginalsStore {
  readonly root: string;

  constructor(root: string) {
    this.root = root;
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

  async delete(objects: readonly StoredObject[]): Promise<void> {
    await Promise.all(objects.map(({ key }) => rm(this.path(key), { force: true })));
  }
}
