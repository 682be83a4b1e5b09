/**
 * The two local hosts, one entry point:
 * - `npm start`: the whole API on this machine. Starts DynamoDB Local (unless
 *   AWS_ENDPOINT_URL_DYNAMODB points elsewhere), creates the table if missing, and serves every
 *   route of infra/routes.ts at http://localhost:$PORT/api, and Immich's web app at `/` when a
 *   build of it is there (WEB_DIR, default .web/build; docs/web-app.md).
 * - `npm run start:deployed` (`--deployed`): what `cdk deploy` would ship, served on this machine.
 *   Synthesizes the stack (bundling every function as for AWS) into cdk.out (unless cdk.out is
 *   its last synth and nothing that synth read has changed: assembly-inputs.ts), then serves the
 *   template itself: its HTTP API routes, its functions' bundles with their environment, memory
 *   and timeout, its IAM policies enforced on every AWS call, on DynamoDB Local, an S3-compatible
 *   server and a local secret. `CDK_OUT=<dir>` serves an assembly already synthesized instead.
 *   See docs/deployment.md, "The deployed form, locally".
 * Both keep their data in DATA_DIR; Ctrl-C stops everything they started.
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { webBuildDir } from '../web-app.ts';
import { assemblyInputs, forgetAssembly, isAssemblyCurrent, recordAssembly } from './assembly-inputs.ts';
import { listen, startDeployed } from './deployed/start.ts';
import { localAwsEnv } from './dynamodb-local.ts';
import { createLocalServer } from './http-server.ts';
import { banner, type LocalData, openLocalData, stopOnSignals } from './local-data.ts';
import { isWebBuild } from './web-server.ts';

const root = join(import.meta.dirname, '..', '..');
const deployed = process.argv.includes('--deployed');
const port = Number(process.env.PORT ?? 3000);
// Loopback only unless asked: the API is a photo library with its owners' hashes behind it.
const host = process.env.HOST ?? '127.0.0.1';
const shown = host === '127.0.0.1' ? 'localhost' : host;
const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const tableName = process.env.TABLE_NAME ?? 'immich';
const webDir = resolve(process.env.WEB_DIR || join(root, webBuildDir));
// `npm run start:deployed` with an OpenID provider of this machine's (Keycloak, Authelia, a test's
// oidc-provider): the stack synthesized as `-c oauth=cognito` makes it, this provider served as its
// settings secret in Cognito's place (docs/deployment.md, "The deployed form, locally").
const localOAuth = process.env.OAUTH_ISSUER_URL
  ? {
      issuerUrl: process.env.OAUTH_ISSUER_URL,
      clientId: process.env.OAUTH_CLIENT_ID ?? '',
      clientSecret: process.env.OAUTH_CLIENT_SECRET ?? '',
      // As the Cognito form's secret turns it on (infra/cdk/cognito.ts), on this server's origin.
      mobileOverrideEnabled: true,
      mobileRedirectUri: `http://${shown}:${port}/api/oauth/mobile-redirect`,
    }
  : undefined;
const noWeb = '  Immich\'s web app: none at WEB_DIR (docs/web-app.md, "The build": the www folder of Immich\'s server image)';

/** `npm start`: the handlers of the source, in this process. */
const startSource = async (data: LocalData): Promise<void> => {
  const maxBodyMb = Number(process.env.MAX_UPLOAD_MB ?? 100);
  // The embedded DynamoDB Local is reached with its own key id; another DynamoDB with the
  // environment's credentials (or DynamoDB Local's usual `local` ones).
  if (data.accessKeyId) Object.assign(process.env, { AWS_ACCESS_KEY_ID: data.accessKeyId, AWS_SECRET_ACCESS_KEY: 'local' });
  for (const [key, value] of Object.entries({
    ...localAwsEnv,
    AWS_ENDPOINT_URL_DYNAMODB: data.endpoint,
    TABLE_NAME: tableName,
    DATA_DIR: dataDir,
    SHARED_LINK_SECRET: data.linkSecret,
  })) {
    process.env[key] ??= value;
  }
  const web = isWebBuild(webDir) ? webDir : undefined;
  const server = createLocalServer({ uploadLimitBytes: maxBodyMb * 1024 * 1024, ...(web ? { webDir: web } : {}) });
  await listen(server, host, port);
  // What the hourly EventBridge schedule does deployed: the nightly tasks' function gets a tick now
  // and every hour, and runs Immich's nightly tasks once a night (functions/nightly/run-nightly-tasks.ts).
  const tick = (): void => {
    void import('#functions/nightly/run-nightly-tasks.ts')
      .then(({ handler }) => handler({ time: new Date().toISOString() }))
      .catch((error: unknown) => console.error('nightly tasks failed', error));
  };
  const ticks = setInterval(tick, 3_600_000).unref();
  tick();
  stopOnSignals(data, async () => {
    clearInterval(ticks);
    await server.stop();
  });
  console.log(
    banner('Immich-compatible API', host, port, data, [web ? `  Immich's web app: http://${shown}:${port}/ (from ${web})` : noWeb]),
  );
};

