import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { ImmichStack } from '#infra/cdk/stack.ts';
import { type Deployment, loadDeployment } from '#infra/local/deployed/assembly.ts';

const local = {
  tableName: 't',
  bucketName: 'b',
  secretArn: 'arn:aws:secretsmanager:us-east-1:0:secret:s-local0',
  region: 'r',
  account: '0',
};

/**
 * The stack as `-c oauth=cognito` synthesizes it (infra/cdk/cognito.ts), with the bundles of the
 * `deployed` project's own synth: a function's bundle does not depend on the context (only its
 * environment, role and the stack's other resources do), so this synth skips bundling (seconds,
 * where bundling every function again costs a minute or more) and `withBundles` points each
 * function (and the ingress) at the bundle the shared synth built for the same logical id.
 * `dispose` removes the assembly.
 */
export const cognitoAssembly = (
  bundledDir: string,
): { dir: string; withBundles: (deployment: Deployment) => void; dispose: () => void } => {
  const dir = mkdtempSync(join(tmpdir(), 'cognito-out-'));
  // With the asset metadata the CLI's synth writes (each function's `aws:asset:path`), which loadDeployment reads.
  const app = new App({
    outdir: dir,
    context: { 'aws:cdk:bundling-stacks': [], 'aws:cdk:enable-asset-metadata': true, oauth: 'cognito' },
  });
  new ImmichStack(app, 'ImmichServerless');
  app.synth();
  const bundled = loadDeployment(bundledDir, 'ImmichServerless', { ...local, stackUuid: 'u' });
  return {
    dir,
    withBundles: (deployment) => {
      for (const fn of deployment.functions.values()) {
        const same = bundled.functions.get(fn.id);
        if (!same) throw new Error(`${fn.id}: not in the deployed project's synth`);
        fn.codeDir = same.codeDir;
      }
      if (deployment.ingress && bundled.ingress) deployment.ingress.codeDir = bundled.ingress.codeDir;
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
};
