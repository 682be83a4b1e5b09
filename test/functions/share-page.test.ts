/**
 * GET /share/{key+} and GET /s/{slug+} (functions/shared-link/render-*-page.ts): the web app's
 * index.html with a link's Open Graph tags, as Immich renders share pages; none for a link a
 * stranger may not see. The picture's URL is absolute, as chat apps need it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as createLinkHandler } from '#functions/shared-link/create-shared-link.ts';
import { handler as sharePage } from '#functions/shared-link/render-share-page.ts';
import { handler as slugPage } from '#functions/shared-link/render-slug-page.ts';
import { handler as getConfigHandler } from '#functions/system-config/get-config.ts';
import { handler as updateConfigHandler } from '#functions/system-config/update-config.ts';
import { handler as createLinkV3 } from '#functions/v3/shared-link/create-shared-link.ts';
import { bearer, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, createAlbum, trash } from '../support/library.ts';

const index = '<!doctype html><html><head>\n    <!-- metadata:tags -->\n    <title>stand-in</title></head><body></body></html>';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
let dir: string;
const saved = process.env.WEB_INDEX;
beforeAll(async () => {
  accounts = await setupAccounts();
  dir = mkdtempSync(join(tmpdir(), 'share-page-'));
  writeFileSync(join(dir, 'index.html'), index);
  process.env.WEB_INDEX = join(dir, 'index.html');
});
afterAll(() => {
  if (saved === undefined) delete process.env.WEB_INDEX;
  else process.env.WEB_INDEX = saved;
  rmSync(dir, { recursive: true, force: true });
});

const link = async (body: Record<string, unknown>): Promise<{ key: string }> => {
  const reply = await invoke(createLinkHandler, {
    method: 'POST',
    path: '/api/shared-link',
    headers: bearer(accounts.user1.accessToken),
    body,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};
const page = (key: string, headers: Record<string, string> = {}) =>
  invoke<string>(sharePage, { path: `/share/${key}`, routeKey: 'GET /share/{key+}', pathParameters: { key }, headers });
const pageOfSlug = (slug: string, headers: Record<string, string> = {}) =>
  invoke<string>(slugPage, { path: `/s/${encodeURIComponent(slug)}`, routeKey: 'GET /s/{slug+}', pathParameters: { slug }, headers });

/** What the local server's event names as the host when the request has none. */
const local = 'http://localhost';

