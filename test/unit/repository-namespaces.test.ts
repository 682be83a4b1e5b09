import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Repositories are imported as namespaces named after them (docs/architecture.md, "Names"):
 * `import * as albumRepo from '../db/album.repository.ts'`, then `albumRepo.create(...)`, so a
 * function's name says what it does to the entity its module names, with no `createAlbum as
 * insertAlbum` renames at the import. Types may still be imported by name.
 */
const root = join(import.meta.dirname, '..', '..');

const sources = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );

/** `sync-relations.repository.ts` → `syncRelationsRepo`. */
const namespaceOf = (module: string): string =>
  `${module.replace(/\.repository\.ts$/, '').replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())}Repo`;

/** What in a file's text imports a repository otherwise than as its namespace. */
const namespaceViolations = (text: string): string[] =>
  [...text.matchAll(/(?:^|\n)\s*import\s+(type\s+)?([^'";]*?)\s+from\s+'([^']*\/)?([a-z-]+\.repository\.ts)'/g)].flatMap(
    ([, typeOnly, clause = '', , module = '']) => {
      if (typeOnly) return [];
      const namespace = /^\*\s+as\s+(\w+)$/.exec(clause.trim())?.[1];
      if (namespace === namespaceOf(module)) return [];
      return [`${clause.trim()} from ${module}`];
    },
  );

describe('repositories imported as namespaces', () => {
  it('in every product file and test: `import * as <entity>Repo`, nothing by name but types', () => {
    const files = ['functions', 'shared', 'infra', 'test'].flatMap(sources);
    const wrong = files.flatMap((file) => namespaceViolations(readFileSync(join(root, file), 'utf8')).map((found) => `${file}: ${found}`));
    expect(files.length).toBeGreaterThan(500);
    expect(wrong).toEqual([]);
  });

  it('finds a repository imported by name or under another name (the check itself works)', () => {
    expect(namespaceViolations("import { createAlbum as insertAlbum } from '../db/album.repository.ts';")).toEqual([
      '{ createAlbum as insertAlbum } from album.repository.ts',
    ]);
    expect(namespaceViolations("import * as albums from '#shared/db/album.repository.ts';")).toEqual([
      '* as albums from album.repository.ts',
    ]);
    expect(namespaceViolations("import * as syncRelationsRepo from './sync-relations.repository.ts';")).toEqual([]);
    expect(namespaceViolations("import type { AlbumRecord } from '../db/album.repository.ts';")).toEqual([]);
  });
});
