import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routes } from '#infra/routes.ts';

/**
 * How much of each generation's SDK this API serves: every operation of the SDK's fetch client
 * (its function name, method and path) against the route table rows of that generation
 * (@immich/sdk 1.100.0: v1.100's rows; @immich/sdk-v3, 3.2.2: the `v3` rows). Prints the share,
 * and README must state the same numbers.
 */
const operationsOf = (sdk: string) =>
  readFileSync(new URL(import.meta.resolve(sdk)).pathname.replace(/index\.js$/, 'fetch-client.js'), 'utf8')
    .split(/\nexport function /)
    .slice(1)
    .map((body) => {
      const name = /^(\w+)\(/.exec(body)?.[1] ?? '';
      const path = (
        /fetch(?:Json|Text|Blob)?\(\s*[`"](\/[^`"$]*(?:\$\{encodeURIComponent\(\w+\)\}[^`"$]*)*)/.exec(body)?.[1] ?? ''
      ).replace(/\$\{encodeURIComponent\((\w+)\)\}/g, '{$1}');
      const method = /method: "(\w+)"/.exec(body)?.[1] ?? 'GET';
      return { name, method, path: `/api${path}` };
    });
const operations = operationsOf('@immich/sdk');
const operationsV3 = operationsOf('@immich/sdk-v3');

const served = routes.filter((route) => !route.generation && operations.some((operation) => operation.name === route.operationId));
/** v3's operations served: the v3 rows, and the v1.100 rows whose path v3 kept (`v3`: its operation's name there). */
const servedV3 = routes
  .flatMap((route) =>
    route.generation === 'v3' ? [{ ...route, name: route.operationId }] : route.v3 ? [{ ...route, name: route.v3 }] : [],
  )
  .filter((route) => operationsV3.some((operation) => operation.name === route.name));
const shape = (path: string) => path.replace(/\{\w+\}/g, '{}');

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

describe('@immich/sdk 3.2.2 coverage (the v3 rows)', () => {
  it('reads all 276 operations of the SDK', () => {
    expect(operationsV3).toHaveLength(276);
    expect(operationsV3.find((operation) => operation.name === 'pingServer')).toEqual({
      name: 'pingServer',
      method: 'GET',
      path: '/api/server/ping',
    });
  });

  it("serves each v3 row at the SDK's method and path, and names no operation the SDK lacks", () => {
    const rows = routes.filter((route) => route.generation === 'v3' || route.v3);
    expect(rows.length).toBe(servedV3.length);
    for (const route of servedV3) {
      const operation = operationsV3.find((each) => each.name === route.name);
      expect(`${route.method} ${shape(route.path)}`, route.name).toBe(`${operation?.method} ${shape(operation?.path ?? '')}`);
    }
  });

  it('states in README the share it serves', () => {
    const share = `${servedV3.length} of @immich/sdk 3.2.2's ${operationsV3.length} operations`;
    console.log(`Serves ${share}`);
    expect(readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8')).toContain(share);
  });
});
