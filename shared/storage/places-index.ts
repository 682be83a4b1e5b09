/**
 * The reverse-geocoding index's file (docs/places.md): built at install time into
 * node_modules/.places/ (infra/tools/places-index.ts); the stack ships it beside the bundle of
 * each function that reads it, at the same relative place. `PLACES_INDEX` names another file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { lambdaTaskRoot, placesIndexPath } from '../core/env.ts';

/**
 * The index file: `PLACES_INDEX`; in a Lambda function the one beside its bundle
 * (`$LAMBDA_TASK_ROOT/node_modules/.places/places.bin`) and no other; elsewhere the project's, in
 * this module's folder or the nearest above it.
 */
const placesIndexFile = (): string | undefined => {
  const named = placesIndexPath();
  if (named) return named;
  const taskRoot = lambdaTaskRoot();
  if (taskRoot) {
    const file = join(taskRoot, 'node_modules', '.places', 'places.bin');
    return existsSync(file) ? file : undefined;
  }
  for (let folder = import.meta.dirname; ; folder = dirname(folder)) {
    const file = join(folder, 'node_modules', '.places', 'places.bin');
    if (existsSync(file)) return file;
    if (dirname(folder) === folder) return undefined;
  }
};

/** The index's bytes (7 MB: one read). */
export const readPlacesIndex = (): Buffer => {
  const file = placesIndexFile();
  if (!file) throw new Error('No places index: run `npm run places-index` (npm ci runs it)');
  return readFileSync(file);
};
