import { createHash } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAssetInfoHandler } from '#functions/asset/get-asset-info.ts';
import { handler as thumbnailHandler } from '#functions/asset/get-asset-thumbnail.ts';
import { handler as getTimeBucketHandler } from '#functions/asset/get-time-bucket.ts';
import { handler as getTimeBucketsHandler } from '#functions/asset/get-time-buckets.ts';
import { handler as serveFileHandler } from '#functions/asset/serve-file.ts';
import { handler as downloadArchiveHandler } from '#functions/download/download-archive.ts';
import { handler as downloadFileHandler } from '#functions/download/download-file.ts';
import { handler as downloadInfoHandler } from '#functions/download/get-download-info.ts';
import { handler as addLinkAssetsHandler } from '#functions/shared-link/add-shared-link-assets.ts';
import { handler as createLinkHandler } from '#functions/shared-link/create-shared-link.ts';
import { handler as getAllLinksHandler } from '#functions/shared-link/get-all-shared-links.ts';
import { handler as getMyLinkHandler } from '#functions/shared-link/get-my-shared-link.ts';
import { handler as getLinkHandler } from '#functions/shared-link/get-shared-link-by-id.ts';
import { handler as removeLinkHandler } from '#functions/shared-link/remove-shared-link.ts';
import { handler as removeLinkAssetsHandler } from '#functions/shared-link/remove-shared-link-assets.ts';
import { handler as updateLinkHandler } from '#functions/shared-link/update-shared-link.ts';
import { handler as getMyUserInfo } from '#functions/user/get-my-user-info.ts';
import { handler as getMyLinkV3 } from '#functions/v3/shared-link/get-my-shared-link.ts';
import { handler as linkLoginV3 } from '#functions/v3/shared-link/shared-link-login.ts';
import { sharedLinkToken } from '#shared/core/crypto.ts';
import { bearer, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, createAlbum, trash } from '../support/library.ts';
import { tableItems } from '../support/table-items.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const create = (token: string, body: unknown) =>
  invoke(createLinkHandler, { method: 'POST', path: '/api/shared-link', headers: bearer(token), body });
const get = (token: string, id: string) =>
  invoke(getLinkHandler, { path: `/api/shared-link/${id}`, headers: bearer(token), pathParameters: { id } });
const me = (query: Record<string, string>, headers: Record<string, string> = {}) =>
  invoke(getMyLinkHandler, { path: '/api/shared-link/me', query, headers });
const patch = (token: string, id: string, body: unknown) =>
  invoke(updateLinkHandler, { method: 'PATCH', path: `/api/shared-link/${id}`, headers: bearer(token), pathParameters: { id }, body });
const remove = (token: string, id: string) =>
  invoke(removeLinkHandler, { method: 'DELETE', path: `/api/shared-link/${id}`, headers: bearer(token), pathParameters: { id } });

const camera = { make: 'Leica', model: 'Q3', latitude: 48.85, longitude: 2.35, city: 'Paris', description: 'private place' };

