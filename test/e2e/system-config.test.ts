import { getConfig, getConfigDefaults, isHttpError, login, signUpAdmin, updateConfig } from '@immich/sdk';
import { describe, expect, it } from 'vitest';
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
});
