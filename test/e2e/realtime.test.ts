import * as v1 from '@immich/sdk';
import * as v3 from '@immich/sdk-v3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { turnOffMlTasks } from '../support/ml-tasks.ts';
import { makeJpeg } from '../support/photos.ts';
import { androidUserAgent, type OpenSocket, openSocket } from '../support/realtime.ts';
import { sdkUpload } from '../support/sdk.ts';
import { useServer } from '../support/server.ts';
import { hangGuard } from '../support/timeouts.ts';

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
    // Not about OCR or duplicates or faces: off, as each photo's cost (test/support/ml-tasks.ts).
    await turnOffMlTasks(admin.v1, ['facialRecognition', 'ocr', 'duplicateDetection']);
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

  /** A photo of the admin's, its previews made (the mobile app told of it). */
  const readyPhoto = async (name: string, color: [number, number, number]): Promise<string> => {
    const app = open({ token: admin.token, userAgent: androidUserAgent });
    await app.next('on_server_version');
    const id = await sdkUpload(admin.v1, makeJpeg({ width: 40, height: 30, color }), name);
    await app.next('AssetUploadReadyV2', (event: { asset: { id: string } }) => event.asset.id === id);
    app.close();
    return id;
  };

  it('tells the user’s apps of a trash (`on_asset_trash`), a restore (`on_asset_restore`) and a deletion for good (`on_asset_delete`)', async () => {
    const [first, second] = [await readyPhoto('trash-1.jpg', [1, 2, 3]), await readyPhoto('trash-2.jpg', [3, 2, 1])];
    const web = open({ token: admin.token });
    await web.next('on_server_version');
    await v3.deleteAssets({ assetBulkDeleteDto: { ids: [first, second] } }, v3As(admin.token));
    expect(await web.next('on_asset_trash')).toEqual([[first, second]]);
    await v3.restoreAssets({ bulkIdsDto: { ids: [first] } }, v3As(admin.token));
    expect(await web.next('on_asset_restore')).toEqual([[first]]);
    // One event an asset deleted for good, through v1.100's route as v3's (one core).
    await v1.deleteAssets({ assetBulkDeleteDto: { ids: [first], force: true } }, admin.v1);
    expect(await web.next('on_asset_delete', (id: string) => id === first)).toEqual([first]);
    await v3.emptyTrash(v3As(admin.token));
    expect(await web.next('on_asset_delete', (id: string) => id === second)).toEqual([second]);
    // And the nightly clean-up of the trash's expired photos (a night past `trash.days`).
    const third = await readyPhoto('trash-3.jpg', [2, 3, 1]);
    await v3.deleteAssets({ assetBulkDeleteDto: { ids: [third] } }, v3As(admin.token));
    await server.nightly(new Date(Date.now() + 31 * 86_400_000));
    expect(await web.next('on_asset_delete', (id: string) => id === third)).toEqual([third]);
  });

  it('tells the owner’s apps of a metadata change (`on_asset_update`), each in its generation’s asset', async () => {
    const id = await readyPhoto('update.jpg', [50, 60, 70]);
    const web = open({ token: admin.token });
    const app = open({ token: admin.token, userAgent: androidUserAgent });
    await Promise.all([web.next('on_server_version'), app.next('on_server_version')]);
    await v3.updateAsset({ id, updateAssetDto: { description: 'by the lake', rating: 4 } }, v3As(admin.token));
    const [v1Asset] = await web.next('on_asset_update', (asset: v1.AssetResponseDto) => asset.id === id);
    expect(v1Asset).toMatchObject({ id, deviceAssetId: 'update.jpg', exifInfo: { description: 'by the lake' } });
    const [v3Asset] = await app.next('on_asset_update', (asset: v3.AssetResponseDto) => asset.id === id);
    expect(v3Asset).toMatchObject({ id, visibility: 'timeline', exifInfo: { description: 'by the lake', rating: 4 } });
    // PUT /assets tells of every id, whatever it changes (Immich writes each one's sidecar).
    await v1.updateAssets({ assetBulkUpdateDto: { ids: [id], isFavorite: true } }, admin.v1);
    const [favourite] = await app.next('on_asset_update', (asset: v3.AssetResponseDto) => asset.id === id && asset.isFavorite);
    expect(favourite).toMatchObject({ id, isFavorite: true });
  });

  it('tells the user’s apps their stacks changed (`on_asset_stack_update`, no payload)', async () => {
    const [a, b] = [await readyPhoto('stack-1.jpg', [90, 1, 1]), await readyPhoto('stack-2.jpg', [1, 90, 1])];
    const web = open({ token: admin.token });
    await web.next('on_server_version');
    const stack = await v3.createStack({ stackCreateDto: { assetIds: [a, b] } }, v3As(admin.token));
    expect(await web.next('on_asset_stack_update')).toEqual([]);
    const before = web.received.filter((event) => event.name === 'on_asset_stack_update').length;
    await v3.deleteStack({ id: stack.id }, v3As(admin.token));
    await web.next('on_asset_stack_update', () => web.received.filter((event) => event.name === 'on_asset_stack_update').length > before);
  });

  it('tells every member of an album, its owner too, that its assets changed (`on_album_update`)', async () => {
    const member = await v3.createUserAdmin(
      { userAdminCreateDto: { email: 'member@immich.cloud', password: 'password', name: 'Member' } },
      v3As(admin.token),
    );
    const { accessToken: memberToken } = await v3.login(
      { loginCredentialDto: { email: 'member@immich.cloud', password: 'password' } },
      { baseUrl: server.baseUrl },
    );
    const album = await v3.createAlbum(
      { createAlbumDto: { albumName: 'Shared', albumUsers: [{ userId: member.id, role: v3.AlbumUserRole.Editor }] } },
      v3As(admin.token),
    );
    const id = await readyPhoto('album.jpg', [7, 77, 177]);
    const owner = open({ token: admin.token, userAgent: androidUserAgent });
    const theirs = open({ token: memberToken, userAgent: androidUserAgent });
    await Promise.all([owner.next('on_server_version'), theirs.next('on_server_version')]);
    await v3.addAssetsToAlbum({ id: album.id, bulkIdsDto: { ids: [id] } }, v3As(admin.token));
    expect(await owner.next('on_album_update')).toEqual([album.id]);
    expect(await theirs.next('on_album_update')).toEqual([album.id]);
    // A removal through v1.100's route, as through v3's.
    const told = theirs.received.length;
    await v1.removeAssetFromAlbum({ id: album.id, bulkIdsDto: { ids: [id] } }, admin.v1);
    await theirs.next('on_album_update', () => theirs.received.length > told);
  });

  it('tells an invitee’s v3 app of an album shared with them (`on_notification`), which the bell lists and marks read', async () => {
    const invitee = await v3.createUserAdmin(
      { userAdminCreateDto: { email: 'invitee@immich.cloud', password: 'password', name: 'Invitee' } },
      v3As(admin.token),
    );
    const { accessToken } = await v3.login(
      { loginCredentialDto: { email: 'invitee@immich.cloud', password: 'password' } },
      { baseUrl: server.baseUrl },
    );
    const theirs = open({ token: accessToken, userAgent: androidUserAgent });
    const web = open({ token: accessToken });
    const owner = open({ token: admin.token, userAgent: androidUserAgent });
    await Promise.all([theirs.next('on_server_version'), web.next('on_server_version'), owner.next('on_server_version')]);
    const album = await v3.createAlbum(
      { createAlbumDto: { albumName: 'Invited', albumUsers: [{ userId: invitee.id, role: v3.AlbumUserRole.Viewer }] } },
      v3As(admin.token),
    );
    const [told] = (await theirs.next('on_notification')) as [v3.NotificationDto];
    expect(told).toEqual({
      id: expect.any(String),
      createdAt: expect.any(String),
      level: v3.NotificationLevel.Success,
      type: v3.NotificationType.AlbumInvite,
      title: 'Shared Album Invitation',
      description: 'Admin shared an album (Invited) with you',
      data: { albumId: album.id },
    });
    // What the v3 web app's bell does: the unread ones, then "mark as read".
    const asInvitee = v3As(accessToken);
    expect(await v3.getNotifications({ unread: true }, asInvitee)).toEqual([told]);
    const readAt = new Date().toISOString();
    expect(await v3.updateNotification({ id: told.id, notificationUpdateDto: { readAt } }, asInvitee)).toEqual({ ...told, readAt });
    expect(await v3.getNotifications({ unread: true }, asInvitee)).toEqual([]);
    // The owner is told nothing; the invitee's v1.100 web app (no such event in v1.100) neither.
    await v3.addAssetsToAlbum({ id: album.id, bulkIdsDto: { ids: [await readyPhoto('invited.jpg', [5, 50, 150])] } }, v3As(admin.token));
    await owner.next('on_album_update');
    await theirs.next('on_album_update');
    await web.next('on_album_update');
    expect(owner.received.map((event) => event.name)).not.toContain('on_notification');
    expect(web.received.map((event) => event.name)).not.toContain('on_notification');
    // The viewer was told of the new media too (Immich's AlbumUpdate), in their list.
    expect((await v3.getNotifications({ $type: v3.NotificationType.AlbumUpdate }, asInvitee)).map((n) => n.data)).toEqual([
      { albumId: album.id },
    ]);
  });

  it('tells the owner’s web app a person’s thumbnail is made (`on_person_thumbnail`)', async () => {
    const web = open({ token: admin.token });
    await web.next('on_server_version');
    // A photo naming a face (an XMP region): its person is made at upload, their thumbnail with the previews.
    const photo = makeJpeg({
      width: 200,
      height: 200,
      color: [180, 140, 120],
      mwgFaces: [{ name: 'Ada', x: 0.3, y: 0.3, w: 0.4, h: 0.4 }],
    });
    await sdkUpload(admin.v1, photo, 'ada.jpg');
    const ada = (await v3.getAllPeople({}, v3As(admin.token))).people.find((person) => person.name === 'Ada');
    expect(await web.next('on_person_thumbnail', (id: string) => id === ada?.id)).toEqual([ada?.id]);
  });

  it('tells everyone the configuration changed (`on_config_update`, no payload)', async () => {
    const { accessToken } = await v3.login(
      { loginCredentialDto: { email: 'member@immich.cloud', password: 'password' } },
      { baseUrl: server.baseUrl },
    );
    const someoneElse = open({ token: accessToken, userAgent: androidUserAgent });
    await someoneElse.next('on_server_version');
    const config = await v3.getConfig(v3As(admin.token));
    await v3.updateConfig({ adminConfigDto: { ...config, trash: { ...config.trash, days: config.trash.days + 1 } } }, v3As(admin.token));
    expect(await someoneElse.next('on_config_update')).toEqual([]);
  });

  it('tells a session’s own connections it ended (`on_session_delete`, its id), and no other session’s', async () => {
    const login = () =>
      v3.login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl: server.baseUrl });
    const [leaving, staying] = [await login(), await login()];
    const ending = open({ token: leaving.accessToken });
    const other = open({ token: staying.accessToken });
    await Promise.all([ending.next('on_server_version'), other.next('on_server_version')]);
    const sessionId = (await v3.getSessions(v3As(leaving.accessToken))).find((session) => session.current)?.id;
    await v3.logout(v3As(leaving.accessToken));
    expect(await ending.next('on_session_delete')).toEqual([sessionId]);
    // The other session's socket is told nothing of it (its next event is the user's, below).
    await v3.updateAsset({ id: await readyPhoto('after-logout.jpg', [4, 4, 4]), updateAssetDto: { rating: 1 } }, v3As(staying.accessToken));
    await other.next('on_asset_update');
    expect(other.received.map((event) => event.name)).not.toContain('on_session_delete');
  });

  it('tells everyone a user was deleted for good (`on_user_delete`)', async () => {
    const web = open({ token: admin.token });
    await web.next('on_server_version');
    const leaving = await v3.createUserAdmin(
      { userAdminCreateDto: { email: 'leaving@immich.cloud', password: 'password', name: 'Leaving' } },
      v3As(admin.token),
    );
    await v3.deleteUserAdmin({ id: leaving.id, userAdminDeleteDto: { force: true } }, v3As(admin.token));
    // Removed for good at the nightly function's next tick, which tells every app.
    await server.nightly(new Date());
    expect(await web.next('on_user_delete')).toEqual([leaving.id]);
  });
});

