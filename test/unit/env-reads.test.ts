import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The product code reads its environment through shared/core/env.ts alone (README, "Layout"), so
 * every setting it reads is in one place with its meaning. infra/ and test/ may read the
 * environment themselves.
 */
const root = join(import.meta.dirname, '..', '..');
const walk = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory() ? walk(path) : path.endsWith('.ts') ? [path] : [];
  });

/** The files of `files` whose code (not their comments) reads `process.env`. */
const readersOf = (files: readonly string[], text: (file: string) => string): string[] =>
  files.filter((file) => /\bprocess\.env\b/.test(text(file).replace(/\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g, '')));

describe('environment reads', () => {
  const files = [...walk('shared'), ...walk('functions')];
  const source = (file: string) => readFileSync(join(root, file), 'utf8');

  it('go through shared/core/env.ts in shared/ and functions/', () => {
    expect(files).toContain('shared/core/env.ts');
    expect(readersOf(files, source)).toContain('shared/core/env.ts');
    expect(readersOf(files, source).filter((file) => file !== 'shared/core/env.ts')).toEqual([]);
  });

  it('finds a direct read, and not one in a comment (the check itself works)', () => {
    const texts: Record<string, string> = {
      'a.ts': 'const x = process.env.X;',
      'b.ts': '/** reads process.env.X */\n// process.env.Y\nconst y = env.y();',
    };
    expect(readersOf(Object.keys(texts), (file) => texts[file] ?? '')).toEqual(['a.ts']);
  });
});
