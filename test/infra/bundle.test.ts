import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions, lazyModuleFiles, lazyModules, realtimeClientFiles } from '#infra/cdk/bundling.ts';
import { type LazyGroup, routes, webRoutes } from '#infra/routes.ts';
import { invoke } from '../support/invoke.ts';
import { makeJpeg, makeSidecar } from '../support/photos.ts';
import { cliFields, multipart } from '../support/uploads.ts';

const out = mkdtempSync(join(tmpdir(), 'bundles-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/**
 * Bundles a route exactly as the stack does (aliases for node:http(s) and credentials included),
 * with what the stack copies beside it: the lazily loaded modules of the groups its row names
 * (nothing else in `out` resolves a bare module name: the folder is outside the project).
 */
const bundled = async (operationId: string) => {
  const route = routes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(operationId);
  const file = join(out, `${operationId}.mjs`);
  await build(esbuildOptions(route.entry, file));
  for (const { from, to } of lazyModuleFiles(route.lazy ?? [])) {
    mkdirSync(dirname(join(out, to)), { recursive: true });
    copyFileSync(from, join(out, to));
  }
  return ((await import(pathToFileURL(file).href)) as { handler: Parameters<typeof invoke>[0] }).handler;
};

const credentials = { email: 'bundle@immich.cloud', password: 'password', name: 'Bundle' };

describe('deployed bundles', () => {
  it('load a lazily loaded module only where their row says the stack copies it beside them', async () => {
    const all = [...routes, ...webRoutes];
    // One build of every entry (the stack's options, not written): each output names its entry.
    const { outfile: _, ...options } = esbuildOptions(all[0]?.entry ?? '', join(out, 'probe.mjs'));
    const root = join(import.meta.dirname, '..', '..');
    const result = await build({
      ...options,
      entryPoints: all.map((route) => join(root, route.entry)),
      outdir: join(out, 'probe'),
      write: false,
      metafile: true,
    });
    const { metafile } = result;
    // A module is loaded by import() (an external import to esbuild) or by name through createRequire;
    // a data folder (`.places`) by its name in a path.
    const text = (output: string) =>
      result.outputFiles.find((file) => file.path.endsWith(output.replace(/^.*probe\//, '/probe/')))?.text ?? '';
    const loading = (group: LazyGroup): string[] => {
      const names = Object.keys(lazyModules[group]);
      return Object.entries(metafile.outputs)
        .filter(
          ([path, output]) =>
            output.imports.some((each) => each.external && names.some((name) => each.path === name || each.path.startsWith(`${name}/`))) ||
            names.some((name) => text(path).includes(name.startsWith('.') ? `"${name}"` : `("${name}")`)),
        )
        .map(([, output]) => output)
        .map((output) => all.find((route) => output.entryPoint === route.entry)?.operationId ?? String(output.entryPoint))
        .sort();
    };
    const naming = (group: LazyGroup): string[] =>
      routes
        .filter((route) => route.lazy?.includes(group))
        .map((route) => route.operationId)
        .sort();
    for (const group of Object.keys(lazyModules) as LazyGroup[]) expect(loading(group), group).toEqual(naming(group));
    expect(loading('metadata')).toContain('uploadFile');
    expect(loading('templates')).toEqual(['updateAdminConfig', 'updateConfig']);
    expect(loading('cron')).toEqual(['updateAdminConfig', 'updateConfig']);
  });

  it("leave the link secret's Secrets Manager client out of routes no link visitor calls", async () => {
    const clientOf = async (entry: string) => {
      const { metafile } = await build({ ...esbuildOptions(entry, join(out, 'probe.mjs')), write: false, metafile: true });
      return Object.keys(metafile.inputs).some((input) => input.includes('@aws-sdk/client-secrets-manager'));
    };
    expect(await clientOf('functions/user/get-my-user-info.ts')).toBe(false);
    expect(await clientOf('functions/asset/get-asset-info.ts')).toBe(true);
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
          copyFileSync(from, join(dir, to));
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
      await build(esbuildOptions('functions/system-config/update-config.ts', join(alone, 'updateConfig.mjs')));
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
