import type * as v1 from '@immich/sdk';
import * as v3 from '@immich/sdk-v3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeJpeg } from '../support/photos.ts';
import { androidUserAgent, type OpenSocket, openSocket } from '../support/realtime.ts';
import { sdkUpload } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';

/**
 * Immich's realtime socket (docs/web-app.md, "Realtime") as its apps use it, with the real
 * socket.io-client: the v3.1 web app's way (path `/api/socket.io`, WebSocket only, the session
 * cookie) and the 3.x mobile app's (the cookie and its User-Agent). Each event is received after
 * the SDK call that causes it, with its payload's shape, on `npm start`'s server and on the
 * synthesized stack served as `npm run start:deployed` serves it (API Gateway's WebSocket API
 * through the distribution's `/api/socket.io/*`, the template's functions, IAM checked).
 */
describe('Immich’s realtime socket', () => {
  const server = useServer();
  const sockets: OpenSocket[] = [];
  const open = (options: Parameters<typeof openSocket>[1]): OpenSocket => {
    const socket = openSocket(server.origin, options);
    sockets.push(socket);
    return socket;
  };
  let admin: { token: string; id: string; v1: { baseUrl: string; headers: Record<string, string> } };

  beforeAll(async () => {
    const { baseUrl } = server;
    await v3.signUpAdmin({ signUpDto: { email: 'admin@immich.cloud', password: 'password', name: 'Admin' } }, { baseUrl });
    const { accessToken, userId } = await v3.login(
      { loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } },
      { baseUrl },
    );
    admin = { token: accessToken, id: userId, v1: { baseUrl, headers: { authorization: `Bearer ${accessToken}` } } };
  });
  afterAll(() => {
    for (const socket of sockets) socket.close();
  });

  const v3As = (token: string) => ({ baseUrl: server.baseUrl, headers: { authorization: `Bearer ${token}` } });

  it('connects as the web app does and is told the server’s version (v1.100’s, no v3 build being served)', async () => {
    const web = open({ token: admin.token });
    await web.connected();
    expect(await web.next('on_server_version')).toEqual([{ major: 1, minor: 100, patch: 0 }]);
    expect(web.socket.connected).toBe(true);
  });

  it('connects as the 3.x mobile app does and is told v3’s version', async () => {
    const app = open({ token: admin.token, userAgent: androidUserAgent });
    await app.connected();
    expect(await app.next('on_server_version')).toEqual([{ major: 3, minor: 2, patch: 2, prerelease: null }]);
  });

  it('tells a connection without valid credentials so, as Immich does, and the client does not reconnect', async () => {
    const stranger = open({ token: 'not-a-token' });
    expect(await stranger.next('error')).toEqual(['unauthorized']);
    expect(await stranger.closed()).toBe('io server disconnect');
    expect(stranger.received.map((event) => event.name)).toEqual(['error']);
  });

  it('ignores credentials in the query, as Immich does', async () => {
    const { secret } = await v3.createApiKey({ apiKeyCreateDto: { name: 'query', permissions: [v3.Permission.All] } }, v3As(admin.token));
    const viaQuery = openSocket(`${server.origin}?apiKey=${secret}`, {});
    sockets.push(viaQuery);
    expect(await viaQuery.next('error')).toEqual(['unauthorized']);
    const viaHeader = open({ headers: { 'x-api-key': secret } });
    expect(await viaHeader.next('on_server_version')).toHaveLength(1);
  });

  it('refuses an API key without the `all` permission, as Immich does', async () => {
    const { secret } = await v3.createApiKey(
      { apiKeyCreateDto: { name: 'narrow', permissions: [v3.Permission.AssetRead] } },
      v3As(admin.token),
    );
    const narrow = open({ headers: { 'x-api-key': secret } });
    expect(await narrow.next('error')).toEqual(['unauthorized']);
  });

  it('tells the web app of an upload once its previews exist (`on_upload_success`, v1.100’s asset)', async () => {
    const web = open({ token: admin.token });
    await web.next('on_server_version');
    const id = await sdkUpload(admin.v1, makeJpeg({ width: 64, height: 48, color: [200, 10, 10] }), 'web-upload.jpg');
    const [asset] = await web.next('on_upload_success', (asset: v1.AssetResponseDto) => asset.id === id);
    expect(asset).toMatchObject({ id, ownerId: admin.id, deviceAssetId: 'web-upload.jpg', resized: true, isTrashed: false, type: 'IMAGE' });
    expect(asset).toHaveProperty('exifInfo');
    expect(asset).toHaveProperty('owner.email', 'admin@immich.cloud');
    expect((asset as v1.AssetResponseDto).thumbhash).toEqual(expect.any(String));
  });

  it('tells the mobile app of an upload: `on_upload_success` (v3’s asset) and `AssetUploadReadyV2` (the sync stream’s asset and EXIF)', async () => {
    const app = open({ token: admin.token, userAgent: androidUserAgent });
    await app.next('on_server_version');
    const id = await sdkUpload(admin.v1, makeJpeg({ width: 80, height: 60, color: [10, 200, 10] }), 'app-upload.jpg');
    const [uploaded] = await app.next('on_upload_success', (asset: v3.AssetResponseDto) => asset.id === id);
    expect(uploaded).toMatchObject({ id, ownerId: admin.id, visibility: 'timeline', isEdited: false, width: 80, height: 60 });
    expect(uploaded).toHaveProperty('checksum', expect.any(String));
    const [ready] = await app.next('AssetUploadReadyV2', (event: { asset: { id: string } }) => event.asset.id === id);
    expect(ready).toEqual({
      asset: expect.objectContaining({
        id,
        ownerId: admin.id,
        originalFileName: 'app-upload.jpg',
        thumbhash: expect.any(String),
        checksum: expect.any(String),
        visibility: 'timeline',
        stackId: null,
        libraryId: null,
        isEdited: false,
        width: 80,
        height: 60,
      }),
      exif: expect.objectContaining({ assetId: id, exifImageWidth: 80, exifImageHeight: 60, fps: null }),
    });
  });

  it('tells both apps an edit’s files are made (`AssetEditReadyV2`), after an edit and after its removal', async () => {
    const app = open({ token: admin.token, userAgent: androidUserAgent });
    await app.next('on_server_version');
    const id = await sdkUpload(admin.v1, makeJpeg({ width: 120, height: 90, color: [10, 10, 200] }), 'edit.jpg');
    await app.next('AssetUploadReadyV2', (event: { asset: { id: string } }) => event.asset.id === id);
    const edited = await v3.editAsset(
      { id, assetEditsCreateDto: { edits: [{ action: v3.AssetEditAction.Rotate, parameters: { angle: 90 } }] } },
      v3As(admin.token),
    );
    const [ready] = await app.next('AssetEditReadyV2', (event: { asset: { id: string }; edit: unknown[] }) => event.asset.id === id);
    expect(ready).toEqual({
      asset: expect.objectContaining({ id, isEdited: true, width: 90, height: 120 }),
      edit: [{ id: edited.edits[0]?.id, assetId: id, action: 'rotate', parameters: { angle: 90 }, sequence: 0 }],
    });
    await v3.removeAssetEdits({ id }, v3As(admin.token));
    const [removed] = await app.next(
      'AssetEditReadyV2',
      (event: { asset: { id: string }; edit: unknown[] }) => event.asset.id === id && event.edit.length === 0,
    );
    expect(removed).toMatchObject({ asset: { id, isEdited: false, width: 120, height: 90 }, edit: [] });
  });
});
