import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every repository path that README, docs/ and code comments name exists, so a move or a rename
 * cannot leave a reader looking for a file that is gone. Three forms are checked: a path from
 * the top (`shared/db/keys.ts`, `docs/web-app.md`, `infra/cdk/`), a path inside shared/
 * (`db/keys.ts`, `core/errors.ts`), and a bare TypeScript file name (`put-upload-part.ts`), which
 * must be some file's name. Paths with placeholders (`<area>`, `*`, `{id}`) are patterns, not names.
 */
const root = join(import.meta.dirname, '..', '..');
const skipped = new Set(['node_modules', '.git', '.data', 'cdk.out', '.bench', '.web', 'coverage']);

const walk = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    if (skipped.has(entry.name)) return [];
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    return entry.isDirectory() ? walk(path) : [path];
  });

const files = walk('');
const names = new Set(files.map((file) => file.split('/').at(-1)));
const sharedFolders = readdirSync(join(root, 'shared'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const topFolders = ['shared', 'functions', 'infra', 'test', 'docs', '.ci'];

/** What a file says to a reader: a document's whole text, a source file's comments. */
const prose = (file: string): string => {
  const text = readFileSync(join(root, file), 'utf8');
  if (file.endsWith('.md')) return text;
  return [...text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g)].map((match) => match[0]).join('\n');
};

/** The paths a text names that do not exist. */
const missingPaths = (text: string, exists: (path: string) => boolean, isName: (name: string) => boolean): string[] => {
  const missing = new Set<string>();
  const candidates = text.matchAll(/(?<![\w./@#*-])((?:\.ci|[a-z][\w-]*)(?:\/[\w.-]+)+\/?|[\w-]+\.ts)(?![\w/<{*$-])/g);
  for (const [, raw = ''] of candidates) {
    const path = raw.replace(/[.]+$/, '');
    if (/^[\w-]+\.ts$/.test(path)) {
      if (!isName(path)) missing.add(path);
      continue;
    }
    const [top] = path.split('/');
    if (topFolders.includes(top ?? '')) {
      if (!exists(path)) missing.add(path);
    } else if (sharedFolders.includes(top ?? '') && /\.ts$/.test(path)) {
      if (!exists(`shared/${path}`) && !exists(path)) missing.add(path);
    }
  }
  return [...missing];
};

const sources = files.filter(
  (file) =>
    file === 'README.md' ||
    (file.startsWith('docs/') && file.endsWith('.md')) ||
    (/^(functions|shared|infra|test)\//.test(file) && file.endsWith('.ts')),
);

/**
 * The folders README's "Layout" names: a line of its block that starts with `name/` at the left
 * edge is a top folder, two spaces in a folder inside the last top one (`  media/` under
 * `functions/`); the lines that continue a description are indented further and name none.
 */
const layoutFolders = (readme: string): string[] => {
  const block = /^## Layout\n+```\n([\s\S]*?)^```/m.exec(readme)?.[1] ?? '';
  const folders: string[] = [];
  let top = '';
  for (const line of block.split('\n')) {
    const [, indent = '', name = ''] = /^( *)([\w.-]+)\/(?=\s|$)/.exec(line) ?? [];
    if (!name) continue;
    if (indent.length === 0) {
      top = name;
      folders.push(name);
    } else if (indent.length === 2 && top) folders.push(`${top}/${name}`);
  }
  return folders;
};

/** Folders of `dir` (a path from the top). */
const foldersOf = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${dir}/${entry.name}`);

describe("README's Layout and length", () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const layout = layoutFolders(readme);

  it('names folders that exist', () => {
    expect(layout).toEqual(expect.arrayContaining(['functions', 'functions/media', 'shared', 'shared/core', 'infra/tools', 'docs']));
    expect(layout.filter((folder) => !existsSync(join(root, folder)))).toEqual([]);
  });

  it('names every folder of shared/ and infra/', () => {
    expect([...foldersOf('shared'), ...foldersOf('infra')].filter((folder) => !layout.includes(folder))).toEqual([]);
  });

  it("finds a folder the Layout names that is gone, and only the Layout's (the check itself works)", () => {
    const text =
      '## Layout\n\n```\nshared/      code\n  core/      errors\n             model/ in a description\ngone/        x\n  away/      y\n```\n\n```\nother/ z\n```\n';
    expect(layoutFolders(text)).toEqual(['shared', 'shared/core', 'gone', 'gone/away']);
  });

  it('stays short: at most 200 lines (the manual is in docs/)', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });
});

describe('paths named in README, docs and comments', () => {
  it('reads the documents and the code (the check has something to check)', () => {
    expect(sources).toContain('README.md');
    expect(sources.filter((file) => file.startsWith('shared/')).length).toBeGreaterThan(50);
  });

  it('all exist', () => {
    const exists = (path: string) => existsSync(join(root, path));
    const wrong = sources.flatMap((file) =>
      missingPaths(prose(file), exists, (name) => names.has(name)).map((path) => `${relative(root, join(root, file))}: ${path}`),
    );
    expect(wrong).toEqual([]);
  });

  it('finds a path that is gone (the check itself works)', () => {
    const exists = (path: string) => ['shared/db/keys.ts', 'docs/'].includes(path);
    const isName = (name: string) => name === 'keys.ts';
    expect(
      missingPaths(
        'See shared/db/keys.ts, db/keys.ts, keys.ts and docs/; not shared/core/gone.ts, core/errors-old.ts or put-part.ts; functions/<area>/x.ts is a pattern.',
        exists,
        isName,
      ),
    ).toEqual(['shared/core/gone.ts', 'core/errors-old.ts', 'put-part.ts']);
  });
});
