import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getConfigHandler } from '#functions/system-config/get-config.ts';
import { handler as getConfigDefaults } from '#functions/system-config/get-config-defaults.ts';
import { handler as getStorageTemplateOptions } from '#functions/system-config/get-storage-template-options.ts';
import { handler as updateConfigHandler } from '#functions/system-config/update-config.ts';
import { handler as getAdminConfig } from '#functions/v3/config/get-admin-config.ts';
import { handler as getAdminConfigDefaults } from '#functions/v3/config/get-admin-config-defaults.ts';
import { handler as getPublicConfig } from '#functions/v3/config/get-public-config.ts';
import { handler as getPublicConfigDefaults } from '#functions/v3/config/get-public-config-defaults.ts';
import { handler as getUserConfig } from '#functions/v3/config/get-user-config.ts';
import { handler as getUserConfigDefaults } from '#functions/v3/config/get-user-config-defaults.ts';
import { handler as updateAdminConfig } from '#functions/v3/config/update-admin-config.ts';
import { handler as getServerConfigV3 } from '#functions/v3/server/get-server-config.ts';
import { handler as searchUsers } from '#functions/v3/user/search-users.ts';
import * as configRepo from '#shared/db/config.repository.ts';
import { clearConfigCache } from '#shared/services/config.reader.ts';
import { bearer, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { leafPathsOf } from '../support/sdk-types.ts';

/**
 * GET and PUT /system-config are both generations' paths (docs/immich-compatibility.md, "System
 * configuration"): one configuration, answered with every setting of both, written by either
 * generation's body.
 */
let accounts: Awaited<ReturnType<typeof setupAccounts>>;
let headers: Record<string, string>;
beforeAll(async () => {
  accounts = await setupAccounts();
  headers = bearer(accounts.admin.accessToken);
});

type Config = Record<string, any>;
const getConfig = async (): Promise<Config> => (await invoke(getConfigHandler, { path: '/api/system-config', headers })).body;
const put = (body: unknown) => invoke(updateConfigHandler, { method: 'PUT', path: '/api/system-config', headers, body });
const valueAt = (config: Config, path: string): unknown => path.split('.').reduce<Config | undefined>((node, key) => node?.[key], config);
/** A copy with each dot path set (`undefined` removes the key). */
const withValues = (config: Config, values: Record<string, unknown>): Config => {
  const copy = structuredClone(config);
  for (const [path, value] of Object.entries(values)) {
    const parts = path.split('.');
    const node = parts.slice(0, -1).reduce<Config>((at, key) => at[key], copy);
    if (value === undefined) delete node[parts.at(-1) as string];
    else node[parts.at(-1) as string] = value;
  }
  return copy;
};
/** Only the sections (or fields) a generation's SDK has: what its clients send back. */
const shapedAs = (config: Config, paths: string[]): Config => {
  const shaped: Config = {};
  for (const path of paths.map((each) => each.replace(/\?$/, ''))) {
    const value = valueAt(config, path);
    if (value === undefined) continue;
    const parts = path.split('.');
    const node = parts.slice(0, -1).reduce<Config>((at, key) => (at[key] ??= {}), shaped);
    node[parts.at(-1) as string] = value;
  }
  return shaped;
};
const v3Paths = leafPathsOf('@immich/sdk-v3', 'AdminConfigDto');
const v1Paths = leafPathsOf('@immich/sdk', 'SystemConfigDto');

describe('a v1.100 client on the paths both generations share', () => {
  const browser = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
  const as = (agent: string) => ({ ...headers, accept: 'application/json', 'user-agent': agent });
  const read = async (agent: string, path = '/api/system-config') =>
    (await invoke(path.endsWith('defaults') ? getConfigDefaults : getConfigHandler, { path, headers: as(agent) })).body as Config;
  /** Every leaf path of an answer (arrays are leaves). */
  const leavesOf = (value: Config, prefix = ''): string[] =>
    Object.entries(value).flatMap(([key, child]) =>
      child && typeof child === 'object' && !Array.isArray(child) ? leavesOf(child, `${prefix}${key}.`) : [`${prefix}${key}`],
    );
  const v1Required = v1Paths.filter((path) => !path.endsWith('?')).sort();

  it("answers v1.100's web app and mobile app v1.100's SystemConfigDto exactly, every other client every setting of both", async () => {
    const served = process.env.WEB_GENERATION;
    try {
      process.env.WEB_GENERATION = 'v1';
      for (const agent of [browser, 'Dart/3.3 (dart:io)']) {
        for (const path of ['/api/system-config', '/api/system-config/defaults']) {
          const answer = await read(agent, path);
          expect(leavesOf(answer).sort(), `${agent} ${path}`).toEqual(v1Required);
          expect(answer.oauth.defaultStorageQuota, `${agent} ${path}`).toBe(0);
        }
      }
      const full = await getConfig();
      expect(full.oauth.defaultStorageQuota).toBeNull();
      expect(await read(browser)).toEqual(withValues(shapedAs(full, v1Paths), { 'oauth.defaultStorageQuota': 0 }));
      // The 3.x apps, a browser of the v3 web app, and either SDK (nothing tells them apart): both generations' settings.
      expect(await read('immich-ios/3.1.0')).toEqual(full);
      expect(await read('node')).toEqual(full);
      process.env.WEB_GENERATION = 'v3';
      expect(await read(browser)).toEqual(full);
    } finally {
      if (served === undefined) delete process.env.WEB_GENERATION;
      else process.env.WEB_GENERATION = served;
    }
  });

  it("reads a v1.100 body's default storage quota through v1.100's view: 0 is no quota, the value shown keeps the setting", async () => {
    const quotaAfter = async (body: Config, agent?: string) => {
      const reply = await invoke(updateConfigHandler, {
        method: 'PUT',
        path: '/api/system-config',
        headers: agent ? as(agent) : headers,
        body,
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return { answered: reply.body.oauth.defaultStorageQuota, stored: (await getConfig()).oauth.defaultStorageQuota };
    };
    const v1Body = async (quota: unknown) => withValues(shapedAs(await getConfig(), v1Paths), { 'oauth.defaultStorageQuota': quota });
    // Shown 0 for v3's null (no quota), sent back unchanged: still none.
    expect(await quotaAfter(await v1Body(0))).toEqual({ answered: 0, stored: null });
    expect(await quotaAfter(await v1Body(5))).toEqual({ answered: 5, stored: 5 });
    // 0 from a v1.100 client is v1.100's "no quota".
    expect(await quotaAfter(await v1Body(0))).toEqual({ answered: 0, stored: null });
    // A v3 body's 0 is v3's zero quota, which a v1.100 client shown 0 and sending it back keeps.
    expect(await quotaAfter(withValues(await getConfig(), { 'oauth.defaultStorageQuota': 0 }))).toEqual({ answered: 0, stored: 0 });
    expect(await quotaAfter(await v1Body(0), 'Dart/3.3 (dart:io)')).toEqual({ answered: 0, stored: 0 });
    // Back to v3's default.
    expect(await quotaAfter(withValues(await getConfig(), { 'oauth.defaultStorageQuota': null }))).toEqual({
      answered: null,
      stored: null,
    });
  });
});

describe('GET /system-config through both SDKs', () => {
  it("answers every setting of @immich/sdk 3.2.2's AdminConfigDto and of 1.100.0's SystemConfigDto", async () => {
    const config = await getConfig();
    const defaults = (await invoke(getConfigDefaults, { path: '/api/system-config/defaults', headers })).body;
    // The SDKs' types were read (146 and 80 settings).
    expect(Math.min(v3Paths.length, v1Paths.length)).toBeGreaterThan(60);
    for (const answer of [config, defaults]) {
      expect(v3Paths.filter((path) => !path.endsWith('?') && valueAt(answer, path) === undefined)).toEqual([]);
      expect(v1Paths.filter((path) => !path.endsWith('?') && valueAt(answer, path) === undefined)).toEqual([]);
    }
    expect(config).toMatchObject({
      image: { thumbnail: { format: 'webp', size: 250 }, preview: { format: 'jpeg', size: 1440, quality: 80 }, colorspace: 'p3' },
      thumbnail: { webpSize: 250, jpegSize: 1440, quality: 80, colorspace: 'p3' },
      machineLearning: { urls: ['http://immich-machine-learning:3003'], url: 'http://immich-machine-learning:3003' },
      nightlyTasks: { startTime: '00:00' },
      newVersionCheck: { channel: 'stable' },
      server: { publicUsers: true },
    });
  });

  it("lists v3.2's storage-template presets for both, and accepts each of them", async () => {
    const { body } = await invoke(getStorageTemplateOptions, { path: '/api/system-config/storage-template-options', headers });
    expect(body.presetOptions).toEqual(expect.arrayContaining(['{{make}}/{{model}}/{{lensModel}}/{{filename}}']));
    const before = await getConfig();
    for (const template of body.presetOptions) {
      expect((await put(withValues(before, { 'storageTemplate.template': template }))).status).toBe(200);
    }
    await put(before);
  });
});

describe('PUT /system-config with either generation’s body', () => {
  it("takes v3's web app's body (everything GET answered, changed), and v1.100's view follows", async () => {
    const changed = withValues(await getConfig(), {
      'image.preview.size': 1080,
      'image.thumbnail.quality': 60,
      'nightlyTasks.startTime': '02:30',
      'machineLearning.urls': ['http://ml-a:3003', 'http://ml-b:3003'],
      'ffmpeg.accelDecode': false,
      'job.ocr.concurrency': 2,
    });
    const reply = await put(changed);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      image: { preview: { size: 1080, quality: 80 }, thumbnail: { quality: 60 } },
      thumbnail: { jpegSize: 1080, quality: 80 },
      nightlyTasks: { startTime: '02:30' },
      machineLearning: { urls: ['http://ml-a:3003', 'http://ml-b:3003'], url: 'http://ml-a:3003' },
      ffmpeg: { accelDecode: false },
      job: { ocr: { concurrency: 2 } },
    });
    expect(await getConfig()).toEqual(reply.body);
  });

  it("takes a v1.100 body (no v3 setting in it): v3's settings keep their values, and its view writes v3's", async () => {
    const before = await getConfig();
    const v1Body = withValues(shapedAs(before, v1Paths), {
      'thumbnail.quality': 90,
      'thumbnail.webpSize': 300,
      'machineLearning.url': 'http://ml-c:3003',
    });
    expect(v1Body).not.toHaveProperty('image');
    const reply = await put(v1Body);
    expect(reply.status).toBe(200);
    const after = withValues(before, {
      'thumbnail.quality': 90,
      'thumbnail.webpSize': 300,
      'image.preview.quality': 90,
      'image.thumbnail.quality': 90,
      'image.thumbnail.size': 300,
      'machineLearning.url': 'http://ml-c:3003',
      'machineLearning.urls': ['http://ml-c:3003', 'http://ml-b:3003'],
    });
    // A v1.100 body is a v1.100 client's: answered in v1.100's SystemConfigDto ("Paths both generations share").
    expect(reply.body).toEqual(withValues(shapedAs(after, v1Paths), { 'oauth.defaultStorageQuota': 0 }));
    expect(await getConfig()).toEqual(after);
  });

  it("takes a v3 body built from the 3.2.2 SDK's type alone: v1.100's own settings keep their values", async () => {
    const before = withValues(await getConfig(), { 'ffmpeg.npl': 100 });
    expect((await put(before)).status).toBe(200);
    const v3Body = withValues(shapedAs(before, v3Paths), { 'server.publicUsers': false });
    expect(v3Body).not.toHaveProperty('thumbnail');
    expect(v3Body.ffmpeg).not.toHaveProperty('npl');
    const reply = await put(v3Body);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(withValues(before, { 'server.publicUsers': false }));
    await put(withValues(reply.body, { 'server.publicUsers': true, 'ffmpeg.npl': 0 }));
  });

  it("lets a change to v3's setting win over the unchanged v1.100 view sent beside it, and the reverse", async () => {
    const before = await getConfig();
    const v3Changed = await put(withValues(before, { 'image.colorspace': 'srgb' }));
    expect(v3Changed.body).toMatchObject({ image: { colorspace: 'srgb' }, thumbnail: { colorspace: 'srgb' } });
    const v1Changed = await put(withValues(v3Changed.body, { 'thumbnail.colorspace': 'p3' }));
    expect(v1Changed.body).toMatchObject({ image: { colorspace: 'p3' }, thumbnail: { colorspace: 'p3' } });
    // Both changed at once: v3's setting is the one kept.
    const both = await put(withValues(v1Changed.body, { 'image.preview.size': 720, 'thumbnail.jpegSize': 2000 }));
    expect(both.body).toMatchObject({ image: { preview: { size: 720 } }, thumbnail: { jpegSize: 720 } });
  });

  // v3's settings, each with a value v3 refuses: the shared path answers v1.100's error shape.
  const cases: [string, unknown, string][] = [
    ['image.preview.quality', 0, 'image.preview.quality must not be less than 1'],
    ['image.thumbnail.format', 'avif', 'image.thumbnail.format must be one of the following values: jpeg, webp'],
    ['image.fullsize.enabled', 'yes', 'image.fullsize.enabled must be a boolean value'],
    ['nightlyTasks.startTime', '25:00', 'nightlyTasks.startTime must be a time in HH:MM format'],
    ['backup.database.cronExpression', 'nope', 'backup.database.cronExpression must be a valid cron expression'],
    ['backup.database.keepLastAmount', 0, 'backup.database.keepLastAmount must not be less than 1'],
    ['integrityChecks.checksumFiles.percentageLimit', 2, 'integrityChecks.checksumFiles.percentageLimit must not be greater than 1'],
    ['machineLearning.urls', [], 'machineLearning.urls must contain at least 1 elements'],
    ['machineLearning.duplicateDetection.maxDistance', 0.5, 'machineLearning.duplicateDetection.maxDistance must not be greater than 0.1'],
    ['machineLearning.ocr.minDetectionScore', 0, 'machineLearning.ocr.minDetectionScore must not be less than 0.1'],
    ['newVersionCheck.channel', 'beta', 'newVersionCheck.channel must be one of the following values: stable, releaseCandidate'],
    [
      'oauth.tokenEndpointAuthMethod',
      'private_key_jwt',
      'oauth.tokenEndpointAuthMethod must be one of the following values: client_secret_post, client_secret_basic',
    ],
    ['oauth.endSessionEndpoint', 'not a url', 'oauth.endSessionEndpoint must be an empty string or a valid URL'],
    ['notifications.smtp.transport.port', 70_000, 'notifications.smtp.transport.port must not be greater than 65535'],
    [
      'ffmpeg.realtime.resolutions',
      [360],
      'ffmpeg.realtime.each value in resolutions must be one of the following values: 480, 720, 1080, 1440, 2160',
    ],
    ['server.publicUsers', 'sometimes', 'server.publicUsers must be a boolean value'],
    ['templates.email', null, 'templates.email must be an object'],
  ];

  it.each(cases)('refuses %s = %j, changing nothing', async (path, value, message) => {
    const before = await getConfig();
    const reply = await put(withValues(before, { [path]: value }));
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'Bad Request', statusCode: 400 });
    expect(reply.body.message).toContain(message);
    expect(await getConfig()).toEqual(before);
  });

  it('reads a quality stored under v1.100’s name before v3’s settings, and stores it under v3’s on the next change', async () => {
    const { version } = await configRepo.getStoredConfig();
    await configRepo.replaceStoredConfig({ 'thumbnail.quality': 70, 'thumbnail.webpSize': 200 }, version);
    const config = await getConfig();
    expect(config).toMatchObject({
      thumbnail: { quality: 70, webpSize: 200 },
      image: { thumbnail: { quality: 70, size: 200 }, preview: { quality: 70 } },
    });
    expect((await put(withValues(config, { 'trash.days': 20 }))).status).toBe(200);
    expect((await configRepo.getStoredConfig()).overrides).toEqual({
      'image.thumbnail.quality': 70,
      'image.thumbnail.size': 200,
      'image.preview.quality': 70,
      'trash.days': 20,
    });
    expect(await getConfig()).toEqual(withValues(config, { 'trash.days': 20 }));
  });
});

