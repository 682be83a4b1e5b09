import { getServerVersion, getSupportedMediaTypes, pingServer } from '@immich/sdk';
import { describe, expect, it } from 'vitest';
import { useServer } from '../support/server.ts';

describe('the local server, through @immich/sdk 1.100.0', () => {
  const server = useServer();

  it('answers pingServer, getServerVersion and getSupportedMediaTypes', async () => {
    const opts = { baseUrl: server.baseUrl };
    expect(await pingServer(opts)).toEqual({ res: 'pong' });
    expect(await getServerVersion(opts)).toEqual({ major: 1, minor: 100, patch: 0 });
    expect((await getSupportedMediaTypes(opts)).image).toContain('.jpg');
  });

  it('serves the discovery document the Immich CLI reads first', async () => {
    const response = await fetch(`${server.origin}/.well-known/immich`);
    expect(await response.json()).toEqual({ api: { endpoint: '/api' } });
  });

  it('answers an unknown route with a JSON 404 in Immich shape', async () => {
    const missing = await fetch(`${server.baseUrl}/no/such/route`, { method: 'PATCH' });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Cannot PATCH /api/no/such/route', error: 'Not Found', statusCode: 404 });
  });
});
