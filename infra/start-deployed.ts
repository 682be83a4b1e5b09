/**
 * `npm run start:deployed`: what `cdk deploy` would ship, served on this machine. Synthesizes the
 * stack (bundling every function as for AWS) into cdk.out, then serves the template itself: its
 * HTTP API routes, its functions' bundles with their environment, memory and timeout, its IAM
 * policies enforced on every AWS call, on DynamoDB Local, an S3-compatible server and a local
 * secret, all kept in DATA_DIR as for `npm start`. `CDK_OUT=<dir>` serves an assembly already
 * synthesized instead. See docs/deployment.md, "The deployed form, locally".
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { listen, startDeployed } from './local/deployed/start.ts';
import { banner, openLocalData, stopOnSignals } from './local/local-data.ts';
import { isWebBuild } from './local/web-server.ts';
import { webBuildDir } from './web-app.ts';

const root = join(import.meta.dirname, '..');
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const tableName = process.env.TABLE_NAME ?? 'immich';
// Immich's web app in front, as the distribution serves it (the build at WEB_DIR, default .web/build: README, "Immich's web app").
const webDir = resolve(process.env.WEB_DIR || join(root, webBuildDir));

const main = async (): Promise<void> => {
  let assemblyDir = process.env.CDK_OUT ? resolve(process.env.CDK_OUT) : undefined;
  if (!assemblyDir) {
    assemblyDir = join(root, 'cdk.out');
    console.log('Synthesizing the stack (cdk synth) into cdk.out…');
    // With the web build when there is one, as deployed (the share pages' function carries its
    // index.html); its files are served from their folder here, as the distribution serves them.
    execFileSync(join(root, 'node_modules', '.bin', 'cdk'), ['synth', '--quiet', '--output', assemblyDir], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, CDK_DISABLE_VERSION_CHECK: '1', WEB_DIR: isWebBuild(webDir) ? webDir : '' },
    });
  }
  const data = await openLocalData(dataDir, tableName);
  const api = await startDeployed({
    assemblyDir,
    tableName,
    dynamoDb: { endpoint: data.endpoint, accessKeyId: data.accessKeyId ?? process.env.AWS_ACCESS_KEY_ID ?? 'local' },
    s3Dir: join(dataDir, 's3'),
    secretValue: data.linkSecret,
    ...(process.env.LOG_LEVEL ? { logLevel: process.env.LOG_LEVEL } : {}),
    onDenied: (fn, denied) => console.error(`AccessDenied: ${fn} may not ${denied.action} on ${denied.resource}`),
    onFailure: (fn, message) => console.error(`${fn}: ${message}`),
    ...(isWebBuild(webDir) ? { webDir } : {}),
  });
  await listen(api.server, host, port);
  stopOnSignals(data, () => api.close());
  console.log(
    banner('The synthesized stack', host, port, data, [
      `  ${api.deployment.functions.size} functions and ${api.deployment.routes.length} routes from ${assemblyDir}`,
      `  originals: S3-compatible server (s3rver) in ${join(dataDir, 's3')}; every AWS call checked against the function's IAM policy`,
      isWebBuild(webDir)
        ? `  Immich's web app: http://${host === '127.0.0.1' ? 'localhost' : host}:${port}/ (from ${webDir}, as the distribution serves it)`
        : "  Immich's web app: none at WEB_DIR (README, \"Immich's web app\": the www folder of Immich's server image)",
    ]),
  );
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
