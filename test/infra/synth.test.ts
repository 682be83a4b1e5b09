import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { routes } from '#infra/routes.ts';

const root = join(import.meta.dirname, '..', '..');

describe('cdk synth', () => {
  it('synthesises offline, bundling every function as an ESM file', async () => {
    const out = mkdtempSync(join(tmpdir(), 'cdk-out-'));
    try {
      await promisify(execFile)(join(root, 'node_modules', '.bin', 'cdk'), ['synth', '--quiet', '--output', out], {
        cwd: root,
        // No credentials and no network: synth must not need either.
        env: { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: '', CDK_DISABLE_VERSION_CHECK: '1' },
        timeout: 240_000,
      });
      // The functions live in the nested stacks, one per area of the API.
      const templates = readdirSync(out).filter((file) => file.endsWith('.template.json'));
      expect(templates).toContain('ImmichServerless.template.json');
      const functions = templates.flatMap((file) =>
        Object.values(
          JSON.parse(readFileSync(join(out, file), 'utf8')).Resources as Record<
            string,
            { Type: string; Metadata?: Record<string, string> }
          >,
        ).filter((r) => r.Type === 'AWS::Lambda::Function'),
      );
      expect(functions).toHaveLength(routes.length);
      for (const fn of functions) {
        const asset = fn.Metadata?.['aws:asset:path'];
        expect(asset && existsSync(join(out, asset, 'index.mjs'))).toBe(true);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 300_000);
});