describe('POST /shared-link', () => {
  it('needs a signed-in user', async () => {
    expect((await invoke(createLinkHandler, { method: 'POST', path: '/api/shared-link', body: {} })).status).toBe(401);
  });

  it.each([
    [undefined, ['type must be one of the following values: ALBUM, INDIVIDUAL']],
    [{ type: 'ALBUM' }, 'Invalid albumId'],
    [{ type: 'INDIVIDUAL', assetId: '00000000-0000-4000-a000-000000000000' }, 'Invalid assetIds'],
    [{ type: 'INDIVIDUAL', assetIds: [] }, 'Invalid assetIds'],
    [{ type: 'INDIVIDUAL', assetIds: ['x'] }, ['each value in assetIds must be a UUID']],
    [{ type: 'ALBUM', albumId: '00000000-0000-4000-a000-000000000000' }, 'Not found or no album.share access'],
    [{ type: 'INDIVIDUAL', assetIds: ['00000000-0000-4000-a000-000000000000'] }, 'Not found or no asset.share access'],
    [{ type: 'ALBUM', albumId: '00000000-0000-4000-a000-000000000000', expiresAt: 'tomorrow' }, 'expiresAt must be a date string'],
    [{ type: 'ALBUM', albumId: '00000000-0000-4000-a000-000000000000', showMetadata: 'maybe' }, ['showMetadata must be a boolean value']],
  ])('%j → 400 %j', async (body, message) => {
    const reply = await create(accounts.user1.accessToken, body);
    expect({ status: reply.status, message: reply.body.message }).toEqual({ status: 400, message });
  });

  it("refuses another user's album and assets", async () => {
    const album = await createAlbum(accounts.user2.accessToken, { albumName: 'theirs' });
    const asset = await addPhoto(accounts.user2.accessToken);
    const mine = await addPhoto(accounts.user1.accessToken);
    expect((await create(accounts.user1.accessToken, { type: 'ALBUM', albumId: album.id })).body.message).toBe(
      'Not found or no album.share access',
    );
    expect((await create(accounts.user1.accessToken, { type: 'INDIVIDUAL', assetIds: [mine, asset] })).body.message).toBe(
      'Not found or no asset.share access',
    );
  });

  it('creates an ALBUM link: 201, defaults as Immich, a 67-character key, no assets and no album yet', async () => {
    const album = await createAlbum(accounts.user1.accessToken, { albumName: 'linked' });
    const reply = await create(accounts.user1.accessToken, { type: 'ALBUM', albumId: album.id });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      id: expect.any(String),
      description: null,
      password: null,
      userId: accounts.user1.userId,
      key: expect.stringMatching(/^[A-Za-z0-9_-]{67}$/),
      type: 'ALBUM',
      createdAt: expect.any(String),
      expiresAt: null,
      assets: [],
      allowUpload: true,
      allowDownload: true,
      showMetadata: true,
    });
  });
});

describe('GET /shared-link/:id', () => {
  it('the creator sees the link with the album as createAlbum returned it (empty album) and the same key', async () => {
    const album = await createAlbum(accounts.user1.accessToken, { albumName: 'empty for link' });
    const link = (await create(accounts.user1.accessToken, { type: 'ALBUM', albumId: album.id })).body;
    const reply = await get(accounts.user1.accessToken, link.id);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: link.id, key: link.key, userId: accounts.user1.userId, type: 'ALBUM', assets: [] });
    expect(reply.body.album).toEqual(album);
  });

  it('another user, an unknown id: 400 Shared link not found; no credentials: 401', async () => {
    const album = await createAlbum(accounts.user1.accessToken, { albumName: 'private' });
    const link = (await create(accounts.user1.accessToken, { type: 'ALBUM', albumId: album.id })).body;
    for (const [token, id] of [
      [accounts.admin.accessToken, link.id],
      [accounts.user1.accessToken, '00000000-0000-4000-a000-000000000000'],
    ] as const) {
      expect((await get(token, id)).body).toEqual({ message: 'Shared link not found', error: 'Bad Request', statusCode: 400 });
    }
    expect((await invoke(getLinkHandler, { path: `/api/shared-link/${link.id}`, pathParameters: { id: link.id } })).status).toBe(401);
  });

  it('assets = the link’s own then the album’s, each by fileCreatedAt ascending, no duplicates, no trashed; with EXIF', async () => {
    const token = accounts.user2.accessToken;
    const d = (iso: string) => new Date(iso);
    const a1 = await addPhoto(token, camera, d('2021-01-01T00:00:00.000Z'));
    const a2 = await addPhoto(token, {}, d('2020-01-01T00:00:00.000Z'));
    const a3 = await addPhoto(token, {}, d('2019-01-01T00:00:00.000Z'));
    const gone = await addPhoto(token, {}, d('2018-01-01T00:00:00.000Z'));
    const album = await createAlbum(token, { albumName: 'mixed', assetIds: [a1, a3, gone] });
    const link = (await create(token, { type: 'INDIVIDUAL', assetIds: [a1, a2], showMetadata: false })).body;
    await trash(token, [gone]);
    // An INDIVIDUAL link has no album; an ALBUM link lists the album's.
    expect((await get(token, link.id)).body.assets.map((asset: { id: string }) => asset.id)).toEqual([a2, a1]);
    const albumLink = (await create(token, { type: 'ALBUM', albumId: album.id })).body;
    const reply = (await get(token, albumLink.id)).body;
    expect(reply.assets.map((asset: { id: string }) => asset.id)).toEqual([a3, a1]);
    expect(reply.album).toMatchObject({
      id: album.id,
      assetCount: 2,
      assets: [],
      shared: false,
      hasSharedLink: false,
      startDate: '2019-01-01T00:00:00.000Z',
      endDate: '2021-01-01T00:00:00.000Z',
    });
    // The creator's view keeps the metadata even when the link hides it from visitors.
    expect((await get(token, link.id)).body.assets[1]).toMatchObject({ exifInfo: { make: 'Leica' }, originalPath: expect.any(String) });
  });
});

