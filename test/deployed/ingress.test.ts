import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listen, startDeployed } from '#infra/local/deployed/start.ts';
import { bodyLimitBytes, deployedUploadLimitMb } from '#infra/routes.ts';
import { uploadPaths, uploadRoutingFunctionCode } from '#infra/web-app.ts';
import { testDeployment, useDeployedStack } from '../support/deployed-stack.ts';
import { send } from '../support/streamed-upload.ts';

/** A process's command line and environment, as the kernel holds them. */
const processOf = (pid: number) => ({
  argv: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean),
  env: Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  ),
});

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the ingress, as the template defines it (its instance’s bundle, environment file and role)', () => {
  const stack = useDeployedStack();

  it('runs as its own process: the bundle its user data fetches, a t4g.nano’s heap, its environment file with every AWS endpoint at the gateway', async () => {
    const { api } = stack.current;
    const ingress = api.deployment.ingress;
    const running = await api.ingress();
    if (!ingress || !running) throw new Error('the template has no ingress');
    const { argv, env } = processOf(running.pid);
    expect(argv.slice(1)).toEqual(['--max-old-space-size=256', join(ingress.codeDir, 'main.mjs')]);
    // The template's environment file, resolved to the local resources…
    for (const name of [
      'TABLE_NAME',
      'ORIGINALS_BUCKET',
      'MEDIA_FUNCTION',
      'SHARED_LINK_SECRET_ARN',
      'MAX_UPLOAD_MB',
      'ORIGIN_VERIFY',
      'LOG_GROUP',
    ])
      expect(env[name], name).toBe(ingress.environment[name]);
    expect(env.TABLE_NAME).toBe(process.env.TABLE_NAME);
    // …its dual-stack endpoints replaced by the gateway, and its own key (its instance profile's role).
    expect(ingress.environment.AWS_ENDPOINT_URL_LAMBDA).toMatch(/^https:\/\/lambda\..+\.api\.aws$/);
    for (const name of [
      'AWS_ENDPOINT_URL_LAMBDA',
      'AWS_ENDPOINT_URL_CLOUDWATCH_LOGS',
      'AWS_ENDPOINT_URL_SECRETS_MANAGER',
      'AWS_ENDPOINT_URL_S3',
    ])
      expect(env[name], name).toBe(api.awsEndpoint);
    expect(api.accessKeyOf(ingress.id)).toBeUndefined();
    expect(env.AWS_ACCESS_KEY_ID).toMatch(/^LOCAL[0-9A-F]{16}$/);
    expect(ingress.roleArn).toMatch(/^arn:aws:iam::000000000000:role\/\w+/);
    expect(api.deployment.policies.get(ingress.roleArn)?.length).toBeGreaterThan(0);
  });

  it('sits behind the upload paths’ behaviours: their viewer-request function is the template’s, the ingress a VPC origin with the stack’s header', () => {
    const { api } = stack.current;
    const code = uploadRoutingFunctionCode({ limitBytes: bodyLimitBytes({ body: 'upload' }, deployedUploadLimitMb), large: 'ingress' });
    expect(api.deployment.edgeBehaviors.map((each) => [each.pathPattern, each.viewerRequest.code === code])).toEqual(
      uploadPaths.map((path) => [path, true]),
    );
    // Before `/api/*`, which they are inside of (CloudFront takes the first pattern that matches).
    const patterns = api.deployment.behaviorPatterns;
    for (const path of uploadPaths) expect(patterns.indexOf(path)).toBeLessThan(patterns.indexOf('/api/*'));
    expect(api.deployment.origins.get('ingress')).toEqual({
      kind: 'ingress',
      headers: { 'x-origin-verify': api.deployment.ingress?.environment.ORIGIN_VERIFY },
    });
    expect(api.deployment.origins.get('api')).toEqual({ kind: 'api', headers: {} });
  });

  it('is reached only through the distribution: its origin header added there, refused without it', async () => {
    const { api, baseUrl } = stack.current;
    const headersOnly = (url: string, headers: Record<string, string | number> = {}) =>
      send(url, {
        headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': 50 * 1024 * 1024, ...headers },
        body: 'none',
      });
    // Straight at the instance, without CloudFront's header: refused.
    const direct = await headersOnly(`${(await api.ingress())?.url}/api/assets`);
    expect(direct.status).toBe(403);
    // Through the distribution: the function sends the large POST to the ingress, with the header
    // (the answer is the ingress's own: no credentials), and not through API Gateway (no request id).
    const routed = await headersOnly(`${baseUrl}/assets`);
    expect([routed.status, routed.headers['apigw-requestid'], JSON.parse(routed.body)]).toEqual([
      401,
      undefined,
      { message: expect.stringMatching(/auth/i) },
    ]);
  });

  it('gets what the function chooses: a small upload and a GET go to API Gateway, a POST without a length to the ingress', async () => {
    const { baseUrl } = stack.current;
    const viaGateway = (response: Response) => [response.status, response.headers.get('apigw-requestid') !== null];
    const small = await fetch(`${baseUrl}/assets`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: '--x--\r\n',
    });
    expect(viaGateway(small)).toEqual([401, true]);
    expect(viaGateway(await fetch(`${baseUrl}/assets`))).toEqual([401, true]);
    // A streamed body (chunked, no content-length): its size is unknown, so the ingress takes it.
    const streamed = await fetch(`${baseUrl}/assets`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: new Blob(['--x--\r\n']).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(viaGateway(streamed)).toEqual([401, false]);
  });
});

describe('the ingress process ends with the stack', () => {
  it('is stopped on close, as the instance is', async () => {
    const s3Dir = mkdtempSync(join(tmpdir(), 'ingress-close-'));
    const api = await startDeployed(await testDeployment(s3Dir));
    await listen(api.server);
    const running = await api.ingress();
    const pid = running?.pid ?? 0;
    expect(alive(pid)).toBe(true);
    expect((await fetch(`${running?.url}/health`)).status).toBe(200);
    await api.close();
    expect(alive(pid)).toBe(false);
    rmSync(s3Dir, { recursive: true, force: true });
  });
});
