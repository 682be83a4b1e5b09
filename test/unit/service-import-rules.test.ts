import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Biome's restricted imports for services (.biome.json) reach the features' subfolders too
 * (shared/services/sync/, shared/services/media/ and its steps/): planted files, linted by Biome
 * with the project's own configuration in a scratch folder, are refused there as at the top of
 * shared/services/. test/unit/architecture.test.ts checks the same rules on the import graph.
 */
const root = join(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'service-rules-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const planted: Record<string, string> = {
  'shared/services/planted.ts': "import { db } from '../db/client.ts';\nexport const planted = db;\n",
  'shared/services/sync/planted.ts': "import { db } from '../../db/client.ts';\nexport const planted = db;\n",
  'shared/services/sync/planted-dto.ts': "import { x } from '../../dto/v1/user.ts';\nexport const planted = x;\n",
  'shared/services/media/planted.ts': "import { publish } from '../../realtime/publisher.ts';\nexport const planted = publish;\n",
  'shared/services/media/steps/planted.ts': "import * as keys from '../../../db/item-keys.ts';\nexport const planted = keys;\n",
  // Allowed: a repository, and of shared/realtime the outbox.
  'shared/services/sync/allowed.ts':
    "import { raise } from '../../realtime/outbox.ts';\nimport { getAsset } from '../../db/asset.repository.ts';\nexport const allowed = [raise, getAsset];\n",
  'shared/services/media/steps/allowed.ts': "import { raise } from '../../../realtime/outbox.ts';\nexport const allowed = raise;\n",
};

/** The files Biome refuses an import in, by the services' rule. */
const refused = (): string[] => {
  copyFileSync(join(root, '.biome.json'), join(scratch, '.biome.json'));
  for (const [path, text] of Object.entries(planted)) {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), text);
  }
  let output: string;
  try {
    output = execFileSync(join(root, 'node_modules', '.bin', 'biome'), ['lint', '--vcs-enabled=false', '--reporter=json', 'shared'], {
      cwd: scratch,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? '');
  }
  const report = JSON.parse(output) as { diagnostics: { category: string; location: { path: string } }[] };
  return [
    ...new Set(
      report.diagnostics
        .filter((diagnostic) => diagnostic.category === 'lint/style/noRestrictedImports')
        .map((diagnostic) => diagnostic.location.path),
    ),
  ].sort();
};

describe("the services' restricted imports (.biome.json)", () => {
  it('refuse a planted DynamoDB primitive, DTO or realtime sender in every folder of shared/services/, and allow the outbox', () => {
    expect(refused()).toEqual(
      [
        'shared/services/media/planted.ts',
        'shared/services/media/steps/planted.ts',
        'shared/services/planted.ts',
        'shared/services/sync/planted-dto.ts',
        'shared/services/sync/planted.ts',
      ].sort(),
    );
  });
});
