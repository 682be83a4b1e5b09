import { readFileSync } from 'node:fs';

/**
 * The fields of one of an SDK's object types (its `build/fetch-client.d.ts`), as dot paths to each
 * leaf, nested types followed: what a client of that SDK reads of an answer or sends in a body.
 * Optional fields end in `?`.
 */
export const leafPathsOf = (sdk: string, type: string): string[] => {
  const file = new URL(import.meta.resolve(sdk)).pathname.replace(/index\.js$/, 'fetch-client.d.ts');
  const types = new Map<string, string>();
  for (const match of readFileSync(file, 'utf8').matchAll(/export type (\w+) = \{([\s\S]*?)\n\};/g)) {
    types.set(match[1] as string, match[2] as string);
  }
  const walk = (name: string, prefix: string): string[] =>
    (types.get(name) ?? '').split('\n').flatMap((line) => {
      const field = /^ {4}"?(\w+)"?(\??): (.*);$/.exec(line);
      if (!field) return [];
      const [, key, optional, of] = field as unknown as [string, string, string, string];
      const nested = of.replace(/\[\]$/, '').replace(/ \| null$/, '');
      return types.has(nested) ? walk(nested, `${prefix}${key}.`) : [`${prefix}${key}${optional}`];
    });
  if (!types.has(type)) throw new Error(`${sdk} has no type ${type}`);
  return walk(type, '');
};
