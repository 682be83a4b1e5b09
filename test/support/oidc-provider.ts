import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/**
 * A real OpenID provider for the tests (`oidc-provider`), on a loopback port with its own signing
 * key: one confidential client registered with the redirect URIs a test names, accounts whose
 * claims a test sets (`accounts`: sub → claims), and its development login form, which
 * `signInAt` submits over HTTP as a browser would (cookies kept, redirects followed by hand).
 */
export interface TestProvider {
  /** The issuer URL (`http://127.0.0.1:<port>`): the `oauth.issuerUrl` setting. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The accounts by `sub`; a test adds or changes one before it signs in. */
  accounts: Map<string, Record<string, unknown>>;
  /**
   * While set, the token endpoint's ID tokens expire this many seconds from now (negative: already
   * expired), issued an hour before that, signed again with the provider's own key: everything
   * else about them is as the provider made them. Unset: the provider's own.
   */
  idTokenExpiresIn: number | undefined;
  /**
   * Opens `authorizeUrl` (the URL /oauth/authorize answered), signs in as `sub` on the provider's
   * form and consents; answers the URL the provider sends the browser back to (the redirect URI
   * with `code`, `state` and `iss`), not followed.
   */
  signInAt(authorizeUrl: string, sub: string): Promise<string>;
  /** Stops answering: a provider that is down. */
  close(): Promise<void>;
}

export interface TestProviderOptions {
  redirectUris: string[];
  /** `client_secret_post` (the settings' default) or `client_secret_basic`. */
  tokenEndpointAuthMethod?: 'client_secret_post' | 'client_secret_basic';
  /** The ID token carries the profile's claims (then the userinfo endpoint is not asked), as many providers do; default true. */
  claimsInIdToken?: boolean;
}

const form = (html: string): { action: string; fields: Record<string, string> } | undefined => {
  const match = /<form[^>]*action="([^"]+)"[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!match) return undefined;
  const fields: Record<string, string> = {};
  for (const input of (match[2] ?? '').matchAll(/<input([^>]*)>/gi)) {
    const attrs = input[1] ?? '';
    const name = /name="([^"]+)"/.exec(attrs)?.[1];
    if (name) fields[name] = /value="([^"]*)"/.exec(attrs)?.[1] ?? '';
  }
  return { action: (match[1] ?? '').replaceAll('&amp;', '&'), fields };
};

export const startOidcProvider = async (options: TestProviderOptions): Promise<TestProvider> => {
  const accounts = new Map<string, Record<string, unknown>>();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'immich-test';
  const clientSecret = randomBytes(24).toString('base64url');
  const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const key = privateKey.export({ format: 'jwk' });

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        // A custom scheme (Immich's app.immich:///oauth-callback) makes it a native client, whose
        // http redirects must be loopback ones (the local server's).
        application_type: options.redirectUris.some((uri) => !/^https?:/.test(uri)) ? 'native' : 'web',
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: options.tokenEndpointAuthMethod ?? 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...key, kid: 'test-key', use: 'sig', alg: 'RS256' } as never] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name', 'preferred_username', 'picture', 'immich_quota', 'immich_role', 'immich_label'],
    },
    conformIdTokenClaims: options.claimsInIdToken === false,
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, sub) => {
      const claims = accounts.get(sub);
      return claims ? { accountId: sub, claims: () => ({ sub, ...claims }) } : undefined;
    },
    // Every test account consents to what the client asks: one form less.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId: ctx.oidc.session?.accountId as string });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);
  const state: { idTokenExpiresIn: number | undefined } = { idTokenExpiresIn: undefined };
  // oidc-provider refuses a TTL that is not positive (ttl.IdToken), so an expired ID token is the
  // one it issued with its times moved, signed again with its key (RS256, its header and kid kept).
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: unknown } | undefined;
    const expiresIn = state.idTokenExpiresIn;
    if (expiresIn === undefined || ctx.path !== '/token' || ctx.status !== 200 || typeof body?.id_token !== 'string') return;
    const [header, payload] = body.id_token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const exp = Math.floor(Date.now() / 1000) + expiresIn;
    const moved = Buffer.from(JSON.stringify({ ...claims, iat: exp - 3600, exp })).toString('base64url');
    const signature = sign('sha256', Buffer.from(`${header}.${moved}`), privateKey);
    ctx.body = { ...body, id_token: `${header}.${moved}.${signature.toString('base64url')}` };
  });
  server.on('request', provider.callback());

  const signInAt = async (authorizeUrl: string, sub: string): Promise<string> => {
    const jar = new Map<string, string>();
    const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const keep = (response: Response) => {
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const separator = (pair ?? '').indexOf('=');
        if (separator > 0) jar.set(pair!.slice(0, separator), pair!.slice(separator + 1));
      }
    };
    const redirectPrefixes = options.redirectUris;
    let next: { url: string; init?: RequestInit } = { url: authorizeUrl };
    for (let step = 0; step < 12; step++) {
      const response = await fetch(next.url, {
        ...next.init,
        redirect: 'manual',
        headers: { ...next.init?.headers, cookie: cookieHeader() },
      });
      keep(response);
      const location = response.headers.get('location');
      if (location) {
        const target = new URL(location, next.url).href;
        if (redirectPrefixes.some((uri) => target.startsWith(uri))) return target;
        next = { url: target };
        continue;
      }
      const html = await response.text();
      const page = form(html);
      if (!page)
        throw new Error(`The provider answered ${response.status} with no form and no redirect at ${next.url}: ${html.slice(0, 2000)}`);
      const fields = { ...page.fields, ...('login' in page.fields ? { login: sub, password: 'any' } : {}) };
      next = {
        url: new URL(page.action, next.url).href,
        init: { method: 'POST', body: new URLSearchParams(fields), headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      };
    }
    throw new Error('The provider did not send the browser back');
  };

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    get idTokenExpiresIn() {
      return state.idTokenExpiresIn;
    },
    set idTokenExpiresIn(value: number | undefined) {
      state.idTokenExpiresIn = value;
    },
    signInAt,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
