import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routes } from '#infra/routes.ts';

/**
 * How much of @immich/sdk 1.100.0 this API serves: every operation of the SDK's fetch client
 * (its function name, method and path) against the route table. Prints the share, and README
 * must state the same number.
 */
const client = readFileSync(new URL(import.meta.resolve('@immich/sdk')).pathname.replace(/index\.js$/, 'fetch-client.js'), 'utf8');
const operations = client
  .split(/\nexport function /)
  .slice(1)
  .map((body) => {
    const name = /^(\w+)\(/.exec(body)?.[1] ?? '';
    const path = (/fetch(?:Json|Text|Blob)?\(\s*[`"](\/[^`"$]*(?:\$\{encodeURIComponent\(\w+\)\}[^`"$]*)*)/.exec(body)?.[1] ?? '').replace(
      /\$\{encodeURIComponent\((\w+)\)\}/g,
      '{$1}',
    );
    const method = /method: "(\w+)"/.exec(body)?.[1] ?? 'GET';
    return { name, method, path: `/api${path}` };
  });

const served = routes.filter((route) => operations.some((operation) => operation.name === route.operationId));

describe('@immich/sdk coverage', () => {
  it('reads all 140 operations of the SDK', () => {
    expect(operations).toHaveLength(140);
    expect(operations.find((operation) => operation.name === 'getTimeBuckets')).toEqual({
      name: 'getTimeBuckets',
      method: 'GET',
      path: '/api/asset/time-buckets',
    });
  });

  it("serves each routed operation at the SDK's method and path (path parameter names aside)", () => {
    const shape = (path: string) => path.replace(/\{\w+\}/g, '{}');
    for (const route of served) {
      const operation = operations.find((each) => each.name === route.operationId);
      expect(`${route.method} ${shape(route.path)}`, route.operationId).toBe(`${operation?.method} ${shape(operation?.path ?? '')}`);
    }
  });

  it('states in README the share it serves', () => {
    const share = `${served.length} of @immich/sdk 1.100.0's ${operations.length} operations`;
    console.log(
      `Serves ${share}; not yet: ${operations
        .filter((op) => !served.some((route) => route.operationId === op.name))
        .map((op) => op.name)
        .join(', ')}`,
    );
    expect(readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8')).toContain(share);
  });
});
