import { getConfig, getConfigDefaults, isHttpError, login, signUpAdmin, updateConfig } from '@immich/sdk';
import { describe, expect, it } from 'vitest';
import { leafPathsOf } from '../support/sdk-types.ts';
import { useServer } from '../support/server.ts';

describe('system config through @immich/sdk 1.100.0', () => {
  const server = useServer();

  it('reads the defaults and the config, updates it, and reports a bad template as Immich does', async () => {
    const baseUrl = server.baseUrl;
    await signUpAdmin({ signUpDto: { email: 'admin@immich.cloud', password: 'password', name: 'Immich Admin' } }, { baseUrl });
    const { accessToken } = await login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl });
    const opts = { baseUrl, headers: { Authorization: `Bearer ${accessToken}` } };

    const defaults = await getConfigDefaults(opts);
    const config = await getConfig(opts);
    expect(config).toEqual(defaults);

    const updated = await updateConfig({ systemConfigDto: { ...config, trash: { enabled: true, days: 10 } } }, opts);
    expect(updated.trash.days).toBe(10);
    expect((await getConfig(opts)).trash.days).toBe(10);

    const bad = { ...config, storageTemplate: { enabled: true, hashVerificationEnabled: true, template: '{{foo}}' } };
    const failure = await updateConfig({ systemConfigDto: bad }, opts).catch((error: unknown) => error);
    expect(isHttpError(failure) && failure.status).toBe(400);
    expect(isHttpError(failure) && failure.data.message).toContain('Invalid storage template');
  });

  it('requires authentication to update', async () => {
    // Authentication is checked before the body, so even an empty body gets the 401.
    const failure = await updateConfig({ systemConfigDto: {} as never }, { baseUrl: server.baseUrl }).catch((e: unknown) => e);
    expect(isHttpError(failure) && failure.status).toBe(401);
    expect(isHttpError(failure) && failure.data).toEqual({ message: 'Authentication required', error: 'Unauthorized', statusCode: 401 });
  });

  /** Every leaf path of an answer (arrays are leaves). */
  const leavesOf = (value: Record<string, unknown>, prefix = ''): string[] =>
    Object.entries(value).flatMap(([key, child]) =>
      child && typeof child === 'object' && !Array.isArray(child)
        ? leavesOf(child as Record<string, unknown>, `${prefix}${key}.`)
        : [`${prefix}${key}`],
    );
  /** The fields of one of @immich/sdk 1.100.0's types a server must answer (its optional ones aside). */
  const v1Shape = (type: string) =>
    leafPathsOf('@immich/sdk', type)
      .filter((path) => !path.endsWith('?'))
      .sort();

  it("answers v1.100's web app (the SDK in a browser) and v1.100's own e2e suite in v1.100's shapes exactly", async () => {
    const baseUrl = server.baseUrl;
    // Immich v1.100's e2e suite (e2e/src/api/specs/auth.e2e-spec.ts) logs in with supertest, which
    // asks for no JSON, and expects `loginResponseDto.admin` (e2e/src/responses.ts) exactly.
    const raw = await fetch(`${baseUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@immich.cloud', password: 'password' }),
    });
    expect(raw.status).toBe(201);
    expect(await raw.json()).toEqual({
      accessToken: expect.any(String),
      name: 'Immich Admin',
      isAdmin: true,
      profileImagePath: '',
      shouldChangePassword: true,
      userEmail: 'admin@immich.cloud',
      userId: expect.any(String),
    });

    // The v1.100 web app is this SDK in a browser (the server serves no v3 build here).
    const web = { baseUrl, headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0' } };
    const signedIn = await login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, web);
    expect(Object.keys(signedIn).sort()).toEqual(v1Shape('LoginResponseDto'));
    const opts = { ...web, headers: { ...web.headers, Authorization: `Bearer ${signedIn.accessToken}` } };
    const config = await getConfig(opts);
    expect(leavesOf(config).sort()).toEqual(v1Shape('SystemConfigDto'));
    // v3's default (null, no quota) as v1.100's number for it.
    expect(config.oauth.defaultStorageQuota).toBe(0);
    expect(leavesOf(await getConfigDefaults(opts)).sort()).toEqual(v1Shape('SystemConfigDto'));
    // What it sends back is v1.100's shape too, and so is the answer; the setting stays v3's null.
    const saved = await updateConfig({ systemConfigDto: { ...config, trash: { enabled: true, days: 12 } } }, opts);
    expect(leavesOf(saved).sort()).toEqual(v1Shape('SystemConfigDto'));
    expect(saved).toMatchObject({ trash: { days: 12 }, oauth: { defaultStorageQuota: 0 } });

    // A program on the SDK (nothing tells its generation) gets every setting of both, v3's null among them.
    const program = { baseUrl, headers: { Authorization: `Bearer ${signedIn.accessToken}` } };
    const both = await getConfig(program);
    expect(both).toMatchObject({ trash: { days: 12 }, oauth: { defaultStorageQuota: null } });
    expect(both).toHaveProperty('image.thumbnail.size');
    expect(
      (await login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl })) as object,
    ).toHaveProperty('isOnboarded', false);
  });
});
