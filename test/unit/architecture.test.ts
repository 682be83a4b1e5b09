import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localRoutes, routes, webRoutes } from '#infra/routes.ts';

/**
 * The layering of README's "Layout", checked on the import graph of the product code (functions/,
 * shared/, infra/): no file imports itself back through others, no folder of shared/ depends on a
 * folder that depends on it, and each layer imports only the layers below it. Biome's
 * noRestrictedImports says the same per folder while editing (.biome.json); this test also sees
 * cycles across folders and type-only imports.
 */
const root = join(import.meta.dirname, '..', '..');

const sources = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );

const files = ['functions', 'shared', 'infra'].flatMap(sources);
const aliases: Record<string, string> = { '#shared/': 'shared/', '#functions/': 'functions/', '#infra/': 'infra/' };

/** The project files a file imports (static, dynamic, type-only and re-exports alike). */
const importsOf = (file: string): string[] => {
  const text = readFileSync(join(root, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"`;]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)].map(
    (match) => match[1] ?? match[2] ?? '',
  );
  return specifiers.flatMap((specifier) => {
    const alias = Object.keys(aliases).find((prefix) => specifier.startsWith(prefix));
    if (alias) return [`${aliases[alias]}${specifier.slice(alias.length)}`];
    if (specifier.startsWith('.')) return [relative(root, resolve(root, dirname(file), specifier))];
    return [];
  });
};

const graph = new Map(files.map((file) => [file, importsOf(file)]));

/** Strongly connected components with more than one member (Tarjan): each is an import cycle. */
const cycles = (edges: Map<string, readonly string[]>): string[][] => {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!edges.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
};

/** The layer a file belongs to: `shared/<folder>` (its items/ count as db), the ingress, or the top folder. */
const layerOf = (file: string): string => {
  const [top, folder] = file.split('/');
  if (top === 'infra' && folder === 'ingress') return 'infra/ingress';
  return top === 'shared' && folder && !folder.endsWith('.ts') ? `shared/${folder}` : (top ?? file);
};

/** Single files allowed one import across the layers, each with its reason. */
const exceptions: readonly { file: string; target: string; reason: string }[] = [
  {
    file: 'shared/db/vector-index.repository.ts',
    target: 'shared/storage/originals.ts',
    reason: 'the embedding index keeps its packed snapshots in the originals store (docs/search.md, "The embedding index")',
  },
];

/** What each layer may import, besides itself. Lower layers never import higher ones. */
const allowed: Record<string, readonly string[]> = {
  'shared/core': [],
  'shared/model': [],
  'shared/storage': ['shared/core'],
  // Request schemas, response types and mappers, one file per resource and generation.
  'shared/dto': ['shared/core', 'shared/model'],
  'shared/domain': ['shared/core', 'shared/model'],
  'shared/db': ['shared/core', 'shared/model'],
  'shared/media': ['shared/core', 'shared/model', 'shared/domain'],
  // Machine learning (docs/machine-learning.md): the remote back end (the user's Immich ML service)
  // and the local one (models from a folder, or deployed from the bucket through shared/storage).
  'shared/ml': ['shared/core', 'shared/model', 'shared/domain', 'shared/storage'],
  // The shared-link secret (shared/storage/link-secret.ts) checks a password link's token.
  'shared/auth': ['shared/core', 'shared/model', 'shared/db', 'shared/access', 'shared/storage'],
  'shared/access': ['shared/core', 'shared/model', 'shared/db'],
  // Immich's realtime socket (docs/web-app.md, "Realtime"): the per-request outbox of events, and
  // what sends them, each in a connection's generation: the edge's mappers (dto), the connections
  // (db), the management API's client. Services raise events into the outbox and nothing else of
  // it (checked below): a service never shapes a payload.
  'shared/realtime': ['shared/core', 'shared/model', 'shared/dto', 'shared/db', 'shared/storage'],
  // No shared/dto: services take model inputs (the rule of one core, below).
  'shared/services': [
    'shared/core',
    'shared/model',
    'shared/domain',
    'shared/db',
    'shared/media',
    'shared/ml',
    'shared/storage',
    'shared/auth',
    'shared/access',
    'shared/realtime',
  ],
  // The handler factory collects the events a route's operation raises (the outbox) and hands them to the route's publish.
  'shared/http': ['shared/core', 'shared/model', 'shared/dto', 'shared/auth', 'shared/realtime'],
  // The media function's entry sends its jobs' events; the greeter and the heartbeat are the socket's own.
  // The features routes ask shared/ml which machine-learning features there are (docs/machine-learning.md).
  functions: [
    'shared/core',
    'shared/model',
    'shared/dto',
    'shared/domain',
    'shared/ml',
    'shared/services',
    'shared/http',
    'shared/realtime',
  ],
  // The local server wires the local stand-ins of AWS services (media jobs run in its process);
  // the places index's builder writes the format shared/domain/places.ts reads (docs/places.md).
  infra: ['shared/core', 'shared/db', 'shared/model', 'shared/domain', 'shared/storage', 'functions', 'infra'],
  // The ingress (infra/ingress/, docs/large-uploads.md) is an HTTP edge like a route's handler (it
  // sends the events its uploads raise), which also writes the originals it streams (and their S3 tags).
  'infra/ingress': [
    'shared/core',
    'shared/model',
    'shared/dto',
    'shared/domain',
    'shared/services',
    'shared/http',
    'shared/realtime',
    'shared/storage',
  ],
};

/**
 * One core, no generation (README, "Layout"): services, access, repositories and domain rules take and return
 * model types, and each generation's DTO reads its request into them; a generation's DTO is built on
 * shared/dto/common/, never on the other generation's. These never-arrows are checked below.
 */
const never: readonly { from: RegExp; to: RegExp; rule: string }[] = [
  { from: /^shared\/(services|access|db|domain)\//, to: /^shared\/dto\//, rule: 'the core knows no generation' },
  { from: /^shared\/dto\/v3\//, to: /^shared\/dto\/v1\//, rule: 'v3 is not built on v1 (shared/dto/common/ is)' },
  { from: /^shared\/dto\/common\//, to: /^shared\/dto\/v[13]\//, rule: 'what both share knows neither' },
  // The route table is read by the local server and by the stack (infra/cdk/), so it never reads the stack.
  { from: /^infra\/routes\.ts$/, to: /^infra\/cdk\//, rule: 'the stack reads the route table, not the reverse' },
];

const neverBroken = (edges: Map<string, readonly string[]>): string[] =>
  [...edges].flatMap(([file, targets]) =>
    never.flatMap(({ from, to, rule }) =>
      from.test(file) ? targets.filter((target) => to.test(target)).map((target) => `${file} -> ${target} (${rule})`) : [],
    ),
  );

// The DynamoDB primitives only repositories use: a service reaching for one bypasses them.
const dbPrimitives = ['client', 'query', 'batch', 'keys', 'transact', 'get', 'codec', 'table', 'items'].map(
  (name) => `shared/db/${name}.ts`,
);

describe('the import graph of the product code', () => {
  it('reads every file and finds imports (the check below has something to check)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(graph.get('shared/services/album/album.service.ts')).toContain('shared/access/album-access.ts');
  });

  it('has no file-level import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('has no folder-level cycle between the layers of shared/', () => {
    const folders = new Map<string, Set<string>>();
    for (const [file, targets] of graph) {
      const from = layerOf(file);
      const set = folders.get(from) ?? new Set<string>();
      for (const target of targets) if (layerOf(target) !== from) set.add(layerOf(target));
      folders.set(from, set);
    }
    expect(cycles(new Map([...folders].map(([folder, targets]) => [folder, [...targets]])))).toEqual([]);
  });

  it('lets each layer import only the layers below it', () => {
    const wrong = [...graph].flatMap(([file, targets]) => {
      const from = layerOf(file);
      return targets
        .filter((target) => layerOf(target) !== from && !(allowed[from] ?? []).includes(layerOf(target)))
        .filter((target) => !exceptions.some((exception) => exception.file === file && exception.target === target))
        .map((target) => `${file} -> ${target}`);
    });
    expect(wrong).toEqual([]);
  });

  it('keeps the core free of generations and v3 free of v1 (the never-arrows)', () => {
    expect(neverBroken(graph)).toEqual([]);
  });

  it('finds a never-arrow where there is one (the check itself works)', () => {
    expect(
      neverBroken(
        new Map([
          ['shared/services/x.service.ts', ['shared/dto/v1/user.ts', 'shared/model/user.ts']],
          ['shared/access/x.ts', ['shared/dto/common/user.ts']],
          ['shared/db/x.repository.ts', ['shared/dto/validate.ts']],
          ['shared/dto/v3/x.ts', ['shared/dto/v1/x.ts', 'shared/dto/common/user.ts']],
          ['shared/dto/common/x.ts', ['shared/dto/v3/x.ts']],
          ['shared/dto/v1/x.ts', ['shared/dto/common/user.ts']],
        ]),
      ),
    ).toEqual([
      'shared/services/x.service.ts -> shared/dto/v1/user.ts (the core knows no generation)',
      'shared/access/x.ts -> shared/dto/common/user.ts (the core knows no generation)',
      'shared/db/x.repository.ts -> shared/dto/validate.ts (the core knows no generation)',
      'shared/dto/v3/x.ts -> shared/dto/v1/x.ts (v3 is not built on v1 (shared/dto/common/ is))',
      'shared/dto/common/x.ts -> shared/dto/v3/x.ts (what both share knows neither)',
    ]);
  });

  it('finds the route table importing the stack (the check itself works)', () => {
    expect(
      neverBroken(
        new Map([
          ['infra/routes.ts', ['infra/cdk/bundling.ts', 'shared/model/user.ts']],
          ['infra/cdk/bundling.ts', ['infra/routes.ts']],
          ['infra/local/server.ts', ['infra/routes.ts', 'infra/cdk/bundling.ts']],
        ]),
      ),
    ).toEqual(['infra/routes.ts -> infra/cdk/bundling.ts (the stack reads the route table, not the reverse)']);
  });

  it('keeps services off HTTP modules and DynamoDB primitives (repositories own every query)', () => {
    const wrong = [...graph]
      .filter(([file]) => file.startsWith('shared/services/') || file.startsWith('shared/access/') || file.startsWith('shared/auth/'))
      .flatMap(([file, targets]) =>
        targets
          .filter((target) => target.startsWith('shared/http/') || target.startsWith('shared/db/items/') || dbPrimitives.includes(target))
          .map((target) => `${file} -> ${target}`),
      );
    expect(wrong).toEqual([]);
    const sdk = files.filter(
      (file) => file.startsWith('shared/services/') && /from '@aws-sdk\//.test(readFileSync(join(root, file), 'utf8')),
    );
    expect(sdk).toEqual([]);
  });

  /**
   * An access decision refuses a caller for who they are, or chooses what they may have: the
   * answer `Not found or no <permission> access`, a 403 for a role or a credential, a resource's
   * owner compared with the caller to refuse, the caller's role read. Outside shared/access/ no
   * product file makes one; services ask shared/access/ (Immich's `requireAccess`), so a v3 route
   * over the same service cannot decide differently.
   */
  const decisions: readonly [string, RegExp][] = [
    ['builds the access answer', /noAccess\(|Not found or no /],
    ['refuses with 403', /new Forbidden\(/],
    ['compares an owner with the caller', /!==\s*auth\.user\.id|auth\.user\.id\s*!==/],
    ["reads the caller's role", /(?<!:\s*)auth\.user\.isAdmin/],
  ];
  // Rules about the target, not the caller: an admin account cannot be deleted (403 in Immich), and
  // there is one admin (the admin cannot make another).
  const targetRules = new Map([
    [
      'shared/services/user/user.service.ts',
      /new Forbidden\('Cannot delete admin user'\)|dto\.isAdmin === true && user\.id !== auth\.user\.id/g,
    ],
  ]);

  const accessDecisions = (path: string, text: string): string[] => {
    const code = text.replace(targetRules.get(path) ?? /$^/g, '');
    return decisions.filter(([, pattern]) => pattern.test(code)).map(([what]) => `${path} ${what}`);
  };

  it('makes every access decision in shared/access/', () => {
    const wrong = files
      .filter((file) => !file.startsWith('shared/access/') && file.startsWith('shared/'))
      .concat(files.filter((file) => file.startsWith('functions/')))
      .flatMap((file) => accessDecisions(file, readFileSync(join(root, file), 'utf8')));
    expect(wrong).toEqual([]);
  });

  it('finds an access decision where there is one (the check itself works)', () => {
    expect(accessDecisions('x.ts', 'if (album.ownerId !== auth.user.id) throw noAccess(Permission.AlbumRead);')).toEqual([
      'x.ts builds the access answer',
      'x.ts compares an owner with the caller',
    ]);
    expect(accessDecisions('x.ts', "if (!auth.user.isAdmin) throw new Forbidden('no');")).toHaveLength(2);
    expect(accessDecisions('x.ts', 'const key = { isAdmin: auth.user.isAdmin };')).toEqual([]);
    expect(accessDecisions('shared/services/user/user.service.ts', "throw new Forbidden('Cannot delete admin user')")).toEqual([]);
  });

  /**
   * Services return domain results (records and what the operation computed); each generation's
   * handler shapes them with its mapper from shared/dto/<generation>/. So a v3 route is a new
   * mapper over the same service, never a copy of it.
   */
  const responseShapes = (path: string, text: string): string[] => {
    const found: string[] = [];
    for (const match of text.matchAll(/^(?:export\s+)?(?:interface|type)\s+(\w*(?:ResponseDto|Response|Dto))\b/gm))
      found.push(`${path} declares ${match[1]}`);
    for (const match of text.matchAll(/^(?:export\s+)?(?:const|function)\s+(map[A-Z]\w*)/gm))
      found.push(`${path} declares the mapper ${match[1]}`);
    for (const match of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'[./]*\/?dto\/[^']*'/g)) {
      for (const name of (match[1] ?? '').split(',').map((each) => each.replace(/^\s*type\s+/, '').trim())) {
        if (/Response(Dto)?$|^map[A-Z]/.test(name)) found.push(`${path} imports ${name}`);
      }
    }
    return found;
  };
  it('lets services raise realtime events and nothing more of shared/realtime (the edge shapes and sends them)', () => {
    const wrong = [...graph]
      .filter(([file]) => file.startsWith('shared/services/'))
      .flatMap(([file, targets]) =>
        targets
          .filter((target) => layerOf(target) === 'shared/realtime' && target !== 'shared/realtime/outbox.ts')
          .map((target) => `${file} -> ${target}`),
      );
    expect(wrong).toEqual([]);
  });

  it('keeps response types and mappers out of services: they return domain results', () => {
    const wrong = files
      .filter((file) => file.startsWith('shared/services/'))
      .flatMap((file) => responseShapes(file, readFileSync(join(root, file), 'utf8')));
    expect(wrong).toEqual([]);
  });

  it('finds a response type or mapper in a service where there is one (the check itself works)', () => {
    expect(
      responseShapes(
        'x.ts',
        "import { type AlbumResponseDto, mapAlbum } from '../dto/v1/album.ts';\nexport interface PeopleResponseDto {}\nconst mapLink = () => 1;",
      ),
    ).toEqual([
      'x.ts declares PeopleResponseDto',
      'x.ts declares the mapper mapLink',
      'x.ts imports AlbumResponseDto',
      'x.ts imports mapAlbum',
    ]);
    expect(responseShapes('x.ts', "import type { CreateAlbumInput } from '../dto/v1/album.ts';")).toEqual([]);
  });

  it('has no unchecked double cast in product code: what is read is validated instead', () => {
    expect(files.filter((file) => readFileSync(join(root, file), 'utf8').includes('as unknown as'))).toEqual([]);
  });

  it('finds a cycle when there is one (the detector itself works)', () => {
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
  });
});

/**
 * A handler speaks its route's generation (infra/routes.ts, `generation`): it imports its own
 * generation's DTO folder and shared/dto/common/, never the other's. A v1.100 row whose path
 * Immich v3.2 kept for an operation of its own (`v3`) answers both generations' clients, so its
 * handler may import both. A file that is the handler of no route (the media, nightly and realtime
 * functions) is not a route's and is not checked here.
 */
type Generation = 'v1' | 'v3';
const generationsOf = (rows: readonly { entry: string; generation?: 'v3'; v3?: string }[]): Map<string, Set<Generation>> => {
  const found = new Map<string, Set<Generation>>();
  for (const row of rows) {
    const set = found.get(row.entry) ?? new Set<Generation>();
    set.add(row.generation ?? 'v1');
    if (row.v3) set.add('v3');
    found.set(row.entry, set);
  }
  return found;
};

/** v1.100's POST /asset/jobs reads its body with v3's `AssetJobsDto` (v1.100's asset jobs and `refresh-faces`), on purpose. */
const readsOtherGeneration = new Set(['functions/asset/run-asset-jobs.ts -> shared/dto/v3/queue.ts']);

const otherGenerationImports = (edges: Map<string, readonly string[]>, generations: Map<string, Set<Generation>>): string[] =>
  [...edges].flatMap(([file, targets]) => {
    const speaks = generations.get(file);
    if (!speaks) return [];
    return targets
      .filter((target) => {
        const generation = /^shared\/dto\/(v1|v3)\//.exec(target)?.[1] as Generation | undefined;
        return generation !== undefined && !speaks.has(generation);
      })
      .map((target) => `${file} -> ${target}`)
      .filter((arrow) => !readsOtherGeneration.has(arrow));
  });

/** Every project file `file` reaches through its imports (itself included). */
const reached = (file: string): Set<string> => {
  const seen = new Set<string>();
  const visit = (node: string) => {
    if (seen.has(node)) return;
    seen.add(node);
    for (const next of graph.get(node) ?? []) visit(next);
  };
  visit(file);
  return seen;
};

describe("the deployment's OAuth secret (OAUTH_SECRET_ARN)", () => {
  it('is read by exactly the routes whose row says `oauthSecret`, so the stack grants it to those alone', () => {
    const reading = routes
      .filter((route) => reached(route.entry).has('shared/storage/oauth-settings.ts'))
      .map((route) => route.operationId);
    expect(reading.sort()).toEqual(
      routes
        .filter((route) => route.oauthSecret)
        .map((route) => route.operationId)
        .sort(),
    );
    expect(reading).toContain('finishOAuth');
    expect(reading).not.toContain('getMyUserInfo');
  });
});

describe("a handler and its route's generation", () => {
  it("imports its own generation's DTO and shared/dto/common/, never the other generation's", () => {
    const generations = generationsOf([...routes, ...localRoutes, ...webRoutes]);
    expect(generations.get('functions/v3/album/get-album-statistics.ts')).toEqual(new Set(['v3']));
    expect(generations.get('functions/search/search-metadata.ts')).toEqual(new Set(['v1', 'v3']));
    expect(otherGenerationImports(graph, generations)).toEqual([]);
  });

  it('finds a handler importing the other generation where there is one (the check itself works)', () => {
    const generations = generationsOf([
      { entry: 'functions/v3/x/get-x.ts', generation: 'v3' },
      { entry: 'functions/x/get-x.ts' },
      { entry: 'functions/x/both.ts', v3: 'getBoth' },
    ]);
    expect(
      otherGenerationImports(
        new Map([
          ['functions/v3/x/get-x.ts', ['shared/dto/v1/x.response.ts', 'shared/dto/v3/x.ts', 'shared/dto/common/x.ts']],
          ['functions/x/get-x.ts', ['shared/dto/v3/x.ts', 'shared/dto/v1/x.ts']],
          ['functions/x/both.ts', ['shared/dto/v1/x.ts', 'shared/dto/v3/x.ts']],
          ['functions/media/x.ts', ['shared/dto/v1/x.ts', 'shared/dto/v3/x.ts']],
        ]),
        generations,
      ),
    ).toEqual(['functions/v3/x/get-x.ts -> shared/dto/v1/x.response.ts', 'functions/x/get-x.ts -> shared/dto/v3/x.ts']);
  });
});

/**
 * One convention for the expected outcomes of a write (docs/architecture.md, "Expected outcomes"):
 * a repository answers with an Outcome (shared/db/outcome.ts) whose reasons its return type names,
 * never an error class of its own for a condition that failed as expected; a service reads the
 * outcome and never catches a repository's error by its class. Exceptions are for the unexpected
 * only: the error classes allowed in shared/db are those.
 */
describe('expected outcomes of writes', () => {
  // Unexpected: an item that breaks its schema is a bug or corruption, never an answer.
  const unexpectedErrors = new Set(['CorruptItemError']);
  const allowed = (name: string) => unexpectedErrors.has(name);

  const outcomeBreaches = (path: string, text: string): string[] => {
    const found: string[] = [];
    if (path.startsWith('shared/db/'))
      for (const match of text.matchAll(/class\s+(\w+)\s+extends\s+Error\b/g))
        if (!allowed(match[1] ?? '')) found.push(`${path} declares ${match[1]}`);
    if (path.startsWith('shared/services/')) {
      const fromDb = new Set(
        [...text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(?:\.\.\/)+db\/[^']*'/g)].flatMap((match) =>
          (match[1] ?? '').split(',').map(
            (name) =>
              name
                .replace(/^\s*type\s+/, '')
                .trim()
                .split(/\s+as\s+/)
                .pop() ?? '',
          ),
        ),
      );
      for (const match of text.matchAll(/instanceof\s+(\w+)/g))
        if (fromDb.has(match[1] ?? '') && !allowed(match[1] ?? '')) found.push(`${path} catches ${match[1]} of shared/db`);
    }
    return found;
  };

  it('has repositories answer expected outcomes with an Outcome, and services never catch their errors by class', () => {
    const wrong = files
      .filter((file) => file.startsWith('shared/db/') || file.startsWith('shared/services/'))
      .flatMap((file) => outcomeBreaches(file, readFileSync(join(root, file), 'utf8')));
    expect(wrong).toEqual([]);
  });

  it('finds an error class for an expected outcome, or a service catching one, where there is one (the check itself works)', () => {
    expect(outcomeBreaches('shared/db/x.repository.ts', 'export class AlbumGoneError extends Error {}')).toEqual([
      'shared/db/x.repository.ts declares AlbumGoneError',
    ]);
    expect(outcomeBreaches('shared/db/codec.ts', 'export class CorruptItemError extends Error {')).toEqual([]);
    expect(
      outcomeBreaches(
        'shared/services/x.service.ts',
        "import { getAlbum, AlbumGoneError as Gone } from '../db/album.repository.ts';\nif (error instanceof Gone) throw new Invalid('x');",
      ),
    ).toEqual(['shared/services/x.service.ts catches Gone of shared/db']);
    expect(
      outcomeBreaches(
        'shared/services/media/x.ts',
        "import { SomeError } from '../../db/x.repository.ts';\nimport { Invalid } from '../../core/errors.ts';\nif (error instanceof Invalid) {} else if (error instanceof SomeError) {}",
      ),
    ).toEqual(['shared/services/media/x.ts catches SomeError of shared/db']);
  });
});

/**
 * A service stays small enough to read in one sitting (docs/architecture.md, "Names and rooms"):
 * past 400 lines, a feature of several files gets its folder, or its inputs and rules move to
 * shared/model/ and shared/domain/.
 */
describe('the size of a service', () => {
  it('is at most 400 lines, in shared/services/ and its folders', () => {
    const long = files
      .filter((file) => file.startsWith('shared/services/'))
      .map((file) => ({ file, lines: readFileSync(join(root, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > 400)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(files.filter((file) => file.startsWith('shared/services/media/')).length).toBeGreaterThan(0);
    expect(long).toEqual([]);
  });
});
