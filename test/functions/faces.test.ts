import { beforeAll, describe, expect, it } from 'vitest';
import { handler as addUsersHandler } from '#functions/album/add-users-to-album.ts';
import { handler as getFacesV1 } from '#functions/face/get-faces.ts';
import { handler as getFacesV3 } from '#functions/v3/face/get-faces.ts';
import { handler as deleteNotification } from '#functions/v3/notification/delete-notification.ts';
import { handler as deleteNotifications } from '#functions/v3/notification/delete-notifications.ts';
import { handler as getNotification } from '#functions/v3/notification/get-notification.ts';
import { handler as getNotifications } from '#functions/v3/notification/get-notifications.ts';
import { handler as updateNotification } from '#functions/v3/notification/update-notification.ts';
import { handler as updateNotifications } from '#functions/v3/notification/update-notifications.ts';
import { handler as getServerLicense } from '#functions/v3/server/get-server-license.ts';
import { handler as getUserLicense } from '#functions/v3/user/get-user-license.ts';
import { bearer, freshUser, login, signUpAdmin } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, createAlbum } from '../support/library.ts';

let adminToken: string;
let owner: { id: string; accessToken: string };
let friend: { id: string; accessToken: string };
let photo: string;

beforeAll(async () => {
  await signUpAdmin();
  adminToken = (await login({ email: 'admin@immich.cloud', password: 'password' })).accessToken;
  owner = await freshUser(adminToken, 'Faces');
  friend = await freshUser(adminToken, 'Friend');
  photo = await addPhoto(owner.accessToken, {
    mwgFaces: [
      { name: 'Ana', x: 0.3, y: 0.3, w: 0.2, h: 0.2 },
      { name: 'Bo', x: 0.7, y: 0.6, w: 0.1, h: 0.2 },
    ],
  });
});

const faces = (token: string, id: string, v3 = false) =>
  invoke(v3 ? getFacesV3 : getFacesV1, { path: v3 ? '/api/faces' : '/api/face', query: { id }, headers: bearer(token) });

describe('an asset’s faces (GET /face, GET /faces)', () => {
  it('lists them in the file’s order, each with its person, in each generation’s shape', async () => {
    const v1 = await faces(owner.accessToken, photo);
    expect(v1.status).toBe(200);
    expect(v1.body.map((face: { person: { name: string } }) => face.person.name)).toEqual(['Ana', 'Bo']);
    expect(v1.body[0]).toEqual({
      id: expect.any(String),
      imageWidth: expect.any(Number),
      imageHeight: expect.any(Number),
      boundingBoxX1: expect.any(Number),
      boundingBoxY1: expect.any(Number),
      boundingBoxX2: expect.any(Number),
      boundingBoxY2: expect.any(Number),
      person: { id: expect.any(String), name: 'Ana', birthDate: null, thumbnailPath: expect.any(String), isHidden: false },
    });
    const v3 = await faces(owner.accessToken, photo, true);
    expect(v3.body.map((face: { id: string }) => face.id)).toEqual(v1.body.map((face: { id: string }) => face.id));
    expect(v3.body[1]).toMatchObject({ sourceType: 'exif', person: { name: 'Bo', isFavorite: false, updatedAt: expect.any(String) } });
    // The box is the region's, in the image's pixels (its left edge at 0.7 of the width, 0.1 wide).
    const bo = v3.body[1];
    expect(bo.boundingBoxX1).toBeLessThan(bo.boundingBoxX2);
    expect(bo.boundingBoxX1 / bo.imageWidth).toBeCloseTo(0.7, 1);
    expect((bo.boundingBoxX2 - bo.boundingBoxX1) / bo.imageWidth).toBeCloseTo(0.1, 1);
  });

  it('shows someone else’s asset (through a shared album) without its people, and refuses a stranger', async () => {
    const album = await createAlbum(owner.accessToken, { albumName: 'Portraits', assetIds: [photo] });
    expect((await faces(friend.accessToken, photo)).body).toEqual({
      message: 'Not found or no asset.read access',
      error: 'Bad Request',
      statusCode: 400,
    });
    const shared = await invoke(addUsersHandler, {
      method: 'PUT',
      path: `/api/album/${album.id}/users`,
      pathParameters: { id: album.id },
      headers: bearer(owner.accessToken),
      body: { sharedUserIds: [friend.id] },
    });
    expect(shared.status).toBe(200);
    const seen = await faces(friend.accessToken, photo, true);
    expect(seen.status).toBe(200);
    expect(seen.body.map((face: { person: unknown }) => face.person)).toEqual([null, null]);
    expect((await faces(owner.accessToken, 'not-a-uuid', true)).status).toBe(400);
  });
});

describe('what an Immich without them answers', () => {
  it('has no product keys (404), and no notifications', async () => {
    const server = await invoke(getServerLicense, { path: '/api/server/license', headers: bearer(adminToken) });
    expect(server).toMatchObject({ status: 404, body: { message: 'Not Found' } });
    // The server's key is the admin's to read.
    expect((await invoke(getServerLicense, { path: '/api/server/license', headers: bearer(owner.accessToken) })).status).toBe(403);
    expect(await invoke(getUserLicense, { path: '/api/users/me/license', headers: bearer(owner.accessToken) })).toMatchObject({
      status: 404,
      body: { message: 'Not Found' },
    });
    const none = await invoke(getNotifications, {
      path: '/api/notifications',
      query: { unread: 'true', level: 'info' },
      headers: bearer(owner.accessToken),
    });
    expect(none).toMatchObject({ status: 200, body: [] });
    expect(
      (await invoke(getNotifications, { path: '/api/notifications', query: { level: 'loud' }, headers: bearer(owner.accessToken) })).status,
    ).toBe(400);
    // Any one of them (none exists) is answered as Immich answers one that is not the caller's.
    const id = '00000000-0000-4000-a000-000000000001';
    const one = { path: `/api/notifications/${id}`, pathParameters: { id }, headers: bearer(owner.accessToken) };
    expect((await invoke(getNotification, one)).body).toMatchObject({ message: 'Not found or no notification.read access' });
    expect((await invoke(updateNotification, { ...one, method: 'PUT', body: { readAt: null } })).body).toMatchObject({
      message: 'Not found or no notification.update access',
    });
    expect((await invoke(deleteNotification, { ...one, method: 'DELETE' })).body).toMatchObject({
      message: 'Not found or no notification.delete access',
    });
    const all = { path: '/api/notifications', headers: bearer(owner.accessToken) };
    expect(
      (await invoke(updateNotifications, { ...all, method: 'PUT', body: { ids: [id], readAt: '2026-01-01T00:00:00Z' } })).body,
    ).toMatchObject({
      message: 'Not found or no notification.update access',
    });
    expect((await invoke(deleteNotifications, { ...all, method: 'DELETE', body: { ids: [id] } })).status).toBe(400);
    // At least one id, as Immich's.
    const empty = await invoke(deleteNotifications, { ...all, method: 'DELETE', body: { ids: [] } });
    expect(empty.body.message).toBe('Validation failed');
  });
});
