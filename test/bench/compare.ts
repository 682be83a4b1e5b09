/**
 * `npm run bench:compare -- <git revision>`: every function's bundle size and cold import, this
 * tree against an earlier revision, measured on the same machine at the same time. Yesterday's
 * numbers in docs/benchmarks.md come from a machine that may have run faster or slower; this is
 * the fair comparison a "no function got worse" claim needs. The earlier revision is checked out
 * into .bench/ (a git worktree sharing node_modules) and bundled with its own infra/cdk/bundling.ts;
 * the two bundles of each function are imported alternately, each by fresh Node processes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BuildOptions, build } from 'esbuild';
import { coldImportMs } from './functions.ts';
import { sdkFloorBundle } from './sdk-floor.ts';
import { median, replaceSection, table } from './stats.ts';

const root = join(import.meta.dirname, '..', '..');
const revision = process.argv[2];
if (!revision) throw new Error('usage: npm run bench:compare -- <git revision>');
const runs = Number(process.env.COMPARE_RUNS ?? 15);
// COMPARE_ONLY=pingServer,login measures only those functions (more runs for a close call).
const only = process.env.COMPARE_ONLY?.split(',');

const sha = execFileSync('git', ['rev-parse', '--short', revision], { cwd: root, encoding: 'utf8' }).trim();
const before = join(root, '.bench', `compare-${sha}`);
if (!existsSync(before)) {
  execFileSync('git', ['worktree', 'add', '--detach', before, sha], { cwd: root, stdio: 'ignore' });
  symlinkSync(join(root, 'node_modules'), join(before, 'node_modules'));
}

type Tree = {
  name: string;
  dir: string;
  routes: readonly { operationId: string; entry: string; generation?: 'v3' }[];
  options: (entry: string, out: string) => BuildOptions;
};
const load = async (name: string, dir: string): Promise<Tree> => ({
  name,
  dir,
  routes: (await import(join(dir, 'infra', 'routes.ts'))).routes,
  // An older revision keeps its bundling options in infra/ itself (before the CDK app had a folder).
  options: (await import(join(dir, 'infra', existsSync(join(dir, 'infra', 'cdk')) ? 'cdk' : '', 'bundling.ts'))).esbuildOptions,
});
const trees = [await load(sha, before), await load('now', root)] as const;

// A route's function across both trees: its generation and operation id (`pingServer` is in both generations).
const nameOf = (route: Tree['routes'][number]): string =>
  route.generation ? `${route.generation}:${route.operationId}` : route.operationId;

const rows: (string | number)[][] = [];
const worse: string[] = [];
for (const route of trees[1].routes) {
  if (!trees[0].routes.some((old) => nameOf(old) === nameOf(route)) || (only && !only.includes(nameOf(route)))) continue;
  const built = await Promise.all(
    trees.map(async (tree) => {
      const out = join(root, '.bench', 'compare', tree.name, `${nameOf(route).replace(':', '-')}.mjs`);
      mkdirSync(join(out, '..'), { recursive: true });
      const entry = tree.routes.find((candidate) => nameOf(candidate) === nameOf(route))?.entry ?? route.entry;
      const { metafile } = await build({ ...tree.options(entry, out), metafile: true });
      return { out, metafile };
    }),
  );
  const files = built.map((each) => each.out);
  // The AWS SDK floor of this tree's bundle (sdk-floor.ts), imported in turn with the two sides.
  const floor = built[1] && (await sdkFloorBundle(built[1].metafile, trees[1].options));
  if (floor) files.push(floor);
  const samples: number[][] = files.map(() => []);
  for (let i = 0; i < runs; i++) {
    const order = files.map((_, side) => side);
    for (const side of i % 2 ? order : order.reverse()) samples[side]?.push(coldImportMs(files[side] ?? ''));
  }
  const [kbBefore, kbNow] = files.map((file) => statSync(file).size / 1024) as [number, number];
  const [msBefore, msNow, msFloor] = samples.map((values) => median(values)) as [number, number, number | undefined];
  rows.push([
    nameOf(route),
    kbBefore.toFixed(1),
    kbNow.toFixed(1),
    msBefore.toFixed(1),
    msNow.toFixed(1),
    msFloor?.toFixed(1) ?? '–',
    msFloor ? (msNow / msFloor).toFixed(2) : '–',
  ]);
  if (kbNow > kbBefore + 0.05) worse.push(`${nameOf(route)}: ${kbBefore.toFixed(1)} → ${kbNow.toFixed(1)} KB`);
  console.log(`| ${rows.at(-1)?.join(' | ')} |`);
}

const report = [
  `_Compared ${new Date().toISOString().slice(0, 10)}: this tree against ${sha}, ${runs} cold imports of each bundle, alternating, Node ${process.version}, ${process.arch}._`,
  '',
  table(['function', `KB ${sha}`, 'KB now', `cold ms ${sha}`, 'cold ms now', 'SDK floor ms', 'now × floor'], rows),
  '',
  worse.length === 0 ? 'No bundle grew.' : `Bundles that grew: ${worse.join('; ')}.`,
].join('\n');
// A partial run (COMPARE_ONLY) is printed only; a full one is recorded in docs/benchmarks.md.
if (!only) {
  const docPath = join(root, 'docs', 'benchmarks.md');
  writeFileSync(docPath, replaceSection(readFileSync(docPath, 'utf8'), 'compare', report));
}
console.log(`\n${report}${only ? '' : '\n\nwritten to docs/benchmarks.md'}`);