const setExternalDomain = async (externalDomain: string) => {
  const headers = bearer(accounts.admin.accessToken);
  const config = (await invoke(getConfigHandler, { path: '/api/system-config', headers })).body;
  const reply = await invoke(updateConfigHandler, {
    method: 'PUT',
    path: '/api/system-config',
    headers,
    body: { ...config, server: { ...config.server, externalDomain } },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
};

/** The tags of a page, by property or name. */
const tagsOf = (html: string): Record<string, string> =>
  Object.fromEntries([...html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)" \/>/g)].map((m) => [m[1], m[2]]));

describe('GET /share/{key+}', () => {
  it('an INDIVIDUAL link: "Public Share", how many it shows, its earliest photo through the link’s key; never stored', async () => {
    const token = accounts.user1.accessToken;
    const later = await addPhoto(token, {}, new Date('2024-05-01T00:00:00Z'));
    const earliest = await addPhoto(token, {}, new Date('2020-05-01T00:00:00Z'));
    const trashed = await addPhoto(token, {}, new Date('2010-05-01T00:00:00Z'));
    const { key } = await link({ type: 'INDIVIDUAL', assetIds: [later, earliest, trashed] });
    await trash(token, [trashed]);

    const reply = await page(key);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(tagsOf(reply.body)).toEqual({
      description: '2 shared photos &amp; videos',
      'og:type': 'website',
      'og:title': 'Public Share',
      'og:description': '2 shared photos &amp; videos',
      'og:image': `${local}/api/asset/thumbnail/${earliest}?key=${key}`,
      'twitter:card': 'summary_large_image',
      'twitter:title': 'Public Share',
      'twitter:description': '2 shared photos &amp; videos',
      'twitter:image': `${local}/api/asset/thumbnail/${earliest}?key=${key}`,
    });
    expect(reply.body).not.toContain('<!-- metadata:tags -->');
    expect(reply.body).toContain('<title>stand-in</title>');
  });

  it('an ALBUM link: the album’s name, the link’s description, the album’s thumbnail; every value escaped', async () => {
    const token = accounts.user1.accessToken;
    const photos = [
      await addPhoto(token, {}, new Date('2023-01-01T00:00:00Z')),
      await addPhoto(token, {}, new Date('2021-01-01T00:00:00Z')),
    ];
    const album = await createAlbum(token, { albumName: 'Trip "><script>alert(1)</script> & co', assetIds: photos });
    const { key } = await link({ type: 'ALBUM', albumId: album.id, description: 'Our $& best <days>' });
    const tags = tagsOf((await page(key)).body);
    expect(tags['og:title']).toBe('Trip &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; co');
    expect(tags['og:description']).toBe('Our $&amp; best &lt;days&gt;');
    expect(tags['og:image']).toBe(`${local}/api/asset/thumbnail/${album.albumThumbnailAssetId}?key=${key}`);
    expect((await page(key)).body).not.toContain('<script>alert');

    // Without a description: how many the album holds (Immich 1.100 counted the link's own, 0).
    const plain = await link({ type: 'ALBUM', albumId: album.id });
    expect(tagsOf((await page(plain.key)).body)['og:description']).toBe('2 shared photos &amp; videos');
  });

  it('an empty album: Immich’s feature panel as the picture', async () => {
    const album = await createAlbum(accounts.user1.accessToken, { albumName: 'empty' });
    const { key } = await link({ type: 'ALBUM', albumId: album.id });
    expect(tagsOf((await page(key)).body)).toMatchObject({ 'og:title': 'empty', 'og:image': `${local}/feature-panel.png` });
  });

  it('no tags for a password link, an expired link, an unknown key, or a route below a link: the app as it is', async () => {
    const token = accounts.user1.accessToken;
    const photo = await addPhoto(token);
    const guarded = await link({ type: 'INDIVIDUAL', assetIds: [photo], password: 'secret' });
    const expired = await link({ type: 'INDIVIDUAL', assetIds: [photo], expiresAt: '2000-01-01T00:00:00.000Z' });
    const open = await link({ type: 'INDIVIDUAL', assetIds: [photo] });
    for (const key of [guarded.key, expired.key, 'no-such-key', 'x'.repeat(300), '%3Cscript%3E', `${open.key}/photos/${photo}`]) {
      const reply = await page(key);
      expect(reply.status, key).toBe(200);
      expect(reply.body, key).toBe(index);
    }
  });

  it('makes the picture’s URL absolute: the host and scheme the visitor reached, else the configured external domain', async () => {
    const token = accounts.user1.accessToken;
    const photo = await addPhoto(token);
    const { key } = await link({ type: 'INDIVIDUAL', assetIds: [photo] });
    const image = async (headers: Record<string, string>) => tagsOf((await page(key, headers)).body)['og:image'];
    const path = `/api/asset/thumbnail/${photo}?key=${key}`;
    // `npm start`: the Host header, over plain HTTP.
    expect(await image({ host: '192.168.1.20:2283' })).toBe(`http://192.168.1.20:2283${path}`);
    // Deployed: API Gateway's scheme, and the host CloudFront's function passes on (CloudFront sends its own Host).
    expect(
      await image({
        host: 'abc123.execute-api.eu-west-1.amazonaws.com',
        'x-forwarded-proto': 'https',
        'x-viewer-host': 'photos.example.com',
      }),
    ).toBe(`https://photos.example.com${path}`);
    // Behind a reverse proxy of one's own: its forwarded host and scheme.
    expect(await image({ host: '127.0.0.1:3000', 'x-forwarded-host': 'home.example.org', 'x-forwarded-proto': 'https' })).toBe(
      `https://home.example.org${path}`,
    );
    // A value that is no host is not taken.
    expect(await image({ host: 'ok.example', 'x-forwarded-host': 'evil.example/"><script>' })).toBe(`http://ok.example${path}`);

    // The configured external domain, when set, as Immich's getExternalDomain.
    await setExternalDomain('https://immich.example.net');
    try {
      expect(await image({ host: '192.168.1.20:2283' })).toBe(`https://immich.example.net${path}`);
    } finally {
      await setExternalDomain('');
    }
    expect(await image({ host: '192.168.1.20:2283' })).toBe(`http://192.168.1.20:2283${path}`);
  });

  it('/s/<slug>: a custom URL’s page has its link’s tags, the picture reached with the slug; none for what a stranger may not see', async () => {
    const token = accounts.user1.accessToken;
    const photo = await addPhoto(token, {}, new Date('2022-02-02T00:00:00Z'));
    const create = (body: Record<string, unknown>) =>
      invoke(createLinkV3, { method: 'POST', path: '/api/shared-links', headers: bearer(token), body: { password: '', ...body } });
    const open = await create({ type: 'INDIVIDUAL', assetIds: [photo], slug: 'our trip', description: 'By the sea' });
    expect(open.status, JSON.stringify(open.body)).toBe(201);
    const reply = await pageOfSlug('our trip', { host: 'photos.example.com', 'x-forwarded-proto': 'https' });
    expect(reply.status).toBe(200);
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(tagsOf(reply.body)).toMatchObject({
      'og:title': 'Public Share',
      'og:description': 'By the sea',
      'og:image': `https://photos.example.com/api/asset/thumbnail/${photo}?slug=our%20trip`,
    });

    await create({ type: 'INDIVIDUAL', assetIds: [photo], slug: 'guarded', password: 'secret' });
    await create({ type: 'INDIVIDUAL', assetIds: [photo], slug: 'expired', expiresAt: '2000-01-01T00:00:00.000Z' });
    for (const slug of ['guarded', 'expired', 'unknown', 'our trip/photos/x', 'x'.repeat(600)]) {
      const plain = await pageOfSlug(slug);
      expect(plain.status, slug).toBe(200);
      expect(plain.body, slug).toBe(index);
    }
  });

  it('without a web build to render: 404 in Immich’s shape', async () => {
    process.env.WEB_INDEX = join(dir, 'missing.html');
    try {
      const reply = await invoke(sharePage, { path: '/share/abc', routeKey: 'GET /share/{key+}', pathParameters: { key: 'abc' } });
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ message: 'No web app is served here', error: 'Not Found', statusCode: 404 });
    } finally {
      process.env.WEB_INDEX = join(dir, 'index.html');
    }
  });
});
