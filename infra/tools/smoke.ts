/**
 * `npm run smoke -- <ApiUrl> [email password]`: checks a deployed API (or any running one)
 * without changing anything it keeps: ping, version, the discovery document, media types, and
 * that a request without credentials is refused. Given an email and password it also signs in,
 * reads the account and signs out again (the session it opens is ended). Exits 1 if any check fails.
 */
interface Check {
  name: string;
  run: () => Promise<string>;
}

const [apiUrlArgument, email, password] = process.argv.slice(2);
if (!apiUrlArgument) {
  console.error('usage: npm run smoke -- <ApiUrl, e.g. https://d111111abcdef8.cloudfront.net/api> [email password]');
  process.exit(2);
}
const apiUrl = apiUrlArgument.replace(/\/+$/, '');
const origin = new URL(apiUrl).origin;

const expectJson = async (path: string, init: RequestInit, status: number): Promise<Record<string, unknown>> => {
  const response = await fetch(path, { ...init, signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  if (response.status !== status) throw new Error(`${response.status} instead of ${status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as Record<string, unknown>;
};

const checks: Check[] = [
  {
    name: 'ping',
    run: async () => {
      const body = await expectJson(`${apiUrl}/server-info/ping`, {}, 200);
      if (body.res !== 'pong') throw new Error(JSON.stringify(body));
      return 'pong';
    },
  },
  {
    name: 'version',
    run: async () => {
      const body = await expectJson(`${apiUrl}/server-info/version`, {}, 200);
      if (body.major !== 1 || body.minor !== 100) throw new Error(JSON.stringify(body));
      return `${body.major}.${body.minor}.${body.patch}`;
    },
  },
  {
    name: 'discovery (/.well-known/immich)',
    run: async () => {
      const body = await expectJson(`${origin}/.well-known/immich`, {}, 200);
      if (JSON.stringify(body) !== JSON.stringify({ api: { endpoint: '/api' } })) throw new Error(JSON.stringify(body));
      return '/api';
    },
  },
  {
    name: 'media types',
    run: async () => {
      const body = await expectJson(`${apiUrl}/server-info/media-types`, {}, 200);
      const image = Array.isArray(body.image) ? body.image : [];
      if (!image.includes('.jpg')) throw new Error(JSON.stringify(body).slice(0, 200));
      return `${image.length} image types`;
    },
  },
  {
    name: 'no credentials is a 401',
    run: async () => {
      const body = await expectJson(`${apiUrl}/user/me`, {}, 401);
      if (body.message !== 'Authentication required') throw new Error(JSON.stringify(body));
      return 'Authentication required';
    },
  },
];

if (email && password) {
  checks.push({
    name: `sign in as ${email}`,
    run: async () => {
      const json = { 'content-type': 'application/json' };
      const session = await expectJson(
        `${apiUrl}/auth/login`,
        { method: 'POST', headers: json, body: JSON.stringify({ email, password }) },
        201,
      );
      const headers = { authorization: `Bearer ${String(session.accessToken)}` };
      const me = await expectJson(`${apiUrl}/user/me`, { headers }, 200);
      await expectJson(`${apiUrl}/auth/logout`, { method: 'POST', headers }, 200);
      return `${String(me.email)}${me.isAdmin ? ' (admin)' : ''}, signed out again`;
    },
  });
}

let failed = 0;
console.log(`Smoke test of ${apiUrl}`);
for (const check of checks) {
  try {
    console.log(`  ok    ${check.name}: ${await check.run()}`);
  } catch (error) {
    failed++;
    console.log(`  FAIL  ${check.name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
console.log(failed === 0 ? `All ${checks.length} checks passed.` : `${failed} of ${checks.length} checks failed.`);
process.exit(failed === 0 ? 0 : 1);
