/**
 * `npm run web:build -- <Immich source>`: builds Immich's own web app (v1.100.0) into `.web/build`,
 * which `npm start` serves at `/` and `npm run deploy` puts behind CloudFront (docs/web-app.md).
 * The source is a checkout of Immich's repository, or a git URL cloned (at `--ref`, v1.100.0 by
 * default) into `.web/source`. Immich's code is AGPL and never part of this repository: both
 * folders are ignored by git. Builds the TypeScript SDK the app imports (`open-api/typescript-sdk`),
 * then the app (`web/`), each with `npm ci && npm run build`, from the npm registry only.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { webBuildDir, webVersion } from './web-app.ts';

const root = join(import.meta.dirname, '..');

const usage = `Usage: npm run web:build -- <Immich checkout | git URL> [--ref v${webVersion}] [--any-version]
  e.g. git clone --depth 1 --branch v${webVersion} https://github.com/immich-app/immich.git ../immich
       npm run web:build -- ../immich`;

const run = (command: string, args: string[], cwd: string): void => {
  console.log(`\n$ (cd ${cwd} && ${command} ${args.join(' ')})`);
  execFileSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, CI: 'true' } });
};

const isGitUrl = (source: string): boolean => /^(https?:\/\/|git@|ssh:\/\/|git:\/\/|file:\/\/)/.test(source) || source.endsWith('.git');

const versionOf = (source: string): string | undefined => {
  const manifest = join(source, 'web', 'package.json');
  if (!existsSync(manifest)) return undefined;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version;
};

const main = (): void => {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { ref: { type: 'string', default: `v${webVersion}` }, 'any-version': { type: 'boolean', default: false } },
  });
  const [given] = positionals;
  if (!given) throw new Error(usage);

  let source = resolve(given);
  if (isGitUrl(given)) {
    source = join(root, '.web', 'source');
    rmSync(source, { recursive: true, force: true });
    mkdirSync(dirname(source), { recursive: true });
    run('git', ['clone', '--depth', '1', '--branch', values.ref, given, source], root);
  }
  const version = versionOf(source);
  if (!version || !existsSync(join(source, 'open-api', 'typescript-sdk', 'package.json')))
    throw new Error(`${source} is not a checkout of Immich (no web/package.json and open-api/typescript-sdk/)\n${usage}`);
  if (version !== webVersion && !values['any-version'])
    throw new Error(`${source} holds Immich's web app ${version}; this API answers for ${webVersion} (--any-version to build it anyway)`);

  const started = Date.now();
  const sdk = join(source, 'open-api', 'typescript-sdk');
  run('npm', ['ci', '--no-audit', '--no-fund'], sdk);
  run('npm', ['run', 'build'], sdk);
  const web = join(source, 'web');
  run('npm', ['ci', '--no-audit', '--no-fund'], web);
  run('npm', ['run', 'build'], web);
  if (!existsSync(join(web, 'build', 'index.html'))) throw new Error(`The build left no ${join(web, 'build', 'index.html')}`);

  const target = join(root, webBuildDir);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(dirname(target), { recursive: true });
  cpSync(join(web, 'build'), target, { recursive: true });
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`\nImmich's web app ${version} built in ${seconds} s into ${target}.`);
  console.log('Next: npm start, then open http://localhost:3000/ (or npm run deploy: the stack serves it behind CloudFront).');
};

try {
  main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