describe('Immich’s realtime socket over time', () => {
  // Short, so that a test sees several pings in seconds: pinged every 2 s. The client waits 62 s
  // for one: on a loaded 2-core machine running the whole suite, starting a heartbeat's Lambda
  // environment (deployed form) has taken over 5 s, and a tick every second then started a new
  // environment per tick faster than they could run. The test counts pings, never times them.
  const server = useServer({ heartbeat: { pingEveryMs: 2000, pingIntervalMs: 2000, pingTimeoutMs: 60_000 } });

  it('keeps a connection open across several ping intervals: the server pings, the client answers, nothing closes it', async () => {
    const { baseUrl } = server;
    // The first describe's admin, on this file's table (or a new one when it runs alone).
    await v3
      .signUpAdmin({ signUpDto: { email: 'admin@immich.cloud', password: 'password', name: 'Admin' } }, { baseUrl })
      .catch(() => undefined);
    const { accessToken } = await v3.login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl });
    const web = openSocket(server.origin, { token: accessToken });
    try {
      await web.next('on_server_version');
      // The client closes its socket when no ping comes within the advertised interval and timeout.
      const pinged = async (count: number) => {
        const deadline = Date.now() + hangGuard.wait;
        while (web.pings < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        expect(web.pings).toBeGreaterThanOrEqual(count);
      };
      await pinged(3);
      expect(web.closes).toEqual([]);
      expect(web.socket.connected).toBe(true);
    } finally {
      web.close();
    }
  });
});
