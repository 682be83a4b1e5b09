/**
 * The native programs the Lambda bundles carry, for Lambda's platform (linux-arm64) whatever
 * machine installs the project: ffmpeg for the media function's video posters and the transcoding,
 * ffprobe for the transcode decision (shared/media/transcode.ts). npm installs only this machine's
 * builds of @ffmpeg-installer and @ffprobe-installer; this fetches the linux-arm64 builds of
 * exactly the versions and integrities package-lock.json records, once, into node_modules/.lambda/,
 * so that `cdk synth` copies them into the bundles offline (infra/cdk/media-function.ts).
 *
 * It also makes this machine's installed builds executable: @ffprobe-installer's tarballs hold
 * ffprobe with mode 0644 and set the bit in their own postinstall, which an install that skips
 * scripts (npm's allowScripts, --ignore-scripts) never runs.
 *
 * Run by `npm ci` / `npm install` (postinstall) and by `npm run lambda-binaries`.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

export interface LambdaBinary {
  /** The npm package holding it, as package-lock.json names it. */
  packageName: string;
  /** Its file inside the package. */
  file: string;
}

export const lambdaBinaries = {
  ffmpeg: { packageName: '@ffmpeg-installer/linux-arm64', file: 'ffmpeg' },
  ffprobe: { packageName: '@ffprobe-installer/linux-arm64', file: 'ffprobe' },
} satisfies Record<string, LambdaBinary>;

/** Where a binary is kept once fetched. */
export const lambdaBinaryPath = (name: keyof typeof lambdaBinaries): string => join(root, 'node_modules', '.lambda', name);

const locked = (packageName: string): { version: string; integrity: string } => {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; integrity?: string }>;
  };
  const entry = lock.packages[`node_modules/${packageName}`];
  if (!entry?.version || !entry.integrity) throw new Error(`${packageName} is not in package-lock.json`);
  return { version: entry.version, integrity: entry.integrity };
};

const fetchBinary = (name: keyof typeof lambdaBinaries): void => {
  const { packageName, file } = lambdaBinaries[name];
  const target = lambdaBinaryPath(name);
  const { version, integrity } = locked(packageName);
  const stamp = `${target}.integrity`;
  if (existsSync(target) && existsSync(stamp) && readFileSync(stamp, 'utf8') === integrity) return;
  const work = mkdtempSync(join(tmpdir(), 'lambda-binary-'));
  try {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', `${packageName}@${version}`, '--pack-destination', work, '--json', '--silent'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    ) as { filename: string }[];
    if (!packed) throw new Error(`npm pack ${packageName}@${version} gave nothing`);
    const tarball = join(work, packed.filename.replace(/^@/, '').replace('/', '-'));
    const [algorithm, expected] = integrity.split('-', 2) as [string, string];
    const actual = createHash(algorithm).update(readFileSync(tarball)).digest('base64');
    if (actual !== expected)
      throw new Error(`${packageName}@${version}: integrity ${algorithm}-${actual}, package-lock.json says ${integrity}`);
    execFileSync('tar', ['xzf', tarball, '-C', work, `package/${file}`]);
    mkdirSync(join(root, 'node_modules', '.lambda'), { recursive: true });
    renameSync(join(work, 'package', file), target);
    execFileSync('chmod', ['755', target]);
    writeFileSync(stamp, integrity);
    console.log(`lambda-binaries: ${packageName}@${version} → ${target}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};

/** This machine's installed builds (@ffmpeg-installer's, @ffprobe-installer's), made executable (0755) where present. */
const makeInstalledExecutable = (): void => {
  const platform = `${process.platform}-${process.arch}`;
  for (const [scope, file] of [
    ['@ffmpeg-installer', 'ffmpeg'],
    ['@ffprobe-installer', 'ffprobe'],
  ] as const) {
    const binary = join(root, 'node_modules', scope, platform, process.platform === 'win32' ? `${file}.exe` : file);
    if (existsSync(binary) && (statSync(binary).mode & 0o111) !== 0o111) chmodSync(binary, 0o755);
  }
};

if (import.meta.main) {
  for (const name of Object.keys(lambdaBinaries) as (keyof typeof lambdaBinaries)[]) fetchBinary(name);
  makeInstalledExecutable();
}