describe("the configuration's `server.publicUsers`", () => {
  it('lets a user list everyone when on, only themselves when off; an admin always everyone', async () => {
    const list = async (token: string) =>
      (await invoke(searchUsers, { path: '/api/users', headers: bearer(token) })).body.map((user: { email: string }) => user.email);
    const everyone = await list(accounts.user1.accessToken);
    expect(everyone).toEqual(expect.arrayContaining([accounts.user1.email, accounts.user2.email]));

    expect((await put(withValues(await getConfig(), { 'server.publicUsers': false }))).status).toBe(200);
    clearConfigCache();
    expect(await list(accounts.user1.accessToken)).toEqual([accounts.user1.email]);
    expect(await list(accounts.admin.accessToken)).toEqual(everyone);
    expect((await invoke(getServerConfigV3, { path: '/api/server/config' })).body.publicUsers).toBe(false);

    expect((await put(withValues(await getConfig(), { 'server.publicUsers': true }))).status).toBe(200);
    clearConfigCache();
    expect(await list(accounts.user1.accessToken)).toEqual(everyone);
  });
});

/** Every leaf of an answer as a dot path (lists are leaves). */
const leavesOf = (value: unknown, prefix = ''): string[] =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.entries(value).flatMap(([key, child]) => leavesOf(child, prefix ? `${prefix}.${key}` : key))
    : [prefix];
