import { describe, expect, it } from 'vitest';
import { handler as getServerVersion } from '#functions/server-info/get-server-version.ts';
import { handler as getSupportedMediaTypes } from '#functions/server-info/get-supported-media-types.ts';
import { handler as pingServer } from '#functions/server-info/ping-server.ts';
import { handler as notFound } from '#functions/system/not-found.ts';
import { handler as wellKnown } from '#functions/system/well-known.ts';
import { invoke } from '../support/invoke.ts';

describe('public server-info routes', () => {
  it('answers ping with pong as JSON, with a request id header', async () => {
    const reply = await invoke(pingServer, { path: '/api/server-info/ping' });
    expect(reply).toMatchObject({ status: 200, body: { res: 'pong' } });
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports version 1.100.0', async () => {
    expect((await invoke(getServerVersion, { path: '/api/server-info/version' })).body).toEqual({ major: 1, minor: 100, patch: 0 });
  });

  it('lists image, video and sidecar extensions the way the Immich CLI reads them', async () => {
    const { body } = await invoke(getSupportedMediaTypes, { path: '/api/server-info/media-types' });
    expect(Object.keys(body).sort()).toEqual(['image', 'sidecar', 'video']);
    expect(body.image).toEqual(expect.arrayContaining(['.jpg', '.jpeg', '.png', '.heic', '.dng']));
    expect(body.video).toEqual(expect.arrayContaining(['.mp4', '.mov']));
    expect(body.sidecar).toEqual(['.xmp']);
    for (const extension of [...body.image, ...body.video]) expect(extension).toMatch(/^\.[a-z0-9]+$/);
  });

  it('tells clients where the API lives', async () => {
    expect((await invoke(wellKnown, { path: '/.well-known/immich' })).body).toEqual({ api: { endpoint: '/api' } });
  });

  it('answers unknown routes with a NestJS-shaped 404 naming the method and path', async () => {
    const reply = await invoke(notFound, { method: 'DELETE', path: '/api/nothing/here', routeKey: '$default' });
    expect(reply).toMatchObject({
      status: 404,
      body: { message: 'Cannot DELETE /api/nothing/here', error: 'Not Found', statusCode: 404 },
    });
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
  });
});
