/**
 * The ingress's bundle as the stack builds it (infra/cdk/ingress-bundle.ts): the esbuild bundle of
 * infra/ingress/main.ts in the asset the instance downloads, run as the instance runs it (its own
 * Node process, the environment from a file), without the Lambda runtime's stand-ins.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { lazyModuleFiles } from '#infra/cdk/bundling.ts';
import { ingressBundle, ingressBundleFile, ingressLazyGroups } from '#infra/cdk/ingress-bundle.ts';

const outdir = mkdtempSync(join(tmpdir(), 'ingress-bundle-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/** The asset's folder in the cloud assembly, built with bundling (as `cdk synth` builds it). */
const assetDir = (): string => {
  const app = new App({ outdir });
  const stack = new Stack(app, 'IngressBundle', { env: { region: 'eu-west-1' } });
  const asset = ingressBundle(stack, 'Bundle');
  app.synth();
  return join(outdir, `asset.${asset.assetHash}`);
};

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

/** Resolves once the process logs that it listens (its JSON log line), or fails with what it printed. */
const listening = (child: ChildProcess): Promise<void> =>
  new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"message":"ingress listening"')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the ingress exited (${code}): ${output}`)));
  });

describe('the ingress bundle', () => {
  const dir = assetDir();
  const bundle = readFileSync(join(dir, ingressBundleFile), 'utf8');

  it('is one ESM file with the upload routes’ lazily loaded modules beside it', () => {
    expect(ingressLazyGroups()).toEqual(['metadata']);
    for (const { to } of lazyModuleFiles(ingressLazyGroups())) expect(existsSync(join(dir, to)), to).toBe(true);
    expect(bundle.startsWith("import{createRequire as __cr}from'node:module'")).toBe(true);
  });

  it('keeps the AWS SDK’s real credential chain (the instance profile through IMDS), not the Lambda stand-in that reads the environment only', () => {
    // The stand-in (infra/cdk/runtime/credentials.ts) bundles no instance-metadata provider.
    expect(bundle).toContain('security-credentials');
    expect(bundle).toContain('fromInstanceMetadata');
  });

  it('starts in a plain Node process with the template’s kind of environment, answers its health check, and refuses what CloudFront did not send', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--max-old-space-size=256', join(dir, ingressBundleFile)], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        INGRESS_HOST: '127.0.0.1',
        INGRESS_PORT: String(port),
        TABLE_NAME: 'ingress-bundle-test',
        ORIGINALS_BUCKET: 'ingress-bundle-test',
        AWS_REGION: 'eu-west-1',
        ORIGIN_VERIFY: 'the-stack-token',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await listening(child);
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
      expect(health.headers.get('content-type')).toMatch(/^application\/json/);
      await health.arrayBuffer();
      const unverified = await fetch(`http://127.0.0.1:${port}/api/assets`, { method: 'POST' });
      expect(unverified.status).toBe(403);
      await unverified.arrayBuffer();
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