/** An SDK type's paths as the answer must have them: the required ones, and the optional ones it may have. */
const expectShape = (answer: unknown, paths: string[]) => {
  const leaves = leavesOf(answer);
  expect(paths.filter((path) => !path.endsWith('?') && !leaves.includes(path))).toEqual([]);
  expect(leaves.filter((leaf) => !paths.includes(leaf) && !paths.includes(`${leaf}?`))).toEqual([]);
};

describe("v3.2's /admin/config, /config and /public/config: the same configuration in v3's shapes", () => {
  it("answers the admin configuration in @immich/sdk 3.2.2's AdminConfigDto exactly, to an admin only", async () => {
    const config = (await invoke(getAdminConfig, { path: '/api/admin/config', headers })).body;
    expectShape(config, v3Paths);
    const union = await getConfig();
    expect(config.image).toEqual(union.image);
    expectShape((await invoke(getAdminConfigDefaults, { path: '/api/admin/config/defaults', headers })).body, v3Paths);
    expect(await invoke(getAdminConfig, { path: '/api/admin/config', headers: bearer(accounts.user1.accessToken) })).toMatchObject({
      status: 403,
      body: { message: 'Forbidden resource' },
    });
  });

  it('updates it from a v3 body, read back through /system-config and its v1.100 view', async () => {
    const config = (await invoke(getAdminConfig, { path: '/api/admin/config', headers })).body;
    const put3 = (body: unknown) => invoke(updateAdminConfig, { method: 'PUT', path: '/api/admin/config', headers, body });
    const reply = await put3(withValues(config, { 'image.thumbnail.size': 320, 'trash.days': 9 }));
    expect(reply.status).toBe(200);
    expectShape(reply.body, v3Paths);
    expect(await getConfig()).toMatchObject({ image: { thumbnail: { size: 320 } }, thumbnail: { webpSize: 320 }, trash: { days: 9 } });
    // v3's own error shape on v3's own path.
    const bad = await put3(withValues(reply.body, { 'nightlyTasks.startTime': 'noon' }));
    expect(bad).toMatchObject({
      status: 400,
      body: {
        message: 'Validation failed',
        errors: [{ path: ['nightlyTasks', 'startTime'], message: 'startTime must be a time in HH:MM format' }],
      },
    });
    expect(bad.body).not.toHaveProperty('statusCode');
  });

  it("answers a user the settings v3's apps read (UserConfigDto), and anyone the sign-in page's (PublicConfigDto)", async () => {
    const union = await getConfig();
    const userConfig = (await invoke(getUserConfig, { path: '/api/config', headers: bearer(accounts.user1.accessToken) })).body;
    expectShape(userConfig, leafPathsOf('@immich/sdk-v3', 'UserConfigDto'));
    expect(userConfig).toMatchObject({ image: { thumbnail: { size: union.image.thumbnail.size } }, trash: union.trash, map: union.map });
    const defaults = (await invoke(getUserConfigDefaults, { path: '/api/config/defaults', headers: bearer(accounts.user1.accessToken) }))
      .body;
    expect(defaults.trash).toEqual({ enabled: true, days: 30 });
    expect((await invoke(getUserConfig, { path: '/api/config' })).status).toBe(401);

    const publicConfig = (await invoke(getPublicConfig, { path: '/api/public/config' })).body;
    expectShape(publicConfig, leafPathsOf('@immich/sdk-v3', 'PublicConfigDto'));
    expect(publicConfig).toEqual({
      oauth: { autoLaunch: false, buttonText: 'Login with OAuth', enabled: false },
      passwordLogin: { enabled: union.passwordLogin.enabled },
      server: { loginPageMessage: union.server.loginPageMessage },
      theme: { customCss: union.theme.customCss },
    });
    expect((await invoke(getPublicConfigDefaults, { path: '/api/public/config/defaults' })).body).toEqual(publicConfig);
  });
});
