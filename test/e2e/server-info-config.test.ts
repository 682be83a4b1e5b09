import { getConfig, getServerConfig, getServerFeatures, getServerInfo, getTheme, setAdminOnboarding, updateConfig } from '@immich/sdk';
import { describe, expect, it } from 'vitest';
import { makeJpeg } from '../support/photos.ts';
import { adminWithApiKey, sdkUpload } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';
import { hangGuard } from '../support/timeouts.ts';

// What Immich's web app reads before and after signing in (its login page awaits the config).
describe('server config, features, theme and storage through @immich/sdk 1.100.0', () => {
  const server = useServer();

  it('answers the login page before any admin exists, then onboarding, the theme and the caller’s storage', async () => {
    const anyone = { baseUrl: server.baseUrl };
    expect(await getServerConfig(anyone)).toEqual({
      loginPageMessage: '',
      trashDays: 30,
      userDeleteDelay: 7,
      oauthButtonText: 'Login with OAuth',
      isInitialized: false,
      isOnboarded: false,
      externalDomain: '',
    });
    // True only for what works here (no smart search, OAuth or config file); the map, reverse
    // geocoding (docs/places.md) and facial recognition (docs/faces.md) as the settings say.
    expect(await getServerFeatures(anyone)).toEqual({
      smartSearch: false,
      configFile: false,
      facialRecognition: true,
      map: true,
      trash: true,
      reverseGeocoding: true,
      oauth: false,
      oauthAutoLaunch: false,
      passwordLogin: true,
      sidecar: true,
      search: true,
    });
    expect(await getTheme(anyone)).toEqual({ customCss: '' });

    const admin = await adminWithApiKey(server.baseUrl, 'onboarding@immich.cloud');
    expect(await getServerConfig(anyone)).toMatchObject({ isInitialized: true, isOnboarded: false });
    await setAdminOnboarding(admin);
    expect(await getServerConfig(anyone)).toMatchObject({ isInitialized: true, isOnboarded: true });

    // The configuration shows through (public routes cache it for a few seconds per function).
    const config = await getConfig(admin);
    await updateConfig(
      {
        systemConfigDto: {
          ...config,
          theme: { customCss: 'body { color: red; }' },
          server: { ...config.server, loginPageMessage: 'Hello' },
        },
      },
      admin,
    );
    const deadline = Date.now() + hangGuard.wait;
    let theme = await getTheme(anyone);
    while (theme.customCss === '' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      theme = await getTheme(anyone);
    }
    expect(theme).toEqual({ customCss: 'body { color: red; }' });
    // Immich's web app links /custom.css from every page: the same CSS, served as a stylesheet.
    const stylesheet = async () => {
      const response = await fetch(`${server.origin}/custom.css`);
      return { status: response.status, type: response.headers.get('content-type'), css: await response.text() };
    };
    let css = await stylesheet();
    while (css.css === '' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      css = await stylesheet();
    }
    expect(css).toEqual({ status: 200, type: 'text/css; charset=utf-8', css: 'body { color: red; }' });

    // Storage: the caller's usage against all the server stores (a bucket has no size of its own,
    // and the admin has no quota): nothing yet, then the one photo, all of it theirs.
    const before = await getServerInfo(admin);
    expect(before).toEqual({
      diskSize: '0 B',
      diskUse: '0 B',
      diskAvailable: '0 B',
      diskSizeRaw: 0,
      diskUseRaw: 0,
      diskAvailableRaw: 0,
      diskUsagePercentage: 0,
    });
    const photo = makeJpeg({ width: 64, height: 48 });
    await sdkUpload(admin, photo, 'p.jpg');
    expect(await getServerInfo(admin)).toMatchObject({
      diskSizeRaw: photo.length,
      diskUseRaw: photo.length,
      diskAvailableRaw: 0,
      diskUsagePercentage: 100,
    });
  });

  it('refuses storage to visitors and onboarding to anyone but the admin', async () => {
    const info = await fetch(`${server.baseUrl}/server-info`);
    expect(info.status).toBe(401);
    const onboarding = await fetch(`${server.baseUrl}/server-info/admin-onboarding`, { method: 'POST' });
    expect(onboarding.status).toBe(401);
  });
});
