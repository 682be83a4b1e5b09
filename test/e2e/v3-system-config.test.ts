import * as v1 from '@immich/sdk';
import * as v3 from '@immich/sdk-v3';
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from '../support/server.ts';

/**
 * The admin settings as each generation's web app reads and saves them: the whole configuration
 * read, one section changed, the whole sent back. One configuration answers both SDKs.
 */
describe('system config through @immich/sdk 3.2.2 and 1.100.0', () => {
  const server = useServer();
  let opts: { baseUrl: string; headers: Record<string, string> };

  beforeAll(async () => {
    const { baseUrl } = server;
    await v3.signUpAdmin({ signUpDto: { email: 'admin@immich.cloud', password: 'password', name: 'Admin' } }, { baseUrl });
    const { accessToken } = await v3.login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl });
    opts = { baseUrl, headers: { Authorization: `Bearer ${accessToken}` } };
  });

  it("saves v3's settings, read back through v1.100 where it has them", async () => {
    const config = await v3.getConfig(opts);
    expect(config).toEqual(await v3.getConfigDefaults(opts));
    const saved = await v3.updateConfig(
      {
        adminConfigDto: {
          ...config,
          image: { ...config.image, preview: { ...config.image.preview, size: 1080 } },
          nightlyTasks: { ...config.nightlyTasks, startTime: '03:15' },
        },
      },
      opts,
    );
    expect(saved).toMatchObject({ image: { preview: { size: 1080 } }, nightlyTasks: { startTime: '03:15' } });
    expect(await v3.getConfig(opts)).toEqual(saved);
    expect((await v1.getConfig(opts)).thumbnail).toEqual({ webpSize: 250, jpegSize: 1080, quality: 80, colorspace: 'p3' });
  });

  it("saves v1.100's settings without undoing v3's", async () => {
    const config = await v1.getConfig(opts);
    await v1.updateConfig(
      { systemConfigDto: { ...config, trash: { enabled: true, days: 12 }, thumbnail: { ...config.thumbnail, quality: 75 } } },
      opts,
    );
    expect(await v3.getConfig(opts)).toMatchObject({
      trash: { days: 12 },
      image: { preview: { size: 1080, quality: 75 }, thumbnail: { quality: 75 } },
      nightlyTasks: { startTime: '03:15' },
    });
  });

  it("refuses a bad v3 setting with a 400 naming it, and lists v3's storage-template presets", async () => {
    const config = await v3.getConfig(opts);
    const failure = await v3
      .updateConfig({ adminConfigDto: { ...config, nightlyTasks: { ...config.nightlyTasks, startTime: '7pm' } } }, opts)
      .catch((error: unknown) => error);
    expect(v3.isHttpError(failure) && failure.status).toBe(400);
    expect(v3.isHttpError(failure) && failure.data.message).toContain('nightlyTasks.startTime must be a time in HH:MM format');
    const options = await v3.getStorageTemplateOptions(opts);
    expect(options.presetOptions).toContain('{{make}}/{{model}}/{{lensModel}}/{{filename}}');
    expect(await v1.getStorageTemplateOptions(opts)).toEqual(options);
  });

  it("serves 3.2's /admin/config, /config and /public/config over the same configuration", async () => {
    const admin = await v3.getAdminConfig(opts);
    expect(admin).not.toHaveProperty('thumbnail');
    expect(admin.nightlyTasks.startTime).toBe('03:15');
    const saved = await v3.updateAdminConfig({ adminConfigDto: { ...admin, trash: { enabled: true, days: 21 } } }, opts);
    expect(saved.trash.days).toBe(21);
    expect((await v1.getConfig(opts)).trash.days).toBe(21);
    expect(await v3.getAdminConfigDefaults(opts)).toMatchObject({ trash: { days: 30 } });
    expect((await v3.getUserConfig(opts)).trash).toEqual({ enabled: true, days: 21 });
    expect(await v3.getPublicConfig({ baseUrl: server.baseUrl })).toMatchObject({ passwordLogin: { enabled: true } });
  });
});
