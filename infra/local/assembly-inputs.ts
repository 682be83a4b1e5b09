import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Whether `npm run start:deployed` may serve the cdk.out it synthesized last time instead of
 * synthesizing again (docs/deployment.md, "The deployed form, locally"): only when nothing the
 * synth reads has changed. Its inputs: every file under functions/, shared/ and infra/ (the code
 * and the stack), package.json and package-lock.json (the dependencies, and so what postinstall
 * made for the bundles), cdk.json, cdk.context.json and tsconfig.json, the web build's index.html when one is
 * bundled, and the settings the stack reads. The fingerprint goes beside the assembly with the
 * hash of the template it wrote, so an assembly another command rewrote since (`cdk deploy`,
 * `cdk synth` with an account) is synthesized again, not served.
 */
const sourceDirs = ['functions', 'shared', 'infra'];
const sourceFiles = ['package.json', 'package-lock.json', 'cdk.json', 'cdk.context.json', 'tsconfig.json'];
const stampFile = '.start-deployed-inputs.json';

const filesUnder = (root: string, dir: string): string[] =>
  existsSync(join(root, dir))
    ? readdirSync(join(root, dir), { withFileTypes: true })
        .sort((a, b) => (a.name < b.name ? -1 : 1))
        .flatMap((entry) => (entry.isDirectory() ? filesUnder(root, `${dir}/${entry.name}`) : [`${dir}/${entry.name}`]))
    : [];

/** The fingerprint of what a synth in `root` reads, with `settings` (the environment it is synthesized with, the web build). */
export const assemblyInputs = (root: string, settings: Record<string, string | undefined>): string => {
  const hash = createHash('sha256');
  const files = [...sourceDirs.flatMap((dir) => filesUnder(root, dir)), ...sourceFiles.filter((file) => existsSync(join(root, file)))];
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update('\0');
  const web = settings.WEB_DIR ? join(settings.WEB_DIR, 'index.html') : undefined;
  if (web && existsSync(web)) hash.update('web\0').update(readFileSync(web));
  hash.update(JSON.stringify(Object.entries(settings).sort()));
  return hash.digest('hex');
};

const templateHash = (assemblyDir: string): string | undefined => {
  const manifest = join(assemblyDir, 'manifest.json');
  if (!existsSync(manifest)) return undefined;
  const hash = createHash('sha256').update(readFileSync(manifest));
  for (const file of readdirSync(assemblyDir)
    .filter((name) => name.endsWith('.template.json'))
    .sort()) {
    hash.update(readFileSync(join(assemblyDir, file)));
  }
  return hash.digest('hex');
};

/** Whether `assemblyDir` holds what a synth of exactly `inputs` wrote, untouched since. */
export const isAssemblyCurrent = (assemblyDir: string, inputs: string): boolean => {
  const stamp = join(assemblyDir, stampFile);
  if (!existsSync(stamp)) return false;
  const recorded = JSON.parse(readFileSync(stamp, 'utf8')) as { inputs?: string; templates?: string };
  return recorded.inputs === inputs && recorded.templates !== undefined && recorded.templates === templateHash(assemblyDir);
};

/** Records that `assemblyDir` was just synthesized from `inputs`. */
export const recordAssembly = (assemblyDir: string, inputs: string): void => {
  writeFileSync(join(assemblyDir, stampFile), JSON.stringify({ inputs, templates: templateHash(assemblyDir) }));
};

/** Before a synth into `assemblyDir`: what it holds is no longer known to be anything (a synth that fails leaves no record). */
export const forgetAssembly = (assemblyDir: string): void => rmSync(join(assemblyDir, stampFile), { force: true });
