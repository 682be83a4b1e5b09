import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Deployment } from '#infra/local/deployed/assembly.ts';
import { type DeployedApi, listen, localBucketName, type StartDeployedOptions, startDeployed } from '#infra/local/deployed/start.ts';
import { deployedAssembly } from './assembly.ts';

/**
 * What every test's start of the synthesized stack shares: this file's table on the suite's
 * DynamoDB Local, the shared-link secret, silent logs, and the originals in `s3Dir`.
 */
export const testDeployment = async (s3Dir: string): Promise<StartDeployedOptions> => ({
  assemblyDir: await deployedAssembly(),
  tableName: process.env.TABLE_NAME ?? '',
  dynamoDb: { endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB ?? '', accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? 'local' },
  s3Dir,
  secretValue: process.env.SHARED_LINK_SECRET ?? '',
  logLevel: 'silent',
});

export interface DeployedStack {
  api: DeployedApi;
  /** The distribution's address (what the clients are given) and `${origin}/api`. */
  origin: string;
  baseUrl: string;
  /** The originals bucket's folder in s3rver (its objects, and `._S3rver_uploads` for unfinished multipart uploads). */
  bucketDir: string;
  /** AWS calls the gateway refused, and failed invocations or a crashed ingress, as they happen. */
  denied: string[];
  failures: string[];
}

/**
 * The synthesized stack served as `npm run start:deployed` serves it, for tests that look behind
 * the distribution (the ingress's process, the bucket's folder): test/support/server.ts gives the
 * e2e files only the address. On this file's table; the originals in a fresh s3rver folder.
 */
export const useDeployedStack = (
  adjust?: (deployment: Deployment) => void,
  options: Pick<StartDeployedOptions, 'models'> = {},
): { readonly current: DeployedStack } => {
  let stack: DeployedStack | undefined;
  let s3Dir = '';
  beforeAll(async () => {
    s3Dir = mkdtempSync(join(tmpdir(), 'deployed-s3-'));
    const denied: string[] = [];
    const failures: string[] = [];
    const api = await startDeployed({
      ...(await testDeployment(s3Dir)),
      ...(adjust ? { adjust } : {}),
      ...options,
      onDenied: (functionId, what) => denied.push(`${functionId}: ${what.action} on ${what.resource}`),
      onFailure: (functionId, message) => failures.push(`${functionId}: ${message}`),
    });
    const origin = `http://127.0.0.1:${await listen(api.server)}`;
    stack = { api, origin, baseUrl: `${origin}/api`, bucketDir: join(s3Dir, localBucketName), denied, failures };
  });
  afterAll(async () => {
    await stack?.api.idle();
    await stack?.api.close();
    rmSync(s3Dir, { recursive: true, force: true });
  });
  return {
    get current() {
      if (!stack) throw new Error('the stack starts in beforeAll');
      return stack;
    },
  };
};
