/**
 * GET /share/{key+} (functions/shared-link/render-share-page.ts): the web app's index.html with a
 * link's Open Graph tags, as Immich renders share pages; none for a link a stranger may not see.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as createLinkHandler } from '#functions/shared-link/create-shared-link.ts';
import { handler as sharePage } from '#functions/shared-link/render-share-page.ts';
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
const page = (key: string) => invoke<string>(sharePage, { path: `/share/${key}`, routeKey: 'GET /share/{key+}', pathParameters: { key } });

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
      'og:image': `/api/asset/thumbnail/${earliest}?key=${key}`,
      'twitter:card': 'summary_large_image',
      'twitter:title': 'Public Share',
      'twitter:description': '2 shared photos &amp; videos',
      'twitter:image': `/api/asset/thumbnail/${earliest}?key=${key}`,
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
    expect(tags['og:image']).toBe(`/api/asset/thumbnail/${album.albumThumbnailAssetId}?key=${key}`);
    expect((await page(key)).body).not.toContain('<script>alert');

    // Without a description: how many the album holds (Immich 1.100 counted the link's own, 0).
    const plain = await link({ type: 'ALBUM', albumId: album.id });
    expect(tagsOf((await page(plain.key)).body)['og:description']).toBe('2 shared photos &amp; videos');
  });

  it('an empty album: Immich’s feature panel as the picture', async () => {
    const album = await createAlbum(accounts.user1.accessToken, { albumName: 'empty' });
    const { key } = await link({ type: 'ALBUM', albumId: album.id });
    expect(tagsOf((await page(key)).body)).toMatchObject({ 'og:title': 'empty', 'og:image': '/feature-panel.png' });
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
