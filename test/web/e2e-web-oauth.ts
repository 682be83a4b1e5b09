/**
 * "Login with OAuth" in Immich's v3 web app, for `npm run e2e:web` (after the v3 pages, or alone
 * with `--oauth`): a real OpenID provider on loopback (test/support/oidc-provider.ts, its own
 * signing key and development login form) is configured as the admin would (Administration →
 * Settings → OAuth, here through @immich/sdk 3.2.2); then in Chromium a family member opens the
 * login page, clicks the app's OAuth button, signs in on the provider's form, and comes back to
 * the app signed in as a user Immich registered from the provider's claims. Against `--deployed`,
 * the same through the synthesized stack (the settings then come from the admin page, as
 * `npm run start:deployed` without OAUTH_ISSUER_URL serves the default template).
 */
import { getConfig, getMyUser, updateConfig } from '@immich/sdk-v3';
import { startOidcProvider } from '../support/oidc-provider.ts';
import type { RunV3 } from './e2e-web-v3.ts';

export const runOAuth = async (run: Pick<RunV3, 'origin' | 'admin' | 'open' | 'screenshot' | 'problems'>): Promise<void> => {
  const { origin, admin, screenshot } = run;
  // The redirect URIs the web app sends: its login page (and the account settings' link).
  const provider = await startOidcProvider({ redirectUris: [`${origin}/auth/login`, `${origin}/user-settings`] });
  try {
    provider.accounts.set('sub-family', { email: 'family@example.com', name: 'Family Member' });
    const config = await getConfig(admin);
    await updateConfig(
      {
        adminConfigDto: {
          ...config,
          oauth: {
            ...config.oauth,
            enabled: true,
            issuerUrl: provider.issuer,
            clientId: provider.clientId,
            clientSecret: provider.clientSecret,
            // The provider is plain http on loopback.
            allowInsecureRequests: true,
            autoRegister: true,
            buttonText: 'Login with OAuth',
          },
        },
      },
      admin,
    );
    console.log(`  OAuth: provider at ${provider.issuer}; signing in through the web app's button`);

    const { page } = await run.open('oauth');
    // The provider's development form links a web font; the runs have no network (and it is not the app's).
    await page.route('https://fonts.googleapis.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/css', body: '' }));
    await page.goto(`${origin}/auth/login`);
    const button = page.getByRole('button', { name: 'Login with OAuth' });
    await button.waitFor();
    await screenshot(page, 'v3-oauth-1-login');
    await button.click();
    // The provider's own form (oidc-provider's development interaction): any password for a known account.
    await page.waitForURL(`${provider.issuer}/**`);
    await page.locator('input[name=login]').fill('sub-family');
    await page.locator('input[name=password]').fill('any');
    await page.locator('button[type=submit]').first().click();
    // Back at /auth/login?code=…&state=…, the app finishes the sign-in and moves on: a new user to the
    // onboarding ("Welcome, <name>"), a known one to the timeline.
    await page.waitForURL((url) => url.origin === origin && /^\/(photos|auth\/onboarding)/.test(url.pathname), { timeout: 30_000 });
    await page.getByText('Welcome, Family Member').waitFor();
    await screenshot(page, 'v3-oauth-2-signed-in');
    const cookies = await page.context().cookies(origin);
    const token = cookies.find((cookie) => cookie.name === 'immich_access_token')?.value;
    if (!token) run.problems.push('OAuth: no immich_access_token cookie after the sign-in');
    const me = await getMyUser({ baseUrl: `${origin}/api`, headers: { Authorization: `Bearer ${token}` } });
    if (me.email !== 'family@example.com' || me.oauthId !== 'sub-family')
      run.problems.push(`OAuth: signed in as ${me.email} (oauthId ${me.oauthId}), not the provider's family@example.com`);
    const authType = cookies.find((cookie) => cookie.name === 'immich_auth_type')?.value;
    if (authType !== 'oauth') run.problems.push(`OAuth: immich_auth_type is ${authType}, not oauth`);
  } finally {
    await provider.close();
  }
};
