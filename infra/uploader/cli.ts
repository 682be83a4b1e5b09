#!/usr/bin/env node
/**
 * `npm run upload -- [options] <paths…>` (or `npx immich-serverless upload …`): uploads a
 * library, files of any size, with the Immich CLI's login (docs/large-uploads.md, "Uploading a large library").
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { scanFiles } from './files.ts';
import { Api, type Progress, uploadFiles } from './uploader.ts';

const usage = `Usage: npm run upload -- [options] <paths…>

Uploads photos and videos as \`immich upload\` does, files of any size: up to --large-file MB
through POST /api/asset/upload, larger ones in parts straight to the store (upload sessions).
Run again after an interruption: finished files are skipped, open sessions resumed.

Options:
  -r, --recursive           descend into folders
  -i, --ignore <glob>       skip matching paths (repeatable)
  -h, --include-hidden      include files and folders starting with a dot
  -A, --album               add each file to an album named after its folder
      --album-name <name>   add every file to this album
  -n, --dry-run             show what would be uploaded
  -c, --concurrency <n>     files at a time (default 4)
      --large-file <MB>     above this, upload sessions (default 4)
      --part-size <MB>      session part size (default 16, at least 5)
      --limit-rate <MB/s>   at most this many MB a second
      --url <url>           the server's API URL (else IMMICH_INSTANCE_URL, else auth.yml)
      --key <api key>       an API key (else IMMICH_API_KEY, else auth.yml)
      --json                print the summary as JSON
  -d, --config-directory    where the Immich CLI keeps auth.yml (IMMICH_CONFIG_DIR, ~/.config/immich)`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    recursive: { type: 'boolean', short: 'r', default: false },
    ignore: { type: 'string', short: 'i', multiple: true, default: [] },
    'include-hidden': { type: 'boolean', short: 'h', default: false },
    album: { type: 'boolean', short: 'A', default: false },
    'album-name': { type: 'string' },
    'dry-run': { type: 'boolean', short: 'n', default: false },
    concurrency: { type: 'string', short: 'c', default: '4' },
    'large-file': { type: 'string', default: '4' },
    'part-size': { type: 'string', default: '16' },
    'limit-rate': { type: 'string', default: '0' },
    url: { type: 'string' },
    key: { type: 'string' },
    json: { type: 'boolean', default: false },
    'config-directory': { type: 'string', short: 'd' },
    help: { type: 'boolean', default: false },
  },
});

const mebibyte = 1024 * 1024;
const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

/** The Immich CLI's auth.yml (`immich login-key` writes it): `instanceUrl` and `apiKey`. */
const readAuthFile = async (path: string): Promise<{ instanceUrl?: string; apiKey?: string }> => {
  const text = await readFile(path, 'utf8').catch(() => '');
  const value = (key: string) => {
    const match = new RegExp(`^${key}:\\s*(.*)$`, 'm').exec(text)?.[1]?.trim();
    return match?.replace(/^(['"])(.*)\1$/, '$2');
  };
  const instanceUrl = value('instanceUrl');
  const apiKey = value('apiKey');
  return { ...(instanceUrl ? { instanceUrl } : {}), ...(apiKey ? { apiKey } : {}) };
};

const formatBytes = (bytes: number): string =>
  bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(2)} GB` : `${(bytes / mebibyte).toFixed(1)} MB`;

const progressBar = (started: number) => {
  const tty = process.stderr.isTTY;
  let last = 0;
  return (progress: Progress): void => {
    const now = Date.now();
    if (now - last < (tty ? 100 : 2000) && progress.filesDone < progress.files) return;
    last = now;
    const share = progress.bytes ? progress.bytesDone / progress.bytes : 1;
    const bar = '#'.repeat(Math.round(share * 30)).padEnd(30, '-');
    const rate = progress.bytesDone / Math.max(0.001, (now - started) / 1000);
    const line = `[${bar}] ${progress.filesDone}/${progress.files} files · ${formatBytes(progress.bytesDone)} of ${formatBytes(progress.bytes)} · ${formatBytes(rate)}/s`;
    process.stderr.write(tty ? `\r${line}` : `${line}\n`);
  };
};

// `npx immich-serverless upload <paths>` names the command, as `immich upload` does.
if (positionals[0] === 'upload') positionals.shift();

const main = async (): Promise<void> => {
  if (values.help || positionals.length === 0) {
    console.log(usage);
    process.exit(values.help ? 0 : 1);
  }
  const configDir = values['config-directory'] ?? process.env.IMMICH_CONFIG_DIR ?? join(homedir(), '.config', 'immich');
  const auth = await readAuthFile(join(configDir, 'auth.yml'));
  const url = (
    values.url ??
    process.env.IMMICH_INSTANCE_URL ??
    auth.instanceUrl ??
    fail('No server: run `immich login-key <url> <key>` or give --url and --key')
  ).replace(/\/+$/, '');
  const apiKey =
    values.key ?? process.env.IMMICH_API_KEY ?? auth.apiKey ?? fail('No API key: run `immich login-key <url> <key>` or give --key');
  const api = new Api({ url, apiKey });
  const me = await api
    .call<{ email: string }>('GET', '/user/me')
    .catch((error: unknown) => fail(`Cannot sign in to ${url}: ${String(error)}`));
  const types = await api.call<{ image: string[]; video: string[] }>('GET', '/server-info/media-types');
  const files = await scanFiles(positionals, {
    recursive: values.recursive,
    ignore: values.ignore,
    includeHidden: values['include-hidden'],
    extensions: new Set([...types.image, ...types.video].map((extension) => extension.toLowerCase())),
  });
  const started = Date.now();
  console.error(
    `Signed in to ${url} as ${me.email}: ${files.length} files, ${formatBytes(files.reduce((sum, file) => sum + file.size, 0))}`,
  );
  const summary = await uploadFiles(api, files, {
    largeFileBytes: Number(values['large-file']) * mebibyte,
    partSize: Math.max(5, Number(values['part-size'])) * mebibyte,
    concurrency: Math.max(1, Number(values.concurrency) || 1),
    dryRun: values['dry-run'],
    albumPerFolder: values.album,
    ...(values['album-name'] ? { albumName: values['album-name'] } : {}),
    rateLimit: Number(values['limit-rate']) * mebibyte,
    statePath: join(configDir, 'upload-sessions.json'),
    onProgress: progressBar(started),
    onFile: (file, outcome) => {
      if (values['dry-run'] || outcome.startsWith('failed')) console.error(`\n${file.path}: ${outcome}`);
    },
  });
  if (process.stderr.isTTY) process.stderr.write('\n');
  const seconds = (Date.now() - started) / 1000;
  if (values.json) console.log(JSON.stringify({ ...summary, seconds }));
  else {
    console.log(
      `${summary.uploaded} uploaded (${summary.sessions} in parts, ${summary.resumed} resumed), ${summary.duplicates} already on the server, ${summary.failed} failed; ${formatBytes(summary.bytesSent)} sent in ${seconds.toFixed(1)} s`,
    );
  }
  if (summary.failed > 0) process.exitCode = 1;
};

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
