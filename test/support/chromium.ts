import { execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { type Browser, chromium } from 'playwright-core';

/**
 * The browser for the real-browser tests: headless Chromium from the npm registry
 * (`@sparticuz/chromium`, whose tarball carries a headless-shell build for Lambda-like Linux,
 * x86-64 only), or any Chromium at CHROMIUM_PATH (Debian's `/usr/bin/chromium`, or one for arm64).
 * So `npm ci && npm test` needs Java 17 and nothing else.
 *
 * The package's own `executablePath()` unpacks into /tmp/chromium whatever version is already
 * there and only on Amazon Linux adds the libraries it needs. Here it is unpacked into a folder of
 * its own version, moved into place in one rename (two test processes may start at once), and
 * run with the bundled NSS/NSPR/expat libraries first on LD_LIBRARY_PATH, so a Debian without
 * libnss3 runs it too. Unpacked once per machine: ~200 MB, ~3 s.
 */
const require = createRequire(import.meta.url);
const packageDir = dirname(dirname(require.resolve('@sparticuz/chromium')));
const version = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }).version;
const unpacked = join(tmpdir(), `immich-serverless-chromium-${version}`);

/** Brotli-decompresses `file` of the package's bin/ to `target`. */
const inflate = async (file: string, target: string): Promise<void> => {
  await pipeline(createReadStream(join(packageDir, 'bin', file)), createBrotliDecompress(), createWriteStream(target, { mode: 0o755 }));
};

/** The browser binary, its fonts and libraries, unpacked on first use. */
const unpack = async (): Promise<string> => {
  if (existsSync(join(unpacked, 'chromium'))) return unpacked;
  const staging = await mkdtemp(join(tmpdir(), 'chromium-unpack-'));
  await inflate('chromium.br', join(staging, 'chromium'));
  for (const pack of ['fonts', 'al2023']) {
    await inflate(`${pack}.tar.br`, join(staging, `${pack}.tar`));
    await mkdir(join(staging, pack));
    execFileSync('tar', ['-xf', join(staging, `${pack}.tar`), '-C', join(staging, pack)]);
    await rm(join(staging, `${pack}.tar`));
  }
  // The package's fonts.conf names /tmp/fonts; ours names where the fonts are, and the system's.
  await writeFile(
    join(staging, 'fonts', 'fonts.conf'),
    `<?xml version="1.0"?>\n<fontconfig><dir>${join(unpacked, 'fonts', 'fonts')}</dir><dir>/usr/share/fonts</dir><cachedir>${join(unpacked, 'fonts-cache')}</cachedir></fontconfig>\n`,
  );
  // Another process may have won the race: its folder is as good as ours.
  await rename(staging, unpacked).catch(() => rm(staging, { recursive: true, force: true }));
  return unpacked;
};

/**
 * SwiftShader (the package's `swiftshader.tar.br`: ANGLE's EGL and GLES over a software Vulkan),
 * beside the binary where Chromium looks for it: WebGL without a GPU, for the map page of the
 * by-hand web runs (test/web/). Unpacked on first use, once.
 */
const unpackSwiftShader = async (dir: string): Promise<void> => {
  if (existsSync(join(dir, 'libGLESv2.so'))) return;
  const staging = await mkdtemp(join(tmpdir(), 'swiftshader-unpack-'));
  await inflate('swiftshader.tar.br', join(staging, 'swiftshader.tar'));
  execFileSync('tar', ['-xf', join(staging, 'swiftshader.tar'), '-C', staging]);
  await rm(join(staging, 'swiftshader.tar'));
  for (const file of await readdir(staging)) await rename(join(staging, file), join(dir, file)).catch(() => undefined);
  await rm(staging, { recursive: true, force: true });
};

/** Where the browser comes from, for messages: CHROMIUM_PATH, or the npm package's build. */
export const chromiumSource = (): string => process.env.CHROMIUM_PATH ?? `@sparticuz/chromium ${version}`;

/**
 * Headless Chromium through playwright-core (browser downloads are not possible here), with the
 * flags a sandboxed, offline machine needs: no background connections, no GPU, as root. With
 * `webgl`, WebGL in software (SwiftShader), for pages that draw with it (the web app's map).
 */
export const launchChromium = async (options: { webgl?: boolean } = {}): Promise<Browser> => {
  const graphics = options.webgl
    ? ['--ignore-gpu-blocklist', '--in-process-gpu', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader']
    : ['--disable-gpu'];
  const args = [
    '--no-sandbox',
    ...graphics,
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ];
  const given = process.env.CHROMIUM_PATH;
  if (given) {
    if (!existsSync(given)) throw new Error(`No Chromium at CHROMIUM_PATH=${given}`);
    return chromium.launch({ executablePath: given, args });
  }
  if (process.arch !== 'x64') throw new Error(`@sparticuz/chromium ships x86-64 only: set CHROMIUM_PATH to a Chromium for ${process.arch}`);
  const dir = await unpack();
  if (options.webgl) await unpackSwiftShader(dir);
  const libraries = join(dir, 'al2023', 'lib');
  return chromium.launch({
    executablePath: join(dir, 'chromium'),
    args,
    env: {
      ...process.env,
      LD_LIBRARY_PATH: [libraries, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_PATH: join(dir, 'fonts'),
    },
  });
};
