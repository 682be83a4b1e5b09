import { beforeAll, describe, expect, it } from 'vitest';
import { handler as loginHandler } from '#functions/auth/login.ts';
import { handler as getConfigHandler } from '#functions/system-config/get-config.ts';
import { handler as getConfigDefaults } from '#functions/system-config/get-config-defaults.ts';
import { handler as getStorageTemplateOptions } from '#functions/system-config/get-storage-template-options.ts';
import { handler as updateConfigHandler } from '#functions/system-config/update-config.ts';
import * as configRepo from '#shared/db/config.repository.ts';
import { configDefaults } from '#shared/domain/system-config.ts';
import { bearer, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';

let headers: Record<string, string>;
beforeAll(async () => {
  headers = bearer((await setupAccounts()).admin.accessToken);
});

type Config = typeof configDefaults;
const getConfig = async (): Promise<Config> => (await invoke(getConfigHandler, { path: '/api/system-config', headers })).body;
const put = (body: unknown) => invoke(updateConfigHandler, { method: 'PUT', path: '/api/system-config', headers, body });

/** The current config with one dot path set to a value (`undefined` removes the key). */
const withValue = (config: Config, path: string, value: unknown): Config => {
  const copy = structuredClone(config) as unknown as Record<string, unknown>;
  const parts = path.split('.');
  let node = copy;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  if (value === undefined) delete node[parts.at(-1) as string];
  else node[parts.at(-1) as string] = value;
  return copy as unknown as Config;
};

describe('GET /system-config and /system-config/defaults', () => {
  it("starts from Immich v1.100's defaults", async () => {
    expect(await getConfig()).toEqual(configDefaults);
    expect((await invoke(getConfigDefaults, { path: '/api/system-config/defaults', headers })).body).toEqual(configDefaults);
    expect(configDefaults).toMatchObject({
      ffmpeg: { crf: 23, preset: 'ultrafast' },
      library: { scan: { cronExpression: '0 0 * * *' } },
      trash: { days: 30 },
    });
  });

  it('lists the storage template options', async () => {
    const { body } = await invoke(getStorageTemplateOptions, { path: '/api/system-config/storage-template-options', headers });
    expect(body).toMatchObject({ yearOptions: ['y', 'yy'], secondOptions: ['s', 'ss', 'SSS'] });
    expect(body.presetOptions).toContain('{{y}}/{{y}}-{{MM}}-{{dd}}/{{filename}}');
  });
});

describe('PUT /system-config', () => {
  it('accepts the object GET returned, changing nothing', async () => {
    const before = await getConfig();
    expect(await put(before)).toMatchObject({ status: 200, body: before });
    expect(await getConfig()).toEqual(before);
  });

  it('round-trips a changed object, converting numeric strings where Immich does', async () => {
    let config = await getConfig();
    config = withValue(config, 'ffmpeg.crf', '30');
    config = withValue(config, 'oauth.autoLaunch', 'true');
    config = withValue(config, 'trash.days', 10);
    config = withValue(config, 'user.deleteDelay', 15);
    config = withValue(config, 'machineLearning.facialRecognition.minScore', '0.6');
    const reply = await put(config);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      ffmpeg: { crf: 30 },
      oauth: { autoLaunch: true },
      trash: { days: 10 },
      user: { deleteDelay: 15 },
      machineLearning: { facialRecognition: { minScore: 0.6 } },
    });
    expect(await getConfig()).toEqual(reply.body);
  });

  it('stores only the differences from the defaults, and strips unknown keys', async () => {
    const defaults = structuredClone(configDefaults) as Config & Record<string, unknown>;
    const body = { ...withValue(defaults, 'thumbnail.quality', 90), extra: true, ffmpeg: { ...defaults.ffmpeg, unknownField: 1 } };
    const reply = await put(body);
    expect(reply.status).toBe(200);
    // v1.100's one quality is v3's two (docs/immich-compatibility.md, "System configuration"): stored as those.
    expect((await configRepo.getStoredConfig()).overrides).toEqual({ 'image.preview.quality': 90, 'image.thumbnail.quality': 90 });
    expect(reply.body).not.toHaveProperty('extra');
    expect(reply.body.ffmpeg).not.toHaveProperty('unknownField');
    const quality90 = ['thumbnail.quality', 'image.preview.quality', 'image.thumbnail.quality'].reduce(
      (config, path) => withValue(config, path, 90),
      configDefaults,
    );
    expect(await getConfig()).toEqual(quality90);
  });

  it('resets a field to its default when it is sent as ""', async () => {
    const changed = (await put(withValue(await getConfig(), 'ffmpeg.preset', 'slow'))).body as Config;
    expect(changed.ffmpeg.preset).toBe('slow');
    expect((await put(withValue(changed, 'ffmpeg.preset', ''))).body.ffmpeg.preset).toBe('ultrafast');
  });

  it('puts a target codec missing from its accepted list at the front, as Immich does', async () => {
    let config = withValue(await getConfig(), 'ffmpeg.targetVideoCodec', 'hevc');
    config = withValue(config, 'ffmpeg.acceptedVideoCodecs', ['h264']);
    expect((await put(config)).body.ffmpeg.acceptedVideoCodecs).toEqual(['hevc', 'h264']);
    await put(withValue(withValue(await getConfig(), 'ffmpeg.targetVideoCodec', 'h264'), 'ffmpeg.acceptedVideoCodecs', ['h264']));
  });

  // Every rule of Immich v1.100's SystemConfigDto: field, bad value, Immich's message(s). NestJS prefixes the parent
  // path to the whole child message, hence `ffmpeg.each value in ...` and `library.scan.Invalid ...`.
  const cases: [string, unknown, string | string[]][] = [
    ['ffmpeg.crf', 52, ['ffmpeg.crf must not be greater than 51']],
    ['ffmpeg.crf', -1, ['ffmpeg.crf must not be less than 0']],
    ['ffmpeg.crf', 1.5, ['ffmpeg.crf must be an integer number']],
    [
      'ffmpeg.crf',
      undefined,
      ['ffmpeg.crf must not be greater than 51', 'ffmpeg.crf must not be less than 0', 'ffmpeg.crf must be an integer number'],
    ],
    ['ffmpeg.threads', -1, ['ffmpeg.threads must not be less than 0']],
    ['ffmpeg.preset', 5, ['ffmpeg.preset must be a string']],
    ['ffmpeg.targetVideoCodec', 'av1', ['ffmpeg.targetVideoCodec must be one of the following values: h264, hevc, vp9']],
    [
      'ffmpeg.acceptedVideoCodecs',
      ['h264', 'av1'],
      ['ffmpeg.each value in acceptedVideoCodecs must be one of the following values: h264, hevc, vp9'],
    ],
    ['ffmpeg.targetAudioCodec', 'flac', ['ffmpeg.targetAudioCodec must be one of the following values: mp3, aac, libopus']],
    [
      'ffmpeg.acceptedAudioCodecs',
      ['opus'],
      ['ffmpeg.each value in acceptedAudioCodecs must be one of the following values: mp3, aac, libopus'],
    ],
    ['ffmpeg.bframes', 17, ['ffmpeg.bframes must not be greater than 16']],
    ['ffmpeg.bframes', -2, ['ffmpeg.bframes must not be less than -1']],
    ['ffmpeg.refs', 7, ['ffmpeg.refs must not be greater than 6']],
    ['ffmpeg.gopSize', -1, ['ffmpeg.gopSize must not be less than 0']],
    ['ffmpeg.npl', 'x', ['ffmpeg.npl must not be less than 0', 'ffmpeg.npl must be an integer number']],
    ['ffmpeg.temporalAQ', 'yes', ['ffmpeg.temporalAQ must be a boolean value']],
    ['ffmpeg.cqMode', 'vbr', ['ffmpeg.cqMode must be one of the following values: auto, cqp, icq']],
    ['ffmpeg.transcode', 'some', ['ffmpeg.transcode must be one of the following values: all, optimal, bitrate, required, disabled']],
    ['ffmpeg.accel', 'cuda', ['ffmpeg.accel must be one of the following values: nvenc, qsv, vaapi, rkmpp, disabled']],
    ['ffmpeg.tonemap', 'aces', ['ffmpeg.tonemap must be one of the following values: hable, mobius, reinhard, disabled']],
    ['job.thumbnailGeneration.concurrency', 0, ['job.thumbnailGeneration.concurrency must be a positive number']],
    [
      'job.videoConversion.concurrency',
      '2',
      ['job.videoConversion.concurrency must be a positive number', 'job.videoConversion.concurrency must be an integer number'],
    ],
    ['job.search', 5, ['job.search must be an object', 'job.nested property search must be either object or array']],
    ['logging.level', 'trace', ['logging.level must be one of the following values: verbose, debug, log, warn, error, fatal']],
    ['machineLearning.url', 'not a url', ['machineLearning.url must be a URL address']],
    ['machineLearning.clip.modelName', '', ['machineLearning.clip.modelName should not be empty']],
    [
      'machineLearning.clip.modelType',
      'ocr',
      ['machineLearning.clip.modelType must be one of the following values: facial-recognition, clip'],
    ],
    ['machineLearning.clip.mode', 'audio', ['machineLearning.clip.mode must be one of the following values: vision, text']],
    ['machineLearning.facialRecognition.minScore', 1.5, ['machineLearning.facialRecognition.minScore must not be greater than 1']],
    ['machineLearning.facialRecognition.maxDistance', 3, ['machineLearning.facialRecognition.maxDistance must not be greater than 2']],
    ['machineLearning.facialRecognition.minFaces', 0, ['machineLearning.facialRecognition.minFaces must not be less than 1']],
    ['map.lightStyle', null, ['map.lightStyle must be a string']],
    [
      'oauth.defaultStorageQuota',
      '5',
      [
        'oauth.defaultStorageQuota must not be less than 0',
        'oauth.defaultStorageQuota must be a number conforming to the specified constraints',
      ],
    ],
    ['oauth.signingAlgorithm', '', ['oauth.signingAlgorithm should not be empty']],
    ['passwordLogin.enabled', 1, ['passwordLogin.enabled must be a boolean value']],
    ['storageTemplate.template', '', ['storageTemplate.template should not be empty']],
    ['storageTemplate.template', '{{foo}}', 'Invalid storage template: Error: "foo" not defined in [object Object] - 1:2'],
    ['thumbnail.webpSize', 0, ['thumbnail.webpSize must not be less than 1']],
    ['thumbnail.quality', 101, ['thumbnail.quality must not be greater than 100']],
    ['thumbnail.colorspace', 'rec2020', ['thumbnail.colorspace must be one of the following values: srgb, p3']],
    ['trash.days', -1, ['trash.days must not be less than 0']],
    ['user.deleteDelay', 0, ['user.deleteDelay must not be less than 1']],
    ['library.scan.cronExpression', 'foo', ['library.scan.Invalid cron expression']],
    ['library.scan.cronExpression', '60 * * * *', ['library.scan.Invalid cron expression']],
    ['server.externalDomain', 7, ['server.externalDomain must be a string']],
    ['theme.customCss', false, ['theme.customCss must be a string']],
    ['ffmpeg', undefined, ['ffmpeg must be an object']],
    ['ffmpeg', null, ['ffmpeg must be an object', 'nested property ffmpeg must be either object or array']],
  ];

  it.each(cases)("rejects %s = %j with Immich's message, changing nothing", async (path, value, message) => {
    const before = await getConfig();
    const reply = await put(withValue(before, path, value));
    expect(reply.status).toBe(400);
    if (Array.isArray(message)) expect(reply.body.message).toEqual(expect.arrayContaining(message));
    else expect(reply.body.message).toBe(message);
    expect(reply.body).toMatchObject({ error: 'Bad Request', statusCode: 400 });
    expect(await getConfig()).toEqual(before);
  });

  it('applies conditional rules only when their switch is on', async () => {
    const config = await getConfig();
    const oauthOn = withValue(config, 'oauth.enabled', true);
    expect((await put(oauthOn)).body.message).toEqual(
      expect.arrayContaining([
        'oauth.clientId should not be empty',
        'oauth.clientSecret should not be empty',
        'oauth.issuerUrl should not be empty',
      ]),
    );
    expect((await put(withValue(withValue(config, 'machineLearning.enabled', false), 'machineLearning.url', 'not a url'))).status).toBe(
      200,
    );
    expect((await put(withValue(config, 'machineLearning.url', 'http://immich_ml:3003'))).status).toBe(200);
    expect((await put(withValue(config, 'machineLearning.url', 'immich-machine-learning:3003'))).status).toBe(200);
    expect(
      (await put(withValue(withValue(config, 'oauth.mobileOverrideEnabled', true), 'oauth.mobileRedirectUri', 'nope'))).body.message,
    ).toEqual(['oauth.mobileRedirectUri must be a URL address']);
    await put(config);
  });

  it('checks the cron expression even when library scanning is off', async () => {
    const off = withValue(withValue(await getConfig(), 'library.scan.enabled', false), 'library.scan.cronExpression', 'foo');
    expect(await put(off)).toMatchObject({ status: 400, body: { message: 'Invalid cron expression foo' } });
    expect((await put(withValue(await getConfig(), 'library.scan.cronExpression', '@daily'))).status).toBe(200);
  });

  it('never loses a write: of two updates based on one version, exactly one lands, the other is a 409', async () => {
    const { version } = await configRepo.getStoredConfig();
    const results = await Promise.all([
      configRepo.replaceStoredConfig({ 'ffmpeg.crf': 40 }, version),
      configRepo.replaceStoredConfig({ 'ffmpeg.crf': 41 }, version),
    ]);
    expect(results.map((r) => r.ok).sort()).toEqual([false, true]);
    // The loser is refused as changed (the service answers it with a 409).
    expect(results.find((r) => !r.ok)).toEqual({ ok: false, reason: 'changed' });
    const winner = results.findIndex((r) => r.ok);
    expect((await getConfig()).ffmpeg.crf).toBe(winner === 0 ? 40 : 41);
  });

  it('answers simultaneous PUTs with 200 or 409, and the stored config is one that was answered 200', async () => {
    const current = await getConfig();
    const replies = await Promise.all([20, 21, 22, 24, 25].map((crf) => put(withValue(current, 'ffmpeg.crf', crf))));
    const statuses = replies.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(statuses).toContain(200);
    for (const reply of replies.filter((r) => r.status === 409)) expect(reply.body).toMatchObject({ error: 'Conflict', statusCode: 409 });
    const landed = replies.filter((r) => r.status === 200).map((r) => r.body.ffmpeg.crf);
    expect(landed).toContain((await getConfig()).ffmpeg.crf);
  });

  it('makes passwordLogin.enabled=false close password login, and true reopen it', async () => {
    const credentials = { email: 'user1@immich.cloud', password: 'password1' };
    const login = () => invoke(loginHandler, { method: 'POST', path: '/api/auth/login', body: credentials });
    expect((await put(withValue(await getConfig(), 'passwordLogin.enabled', false))).status).toBe(200);
    expect(await login()).toMatchObject({ status: 401, body: { message: 'Password login has been disabled', error: 'Unauthorized' } });
    expect((await put(withValue(await getConfig(), 'passwordLogin.enabled', true))).status).toBe(200);
    expect((await login()).status).toBe(201);
  });
});
