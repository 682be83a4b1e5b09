/**
 * The AWS SDK floor of a function: a bundle of only the AWS SDK it uses — every client, command,
 * error class and helper its own modules import from `@aws-sdk/*`, each client constructed as
 * shared/ constructs it — built with the same esbuild options (infra/cdk/bundling.ts). A
 * function's cold import is judged against it (at most 1.2×, docs/benchmarks.md): what is ours on
 * top of the SDK must stay small, whatever this machine's speed on the day.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BuildOptions, build, type Metafile } from 'esbuild';

const root = join(import.meta.dirname, '..', '..');
const dir = join(root, '.bench', 'sdk-floor');

const sdkImport = /import\s*\{([^}]*)\}\s*from\s*'(@aws-sdk\/[^']+)'/g;

/**
 * The modules with code in the bundle: esbuild lists every module the entry reaches in `inputs`,
 * also one tree-shaking dropped whole (shared/storage/media-jobs.ts reached through a module whose
 * job-handing code a function never calls), whose SDK the function does not carry.
 */
const bundledInputs = (metafile: Metafile): Set<string> =>
  new Set(
    Object.values(metafile.outputs).flatMap((output) =>
      Object.entries(output.inputs)
        .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
        .map(([input]) => input),
    ),
  );

/** Package → the value names (not types) the bundle's own modules import from it. */
export const sdkImportsOf = (metafile: Metafile, base = root): Map<string, Set<string>> => {
  const imports = new Map<string, Set<string>>();
  const bundled = bundledInputs(metafile);
  for (const input of Object.keys(metafile.inputs)) {
    if (input.includes('node_modules/') || !/\.[cm]?ts$/.test(input) || !bundled.has(input)) continue;
    for (const [, names = '', from = ''] of readFileSync(join(base, input), 'utf8').matchAll(sdkImport)) {
      const values = names
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name && !name.startsWith('type '))
        .map((name) => name.split(/\s+as\s+/)[0] ?? name);
      if (values.length) imports.set(from, new Set([...(imports.get(from) ?? []), ...values]));
    }
  }
  return imports;
};

/** A floor entry's source: the imports, each client constructed, everything else kept (exported). */
const floorSource = (imports: Map<string, Set<string>>): string => {
  const lines: string[] = [];
  const kept: string[] = [];
  for (const [from, names] of [...imports].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`import { ${[...names].sort().join(', ')} } from '${from}';`);
    for (const name of names) {
      if (name === 'DynamoDBDocumentClient') kept.push(`${name}.from(new DynamoDBClient({}))`);
      else if (name === 'DynamoDBClient' && imports.get('@aws-sdk/lib-dynamodb')?.has('DynamoDBDocumentClient')) continue;
      else if (/Client$/.test(name)) kept.push(`new ${name}({})`);
      else kept.push(name);
    }
  }
  if (
    imports.get('@aws-sdk/lib-dynamodb')?.has('DynamoDBDocumentClient') &&
    !imports.get('@aws-sdk/client-dynamodb')?.has('DynamoDBClient')
  )
    lines.unshift("import { DynamoDBClient } from '@aws-sdk/client-dynamodb';");
  return `${lines.join('\n')}\nexport const kept = [${kept.join(', ')}];\n`;
};

const built = new Map<string, Promise<string>>();

/**
 * The floor bundle of a function whose bundle has this metafile (built once per distinct set of
 * SDK imports), or undefined for a function that uses no AWS SDK.
 */
export const sdkFloorBundle = (metafile: Metafile, options: (entry: string, out: string) => BuildOptions): Promise<string> | undefined => {
  const imports = sdkImportsOf(metafile);
  // The credentials stand-in (infra/cdk/runtime/credentials.ts) alone is no use of the SDK.
  imports.delete('@aws-sdk/credential-provider-env');
  if (imports.size === 0) return undefined;
  const source = floorSource(imports);
  let bundle = built.get(source);
  if (!bundle) {
    mkdirSync(dir, { recursive: true });
    const name = `floor-${built.size}`;
    writeFileSync(join(dir, `${name}.ts`), source);
    const out = join(dir, `${name}.mjs`);
    // bundling.ts joins the entry onto the repository root.
    bundle = build(options(join('.bench', 'sdk-floor', `${name}.ts`), out)).then(() => out);
    built.set(source, bundle);
  }
  return bundle;
};