describe('GET /shared-link/me (the visitor)', () => {
  it('with showMetadata:false every asset is reduced: no EXIF, GPS, file names or paths', async () => {
    const token = accounts.user1.accessToken;
    const asset = await addPhoto(token, camera);
    const link = (await create(token, { type: 'INDIVIDUAL', assetIds: [asset], showMetadata: false })).body;
    const reply = await me({ key: link.key });
    expect(reply.status).toBe(200);
    expect(reply.body.assets).toEqual([
      {
        id: asset,
        type: 'IMAGE',
        thumbhash: null,
        localDateTime: expect.any(String),
        resized: false,
        duration: '0:00:00.00000',
        livePhotoVideoId: null,
        hasMetadata: false,
      },
    ]);
    const text = JSON.stringify(reply.body);
    for (const leak of ['Leica', '48.85', 'Paris', 'private place', 'photo.jpg', 'upload/']) expect(text).not.toContain(leak);
  });

  it('with showMetadata:true the visitor gets full assets (isFavorite false: not the owner)', async () => {
    const token = accounts.user1.accessToken;
    const asset = await addPhoto(token, camera);
    const link = (await create(token, { type: 'INDIVIDUAL', assetIds: [asset] })).body;
    const reply = await me({}, { 'x-immich-share-key': link.key });
    expect(reply.body.assets[0]).toMatchObject({ id: asset, exifInfo: { make: 'Leica' }, isFavorite: false });
    // The key also works in hex (100 characters), as Immich reads it.
    const hex = Buffer.from(link.key, 'base64url').toString('hex');
    expect(hex).toHaveLength(100);
    expect((await me({ key: hex })).body).toMatchObject({ id: link.id, key: link.key });
  });

  it('password links: 401 Invalid password without it; with it a token (and cookie) that then suffices', async () => {
    const token = accounts.user1.accessToken;
    const asset = await addPhoto(token);
    const link = (await create(token, { type: 'INDIVIDUAL', assetIds: [asset], password: 'foo' })).body;
    // A stand-in for the password, never the password itself (only its hash is stored).
    expect(link.password).toEqual(expect.stringMatching(/^[\w-]{24}$/));
    expect(link.password).not.toBe('foo');
    expect((await me({ key: link.key })).body).toEqual({ message: 'Invalid password', error: 'Unauthorized', statusCode: 401 });
    expect((await me({ key: link.key, password: 'bar' })).status).toBe(401);
    const ok = await me({ key: link.key, password: 'foo' });
    expect(ok.status).toBe(200);
    expect(ok.body.token).toEqual(expect.any(String));
    expect(ok.cookies[0]).toMatch(/^immich_shared_link_token=/);
    expect((await me({ key: link.key, token: ok.body.token })).status).toBe(200);
    expect((await me({ key: link.key }, { cookie: ok.cookies[0]?.split(';')[0] ?? '' })).status).toBe(200);
    // Neither the password nor the key is stored in clear.
    const stored = JSON.stringify(await tableItems());
    expect(stored).not.toContain(link.key);
    expect(stored).not.toContain('"foo"');
  });

  it('marks the link’s token cookie Secure behind HTTPS, as the sign-in cookies (issue 49, Low 6)', async () => {
    const token = accounts.user1.accessToken;
    const asset = await addPhoto(token);
    const link = (await create(token, { type: 'INDIVIDUAL', assetIds: [asset], password: 'secure me' })).body;
    const calls = {
      'GET /shared-link/me': (headers: Record<string, string>) => me({ key: link.key, password: 'secure me' }, headers),
      'GET /shared-links/me': (headers: Record<string, string>) =>
        invoke(getMyLinkV3, { path: '/api/shared-links/me', query: { key: link.key, password: 'secure me' }, headers }),
      'POST /shared-links/login': (headers: Record<string, string>) =>
        invoke(linkLoginV3, {
          method: 'POST',
          path: '/api/shared-links/login',
          query: { key: link.key },
          headers,
          body: { password: 'secure me' },
        }),
    };
    const attributes = (cookie: string | undefined) =>
      (cookie ?? '')
        .split(';')
        .slice(1)
        .map((part) => part.trim())
        .filter(Boolean);
    for (const [route, call] of Object.entries(calls)) {
      const secure = await call({ 'x-forwarded-proto': 'https' });
      expect(secure.cookies, route).toHaveLength(1);
      expect(secure.cookies[0], route).toMatch(/^immich_shared_link_token=[^;]+;/);
      expect(attributes(secure.cookies[0]), route).toEqual(['HttpOnly', 'Secure', 'Path=/', 'Max-Age=86400', 'SameSite=Lax']);
      // Plain HTTP (`npm start` on localhost): a Secure cookie would never be sent back.
      const plain = await call({});
      expect(attributes(plain.cookies[0]), route).toEqual(['HttpOnly', 'Path=/', 'Max-Age=86400', 'SameSite=Lax']);
    }
  });

  it('v3: POST /shared-links/login proves the password (every time) and sets the cookie the web app then reads the link with', async () => {
    const token = accounts.user1.accessToken;
    const asset = await addPhoto(token, { comment: 'v3 behind a password' });
    const link = (await create(token, { type: 'INDIVIDUAL', assetIds: [asset], password: 'open sesame' })).body;
    const login = (key: string, password: unknown, headers: Record<string, string> = {}) =>
      invoke(linkLoginV3, { method: 'POST', path: '/api/shared-links/login', query: { key }, headers, body: { password } });
    const meV3 = (key: string, headers: Record<string, string> = {}) =>
      invoke(getMyLinkV3, { path: '/api/shared-links/me', query: { key }, headers });
    expect(await meV3(link.key)).toMatchObject({ status: 401, body: { message: 'Invalid password' } });
    expect(await login(link.key, 'wrong')).toMatchObject({ status: 401, body: { message: 'Invalid password' } });
    expect((await login(link.key, 42)).status).toBe(400);
    const ok = await login(link.key, 'open sesame');
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ id: link.id, type: 'INDIVIDUAL', assets: [expect.objectContaining({ id: asset })] });
    const cookie = ok.cookies[0]?.split(';')[0] ?? '';
    expect(cookie).toMatch(/^immich_shared_link_token=/);
    expect((await meV3(link.key, { cookie })).status).toBe(200);
    // Holding a token is not the password: a wrong one is refused still.
    expect((await login(link.key, 'wrong', { cookie })).status).toBe(401);
    const open = (await create(token, { type: 'INDIVIDUAL', assetIds: [asset] })).body;
    expect(await login(open.key, 'anything')).toMatchObject({ status: 400, body: { message: 'Shared link is not password protected' } });
    // A signed-in user is not a visitor.
    expect(
      (await invoke(linkLoginV3, { method: 'POST', path: '/api/shared-links/login', headers: bearer(token), body: { password: 'x' } }))
        .status,
    ).toBe(403);
  });

  it('password tokens cannot be forged from the link id, end with their cookie, and die with the password', async () => {
    const token = accounts.user2.accessToken;
    const asset = await addPhoto(token);
    const link = (await create(token, { type: 'INDIVIDUAL', assetIds: [asset], password: 'hunter2' })).body;
    // Immich's token was SHA-256 of `<id>-<password>`: computable by anyone who knows the id.
    const immichToken = createHash('sha256').update(`${link.id}-hunter2`).digest('base64');
    expect((await me({ key: link.key, token: immichToken })).body.message).toBe('Invalid password');
    const earned = (await me({ key: link.key, password: 'hunter2' })).body.token as string;
    expect(earned).toMatch(/^\d+\.[\w-]{43}$/);
    expect(Number(earned.split('.')[0]) - Date.now() / 1000).toBeCloseTo(86_400, -2);
    // A day later it is worth nothing (made here with the deployment's secret, as the server would have).
    const [passwordHash] = (await tableItems('sharedLink')).filter((item) => item.id === link.id).map((item) => String(item.passwordHash));
    const stale = sharedLinkToken(process.env.SHARED_LINK_SECRET ?? '', link.id, passwordHash ?? '', Date.now() - 86_401_000);
    expect((await me({ key: link.key, token: stale })).body.message).toBe('Invalid password');
    expect((await me({ key: link.key, token: earned })).status).toBe(200);
    expect((await patch(token, link.id, { password: 'correct horse' })).status).toBe(200);
    expect((await me({ key: link.key, token: earned })).body.message).toBe('Invalid password');
  });

  it('a password link’s key alone opens only the link’s own route; the token its password earns opens the rest, until the password changes', async () => {
    const token = accounts.user1.accessToken;
    const asset = await addPhoto(token, { comment: 'behind a password' });
    // An album link: its visitor has the timeline too.
    const album = await createAlbum(token, { albumName: 'Behind a password', assetIds: [asset] });
    const link = (await create(token, { type: 'ALBUM', albumId: album.id, password: 'open sesame', allowDownload: true })).body;
    const visit = (cookie?: string) => {
      const headers = { 'x-immich-share-key': link.key, ...(cookie ? { cookie } : {}) };
      const id = { pathParameters: { id: asset }, headers };
      return Promise.all([
        invoke(getTimeBucketsHandler, { path: '/api/asset/time-buckets', query: { size: 'MONTH', albumId: album.id }, headers }),
        invoke(getTimeBucketHandler, {
          path: '/api/asset/time-bucket',
          query: { size: 'MONTH', albumId: album.id, timeBucket: '2024-01-01T00:00:00.000Z' },
          headers,
        }),
        invoke(getAssetInfoHandler, { path: `/api/asset/${asset}`, ...id }),
        invoke(serveFileHandler, { path: `/api/asset/file/${asset}`, ...id }),
        invoke(thumbnailHandler, { path: `/api/asset/thumbnail/${asset}`, query: { format: 'JPEG' }, ...id }),
        invoke(downloadFileHandler, { method: 'POST', path: `/api/download/asset/${asset}`, ...id }),
        invoke(downloadInfoHandler, { method: 'POST', path: '/api/download/info', headers, body: { assetIds: [asset] } }),
        invoke(downloadArchiveHandler, { method: 'POST', path: '/api/download/archive', headers, body: { assetIds: [asset] } }),
      ]);
    };
    for (const reply of await visit()) {
      expect(reply.body).toEqual({ message: 'Invalid password', error: 'Unauthorized', statusCode: 401 });
    }
    const cookie = (await me({ key: link.key, password: 'open sesame' })).cookies[0]?.split(';')[0] ?? '';
    // The thumbnail answers 404 until the media job made it; nothing else but success.
    const unlocked = await visit(cookie);
    expect(unlocked.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 404, 200, 201, 200]);
    expect((await patch(token, link.id, { password: 'new secret' })).status).toBe(200);
    for (const reply of await visit(cookie)) expect(reply.status).toBe(401);
    // A link without a password, and a cookie of another link, change nothing for an open link.
    const open = (await create(token, { type: 'INDIVIDUAL', assetIds: [asset] })).body;
    expect(open.key).toEqual(expect.any(String));
    const info = await invoke(getAssetInfoHandler, {
      path: `/api/asset/${asset}`,
      pathParameters: { id: asset },
      headers: { 'x-immich-share-key': open.key, cookie },
    });
    expect(info.status).toBe(200);
  });

  it('a link whose key item was written before it carried the password is still locked (the link itself is read)', async () => {
    const token = accounts.user2.accessToken;
    const asset = await addPhoto(token, { comment: 'older link' });
    const link = (await create(token, { type: 'INDIVIDUAL', assetIds: [asset], password: 'from before' })).body;
    const [keyItem] = (await tableItems('sharedLinkKey')).filter((item) => item.linkId === link.id);
    expect(keyItem?.passwordHash).toEqual(expect.stringMatching(/^\$argon2id\$/));
    await DynamoDBDocumentClient.from(new DynamoDBClient({})).send(
      new UpdateCommand({
        TableName: process.env.TABLE_NAME,
        Key: { pk: keyItem?.pk, sk: keyItem?.sk },
        UpdateExpression: 'REMOVE passwordHash',
      }),
    );
    const info = (cookie?: string) =>
      invoke(getAssetInfoHandler, {
        path: `/api/asset/${asset}`,
        pathParameters: { id: asset },
        headers: { 'x-immich-share-key': link.key, ...(cookie ? { cookie } : {}) },
      });
    expect((await info()).status).toBe(401);
    const cookie = (await me({ key: link.key, password: 'from before' })).cookies[0]?.split(';')[0] ?? '';
    expect((await info(cookie)).status).toBe(200);
  });

  it('a bad key, an expired link, a deleted link: 401 Invalid share key; a Bearer token: 403; a key elsewhere: 403', async () => {
    const token = accounts.user1.accessToken;
    const asset = await addPhoto(token);
    expect((await me({ key: 'not-a-key' })).body).toEqual({ message: 'Invalid share key', error: 'Unauthorized', statusCode: 401 });
    const expired = (await create(token, { type: 'INDIVIDUAL', assetIds: [asset], expiresAt: '2000-01-01T00:00:00.000Z' })).body;
    expect((await me({ key: expired.key })).body.message).toBe('Invalid share key');
    expect((await me({}, bearer(token))).status).toBe(403);
    const live = (await create(token, { type: 'INDIVIDUAL', assetIds: [asset] })).body;
    expect((await invoke(getMyUserInfo, { path: '/api/user/me', query: { key: live.key } })).status).toBe(403);
    expect((await remove(token, live.id)).status).toBe(200);
    expect((await me({ key: live.key })).body.message).toBe('Invalid share key');
  });
});

