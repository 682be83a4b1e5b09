/**
 * `npm start`: the whole API on this machine. Starts DynamoDB Local (unless
 * AWS_ENDPOINT_URL_DYNAMODB points elsewhere), creates the table if missing, and serves every
 * route of infra/routes.ts at http://localhost:$PORT/api, and Immich's web app at `/` when a
 * build of it is there (WEB_DIR, default .web/build; docs/web-app.md). Ctrl-C stops
 * everything it started.
 */
import { join, resolve } from 'node:path';
import { localAwsEnv } from './local/dynamodb-local.ts';
import { createLocalServer } from './local/http-server.ts';
import { banner, openLocalData, stopOnSignals } from './local/local-data.ts';
import { isWebBuild } from './local/web-server.ts';
import { webBuildDir } from './web-app.ts';

const port = Number(process.env.PORT ?? 3000);
// Loopback only unless asked: the API is a photo library with its owners' hashes behind it.
const host = process.env.HOST ?? '127.0.0.1';
const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const tableName = process.env.TABLE_NAME ?? 'immich';
const maxBodyMb = Number(process.env.MAX_UPLOAD_MB ?? 100);
const webDir = resolve(process.env.WEB_DIR ?? join(import.meta.dirname, '..', webBuildDir));

const main = async (): Promise<void> => {
  const data = await openLocalData(dataDir, tableName);
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

  if (process.env.WEB_DIR && !isWebBuild(webDir)) throw new Error(`WEB_DIR=${webDir} has no index.html: not a build of Immich's web app`);
  const web = isWebBuild(webDir) ? webDir : undefined;
  const server = createLocalServer({ uploadLimitBytes: maxBodyMb * 1024 * 1024, ...(web ? { webDir: web } : {}) });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(port, host, ready);
  });
  stopOnSignals(data, async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });
  const shown = host === '127.0.0.1' ? 'localhost' : host;
  console.log(
    banner('Immich-compatible API', host, port, data, [
      web
        ? `  Immich's web app: http://${shown}:${port}/ (from ${web})`
        : "  Immich's web app: none at WEB_DIR (README, \"Immich's web app\": the www folder of Immich's server image)",
    ]),
  );
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