/** `npm run start:deployed`: the synthesized template, its bundles in Lambda-like workers. */
const startTemplate = async (data: LocalData): Promise<void> => {
  let assemblyDir = process.env.CDK_OUT ? resolve(process.env.CDK_OUT) : undefined;
  if (!assemblyDir) {
    assemblyDir = join(root, 'cdk.out');
    // With the web build when there is one, as deployed (the share pages' function carries its
    // index.html); its files are served from their folder here, as the distribution serves them.
    const settings = {
      WEB_DIR: isWebBuild(webDir) ? webDir : '',
      STACK_NAME: process.env.STACK_NAME,
      CDK_DEFAULT_ACCOUNT: process.env.CDK_DEFAULT_ACCOUNT,
      CDK_DEFAULT_REGION: process.env.CDK_DEFAULT_REGION,
      OAUTH: localOAuth ? 'cognito' : '',
    };
    // The last synth's cdk.out again when nothing it read has changed (infra/local/assembly-inputs.ts).
    const inputs = assemblyInputs(root, settings);
    if (isAssemblyCurrent(assemblyDir, inputs)) {
      console.log('Serving cdk.out as synthesized last time: nothing it reads has changed');
    } else {
      console.log('Synthesizing the stack (cdk synth) into cdk.out…');
      forgetAssembly(assemblyDir);
      const context = settings.OAUTH ? ['--context', `oauth=${settings.OAUTH}`] : [];
      execFileSync(join(root, 'node_modules', '.bin', 'cdk'), ['synth', '--quiet', '--output', assemblyDir, ...context], {
        cwd: root,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, CDK_DISABLE_VERSION_CHECK: '1', WEB_DIR: settings.WEB_DIR },
      });
      recordAssembly(assemblyDir, inputs);
    }
  }
  const api = await startDeployed({
    assemblyDir,
    tableName,
    dynamoDb: { endpoint: data.endpoint, accessKeyId: data.accessKeyId ?? process.env.AWS_ACCESS_KEY_ID ?? 'local' },
    s3Dir: join(dataDir, 's3'),
    secretValue: data.linkSecret,
    ...(localOAuth ? { oauthSettings: () => localOAuth } : {}),
    ...(process.env.LOG_LEVEL ? { logLevel: process.env.LOG_LEVEL } : {}),
    onDenied: (fn, denied) => console.error(`AccessDenied: ${fn} may not ${denied.action} on ${denied.resource}`),
    onFailure: (fn, message) => console.error(`${fn}: ${message}`),
    ...(isWebBuild(webDir) ? { webDir } : {}),
    // The nightly tasks' hourly schedule, as EventBridge runs it (infra/cdk/nightly-function.ts).
    schedules: true,
    // CLIP models in ML_MODELS_DIR (as for `npm start`) go into the local bucket under models/, as `npm run upload-model` deploys them.
    ...(process.env.ML_MODELS_DIR ? { models: process.env.ML_MODELS_DIR } : {}),
  });
  await listen(api.server, host, port);
  stopOnSignals(data, () => api.close());
  // Started now, as the instance runs from the deploy on (the tests start it at the first large upload).
  const ingress = await api.ingress();
  console.log(
    banner('The synthesized stack', host, port, data, [
      `  ${api.deployment.functions.size} functions and ${api.deployment.routes.length} routes from ${assemblyDir}`,
      `  originals: S3-compatible server (s3rver) in ${join(dataDir, 's3')}; every AWS call checked against the function's IAM policy`,
      ingress
        ? `  large uploads: the ingress (the template's instance) as process ${ingress.pid} at ${ingress.url}, behind the distribution's upload function`
        : '  large uploads: no ingress in this template (-c largeUploads=off): a large upload is answered 413',
      isWebBuild(webDir) ? `  Immich's web app: http://${shown}:${port}/ (from ${webDir}, as the distribution serves it)` : noWeb,
    ]),
  );
};

const main = async (): Promise<void> => {
  if (process.env.WEB_DIR && !isWebBuild(webDir)) throw new Error(`WEB_DIR=${webDir} has no index.html: not a build of Immich's web app`);
  const data = await openLocalData(dataDir, tableName);
  await (deployed ? startTemplate(data) : startSource(data));
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