describe('GET /shared-link, PATCH, DELETE', () => {
  it('lists my links only, newest first', async () => {
    const asset = await addPhoto(accounts.user1.accessToken);
    for (const description of ['older', 'newer'])
      await create(accounts.user1.accessToken, { type: 'INDIVIDUAL', assetIds: [asset], description });
    await create(accounts.user2.accessToken, { type: 'INDIVIDUAL', assetIds: [await addPhoto(accounts.user2.accessToken)] });
    const mine = (await invoke(getAllLinksHandler, { path: '/api/shared-link', headers: bearer(accounts.user1.accessToken) })).body;
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect(mine.every((link: { userId: string }) => link.userId === accounts.user1.userId)).toBe(true);
    expect(mine.map((link: { createdAt: string }) => link.createdAt)).toEqual(
      [...mine.map((link: { createdAt: string }) => link.createdAt)].sort().reverse(),
    );
    expect((await invoke(getAllLinksHandler, { path: '/api/shared-link', headers: bearer(accounts.admin.accessToken) })).body).toEqual([]);
  });

  it('PATCH changes the fields; changeExpiryTime without expiresAt removes the expiry; an expiry re-opens an expired link', async () => {
    const token = accounts.user1.accessToken;
    const asset = await addPhoto(token);
    const link = (await create(token, { type: 'INDIVIDUAL', assetIds: [asset], expiresAt: '2000-01-01T00:00:00.000Z' })).body;
    const reply = await patch(token, link.id, { description: 'hello', allowDownload: false, showMetadata: false, changeExpiryTime: true });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ description: 'hello', allowDownload: false, showMetadata: false, expiresAt: null, key: link.key });
    expect((await me({ key: link.key })).status).toBe(200);
    expect((await patch(token, link.id, { expiresAt: '2001-01-01T00:00:00.000Z' })).body.expiresAt).toBe('2001-01-01T00:00:00.000Z');
    expect((await me({ key: link.key })).status).toBe(401);
    expect((await patch(token, link.id, { expiresAt: 'later' })).body.message).toBe('expiresAt must be a date string');
    expect((await patch(accounts.user2.accessToken, link.id, { description: 'x' })).body.message).toBe('Shared link not found');
    expect((await patch(token, '00000000-0000-4000-a000-000000000000', {})).status).toBe(400);
  });

  it('DELETE: 200 for mine; 400 for unknown or someone else’s', async () => {
    const token = accounts.user1.accessToken;
    const asset = await addPhoto(token);
    const link = (await create(token, { type: 'INDIVIDUAL', assetIds: [asset] })).body;
    expect((await remove(accounts.user2.accessToken, link.id)).body.message).toBe('Shared link not found');
    const reply = await remove(token, link.id);
    expect(reply.status).toBe(200);
    expect((await remove(token, link.id)).status).toBe(400);
    expect((await get(token, link.id)).status).toBe(400);
  });

  it('an album with a link says so in GET /album', async () => {
    const token = accounts.admin.accessToken;
    const album = await createAlbum(token, { albumName: 'shared album' });
    const link = (await create(token, { type: 'ALBUM', albumId: album.id })).body;
    const { handler } = await import('#functions/album/get-all-albums.ts');
    expect((await invoke(handler, { path: '/api/album', headers: bearer(token) })).body[0]).toMatchObject({
      id: album.id,
      shared: true,
      hasSharedLink: true,
    });
    await remove(token, link.id);
    expect((await invoke(handler, { path: '/api/album', headers: bearer(token) })).body[0]).toMatchObject({
      shared: false,
      hasSharedLink: false,
    });
  });
});

