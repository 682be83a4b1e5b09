import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScaleLibrary } from './generate.ts';

/**
 * What the scale bench measures a library with (test/bench/scale.ts), apart from the table: its
 * users (their password is the generator's), the assets it checks and changes, its people, albums
 * and counts. Kept beside the DynamoDB Local files of a library generated with `--keep DIR`
 * (DIR/library.json; the table under DIR/db) and read back by `--reuse DIR`, which measures the
 * kept library with the current code. A measurement changes the library (favourites, uploads):
 * it saves what it changed, so that the next `--reuse` checks against what the table holds.
 */

/** An asset as the measurement needs it. */
export interface KeptAsset {
  id: string;
  checksum: string;
  localDateTime: string;
  visibility: string;
  trashed: boolean;
  isFavorite: boolean;
}

export interface KeptUser {
  id: string;
  email: string;
  name: string;
  password: string;
  assets: KeptAsset[];
  faces: number;
  people: { id: string; faceCount: number }[];
}

export interface KeptLibrary {
  /** The generated size (the label of its rows). */
  size: number;
  tableName: string;
  users: KeptUser[];
  albums: { entries: number; shared: boolean }[];
  stacks: number;
  memories: number;
  tagged: number;
  items: number;
  /** How the library was generated, once (a reused run reports it too). */
  generation: string;
  /** Measurements made on it so far (each changes it: favourites, uploads). */
  runs: number;
}

/** Assets as rows in the file (a 500k library's are 60 MB as rows, twice that as objects). */
type AssetRow = [id: string, checksum: string, localDateTime: string, visibility: string, flags: number];

export const describe = (lib: ScaleLibrary, tableName: string, generation: string): KeptLibrary => ({
  size: lib.size,
  tableName,
  users: lib.users.map((user) => ({
    id: user.id,
    email: user.email,
    name: user.name,
    password: 'password',
    assets: user.assets.map((asset) => ({
      id: asset.id,
      checksum: asset.checksum,
      localDateTime: asset.localDateTime,
      visibility: asset.visibility,
      trashed: asset.deletedAt !== null,
      isFavorite: asset.isFavorite,
    })),
    faces: user.faces.length,
    people: user.people.map((person) => ({ id: person.id, faceCount: person.faceCount })),
  })),
  albums: lib.albums.map((album) => ({ entries: album.assetIds.length, shared: album.shares.length > 0 })),
  stacks: lib.stacks,
  memories: lib.memories,
  tagged: lib.tagged,
  items: lib.items,
  generation,
  runs: 0,
});

export const libraryFile = (dir: string) => join(dir, 'library.json');
export const dbDir = (dir: string) => join(dir, 'db');

export const saveLibrary = (dir: string, lib: KeptLibrary): void => {
  const file = libraryFile(dir);
  const rows = {
    ...lib,
    users: lib.users.map((user) => ({
      ...user,
      assets: user.assets.map(
        (x): AssetRow => [x.id, x.checksum, x.localDateTime, x.visibility, (x.trashed ? 1 : 0) | (x.isFavorite ? 2 : 0)],
      ),
    })),
  };
  // Written whole, then renamed: a run killed while saving keeps the previous description.
  writeFileSync(`${file}.tmp`, JSON.stringify(rows));
  renameSync(`${file}.tmp`, file);
};

export const loadLibrary = (dir: string): KeptLibrary => {
  const file = libraryFile(dir);
  if (!existsSync(file)) throw new Error(`--reuse ${dir}: no ${file} (generate one with --keep ${dir})`);
  const rows = JSON.parse(readFileSync(file, 'utf8')) as Omit<KeptLibrary, 'users'> & {
    users: (Omit<KeptUser, 'assets'> & { assets: AssetRow[] })[];
  };
  return {
    ...rows,
    users: rows.users.map((user) => ({
      ...user,
      assets: user.assets.map(([id, checksum, localDateTime, visibility, flags]) => ({
        id,
        checksum,
        localDateTime,
        visibility,
        trashed: (flags & 1) !== 0,
        isFavorite: (flags & 2) !== 0,
      })),
    })),
  };
};
