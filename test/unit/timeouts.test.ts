import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No timeout in the tests depends on the machine being fast (docs/running.md, "How long the tests
 * take"): every one is a hang guard of test/support/timeouts.ts, and no test file names its own
 * number of milliseconds for a test, a hook, a wait's deadline or a child process. Not checked:
 * test/bench/ (measurements, never tests) and test/web/ (browser scripts run by hand).
 */
const root = join(import.meta.dirname, '..', '..');
const walk = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return path === 'test/bench' || path === 'test/web' ? [] : walk(path);
    // The guards themselves, and this file's planted examples.
    return path.endsWith('.ts') && path !== 'test/support/timeouts.ts' && path !== 'test/unit/timeouts.test.ts' ? [path] : [];
  });

const numbered = [
  // a per-test or per-hook option, vitest's own, or a child process's: `{ timeout: 30_000 }`
  /\b(?:timeout|testTimeout|hookTimeout|teardownTimeout)\s*:\s*\d/,
  // a test's or hook's third argument: `}, 60_000);` closing it, or on one line
  /^\s*\}\s*,\s*\d[\d_]*\s*\)/m,
  /\b(?:it|test|beforeAll|beforeEach|afterAll|afterEach)\([^\n]*\}\s*,\s*\d[\d_]*\s*\)/,
  // a wait's own deadline: `deadline = Date.now() + 20_000`, `deadlineMs = 20_000`
  /\bdeadline\w*\s*=\s*(?:Date\.now\(\)\s*\+\s*)?\d/,
];

/** The lines of `text` (its code, not its comments) that set a timeout by a number of their own. */
const numberedTimeouts = (text: string): string[] =>
  text
    .replace(/\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g, '')
    .split('\n')
    .filter((line) => numbered.some((pattern) => pattern.test(line)))
    .map((line) => line.trim());

describe('timeouts in the tests', () => {
  const files = walk('test');

  it('are all the hang guards of test/support/timeouts.ts: no file names a number of its own', () => {
    expect(files).toContain('test/vitest.config.ts');
    expect(files).toContain('test/setup/assembly-setup.ts');
    const offenders = files.flatMap((file) => numberedTimeouts(readFileSync(join(root, file), 'utf8')).map((line) => `${file}: ${line}`));
    expect(offenders).toEqual([]);
  });

  it('finds a planted number in each form, and not one in a comment or an unrelated call (the check itself works)', () => {
    const planted = [
      "it('uploads', { timeout: 30_000 }, async () => {",
      '  }, 60_000);',
      "it('x', async () => { await go(); }, 5000);",
      'const deadline = Date.now() + 20_000;',
      'const next = async (name: string, deadlineMs = 20_000) => {',
      'await run(cli, args, { env, timeout: 120_000 });',
      '    testTimeout: 30_000,',
    ];
    for (const line of planted) expect(numberedTimeouts(line), line).toEqual([line.trim()]);
    const fine = [
      "it('uploads', async () => {",
      '  });',
      '// it used to be }, 60_000);',
      '/** { timeout: 30_000 } was here */',
      'const deadline = Date.now() + hangGuard.wait;',
      'const encoded = jpeg.encode({ data: pixels, width, height }, 90).data;',
      'expect(open).toEqual({ pingInterval: 300_000, pingTimeout: 300_000 });',
      'await run(cli, args, { env, timeout: hangGuard.process });',
    ];
    for (const line of fine) expect(numberedTimeouts(line), line).toEqual([]);
  });
});