describe('PUT / DELETE /shared-link/:id/assets', () => {
  const put = (token: string, id: string, assetIds: unknown) =>
    invoke(addLinkAssetsHandler, {
      method: 'PUT',
      path: `/api/shared-link/${id}/assets`,
      headers: bearer(token),
      pathParameters: { id },
      body: { assetIds },
    });
  const del = (token: string, id: string, assetIds: unknown) =>
    invoke(removeLinkAssetsHandler, {
      method: 'DELETE',
      path: `/api/shared-link/${id}/assets`,
      headers: bearer(token),
      pathParameters: { id },
      body: { assetIds },
    });

  it('an INDIVIDUAL link gains and loses assets with per-id results', async () => {
    const token = accounts.user1.accessToken;
    const [a, b] = [await addPhoto(token), await addPhoto(token)];
    const theirs = await addPhoto(accounts.user2.accessToken);
    const link = (await create(token, { type: 'INDIVIDUAL', assetIds: [a] })).body;
    expect((await put(token, link.id, [a, b, theirs])).body).toEqual([
      { assetId: a, success: false, error: 'duplicate' },
      { assetId: b, success: true },
      { assetId: theirs, success: false, error: 'no_permission' },
    ]);
    expect((await get(token, link.id)).body.assets.map((asset: { id: string }) => asset.id).sort()).toEqual([a, b].sort());
    expect((await del(token, link.id, [a, theirs])).body).toEqual([
      { assetId: a, success: true },
      { assetId: theirs, success: false, error: 'not_found' },
    ]);
    expect((await get(token, link.id)).body.assets.map((asset: { id: string }) => asset.id)).toEqual([b]);
    expect((await put(accounts.user2.accessToken, link.id, [theirs])).body.message).toBe('Shared link not found');
    expect((await put(token, link.id, ['x'])).body.message).toEqual(['each value in assetIds must be a UUID']);
  });

  it('an ALBUM link: 400 Invalid shared link type', async () => {
    const album = await createAlbum(accounts.user1.accessToken, { albumName: 'typed' });
    const link = (await create(accounts.user1.accessToken, { type: 'ALBUM', albumId: album.id })).body;
    const asset = await addPhoto(accounts.user1.accessToken);
    expect((await put(accounts.user1.accessToken, link.id, [asset])).body.message).toBe('Invalid shared link type');
    expect((await del(accounts.user1.accessToken, link.id, [asset])).body.message).toBe('Invalid shared link type');
  });
});
