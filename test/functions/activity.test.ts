import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createV1 } from '#functions/activity/create-activity.ts';
import { handler as deleteV1 } from '#functions/activity/delete-activity.ts';
import { handler as listV1 } from '#functions/activity/get-activities.ts';
import { handler as statisticsV1 } from '#functions/activity/get-activity-statistics.ts';
import { handler as addUsersHandler } from '#functions/album/add-users-to-album.ts';
import { handler as deleteAlbumHandler } from '#functions/album/delete-album.ts';
import { handler as updateAlbumHandler } from '#functions/album/update-album-info.ts';
import { handler as createV3 } from '#functions/v3/activity/create-activity.ts';
import { handler as deleteV3 } from '#functions/v3/activity/delete-activity.ts';
import { handler as listV3 } from '#functions/v3/activity/get-activities.ts';
import { handler as statisticsV3 } from '#functions/v3/activity/get-activity-statistics.ts';
import { bearer, freshUser, login, signUpAdmin } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, createAlbum, trash } from '../support/library.ts';
import { tableItems } from '../support/table-items.ts';

type User = { id: string; accessToken: string; email: string };
let owner: User;
let member: User;
let stranger: User;
let album: { id: string };
let photo: string;

const share = (albumId: string, userId: string) =>
  invoke(addUsersHandler, {
    method: 'PUT',
    path: `/api/album/${albumId}/users`,
    pathParameters: { id: albumId },
    headers: bearer(owner.accessToken),
    body: { sharedUserIds: [userId] },
  });
const create = (user: User, body: Record<string, unknown>, v3 = false) =>
  invoke(v3 ? createV3 : createV1, {
    method: 'POST',
    path: v3 ? '/api/activities' : '/api/activity',
    headers: bearer(user.accessToken),
    body,
  });
const list = (user: User, query: Record<string, string>, v3 = false) =>
  invoke(v3 ? listV3 : listV1, { path: v3 ? '/api/activities' : '/api/activity', query, headers: bearer(user.accessToken) });
const statistics = (user: User, query: Record<string, string>, v3 = false) =>
  invoke(v3 ? statisticsV3 : statisticsV1, {
    path: v3 ? '/api/activities/statistics' : '/api/activity/statistics',
    query,
    headers: bearer(user.accessToken),
  });
const remove = (user: User, id: string, v3 = false) =>
  invoke(v3 ? deleteV3 : deleteV1, {
    method: 'DELETE',
    path: v3 ? `/api/activities/${id}` : `/api/activity/${id}`,
    pathParameters: { id },
    headers: bearer(user.accessToken),
  });

beforeAll(async () => {
  await signUpAdmin();
  const admin = await login({ email: 'admin@immich.cloud', password: 'password' });
  owner = await freshUser(admin.accessToken, 'Host');
  member = await freshUser(admin.accessToken, 'Guest');
  stranger = await freshUser(admin.accessToken, 'Stranger');
  photo = await addPhoto(owner.accessToken, { color: [90, 40, 10] });
  album = await createAlbum(owner.accessToken, { albumName: 'Party', assetIds: [photo] });
  expect((await share(album.id, member.id)).status).toBe(200);
});

describe('likes and comments on a shared album (both generations)', () => {
  it('records comments and likes, one like per user per album or asset, and lists them oldest first', async () => {
    const comment = await create(member, { albumId: album.id, type: 'comment', comment: 'What a day' });
    expect(comment.status).toBe(201);
    expect(comment.body).toMatchObject({
      type: 'comment',
      comment: 'What a day',
      assetId: null,
      user: { id: member.id, email: member.email, name: 'Guest', profileImagePath: '', avatarColor: expect.any(String) },
    });
    const like = await create(member, { albumId: album.id, type: 'like' });
    expect(like.status).toBe(201);
    expect(like.body).toMatchObject({ type: 'like', comment: null });
    // The same like again is the first one (Immich's 200), also through v3.
    const again = await create(member, { albumId: album.id, type: 'like' }, true);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(like.body.id);
    expect(again.body.user).toMatchObject({ id: member.id, profileChangedAt: expect.any(String) });
    const onPhoto = await create(owner, { albumId: album.id, assetId: photo, type: 'like' }, true);
    expect(onPhoto.status).toBe(201);

    const all = await list(owner, { albumId: album.id });
    expect(all.status).toBe(200);
    expect(all.body.map((a: { id: string }) => a.id)).toEqual([comment.body.id, like.body.id, onPhoto.body.id]);
    expect((await list(member, { albumId: album.id, level: 'album' })).body).toHaveLength(2);
    expect((await list(member, { albumId: album.id, assetId: photo }, true)).body.map((a: { id: string }) => a.id)).toEqual([
      onPhoto.body.id,
    ]);
    expect((await list(member, { albumId: album.id, type: 'like' })).body).toHaveLength(2);
    expect((await list(member, { albumId: album.id, userId: owner.id }, true)).body).toHaveLength(1);

    // v1.100 counts comments; v3 comments and likes.
    expect((await statistics(member, { albumId: album.id })).body).toEqual({ comments: 1 });
    expect((await statistics(member, { albumId: album.id }, true)).body).toEqual({ comments: 1, likes: 2 });
    expect((await statistics(member, { albumId: album.id, assetId: photo }, true)).body).toEqual({ comments: 0, likes: 1 });
  });

  it('refuses what Immich refuses, with its messages', async () => {
    expect((await create(member, { albumId: album.id, type: 'comment' })).body).toEqual({
      message: ['comment must be a string', 'comment should not be empty'],
      error: 'Bad Request',
      statusCode: 400,
    });
    expect((await create(member, { albumId: album.id, type: 'comment', comment: ' ' }, true)).body).toMatchObject({
      message: 'Validation failed',
    });
    expect((await create(member, { albumId: album.id, type: 'love' })).status).toBe(400);
    expect((await create(member, { albumId: 'nope', type: 'like' })).body.message).toEqual(['albumId must be a UUID']);
    // Not shared with them: no activity, no reading.
    expect((await create(stranger, { albumId: album.id, type: 'like' })).body).toEqual({
      message: 'Not found or no activity.create access',
      error: 'Bad Request',
      statusCode: 400,
    });
    expect((await list(stranger, { albumId: album.id })).body.message).toBe('Not found or no album.read access');
    expect((await statistics(stranger, { albumId: album.id }, true)).body).toEqual({ message: 'Not found or no album.read access' });
    // An album with its activity turned off takes none.
    const quiet = await createAlbum(owner.accessToken, { albumName: 'Quiet' });
    const off = await invoke(updateAlbumHandler, {
      method: 'PATCH',
      path: `/api/album/${quiet.id}`,
      pathParameters: { id: quiet.id },
      headers: bearer(owner.accessToken),
      body: { isActivityEnabled: false },
    });
    expect(off.status).toBe(200);
    expect((await create(owner, { albumId: quiet.id, type: 'like' })).body.message).toBe('Not found or no activity.create access');
  });

  it('lets the author or the album’s owner delete, and no one else', async () => {
    const comment = await create(member, { albumId: album.id, type: 'comment', comment: 'Mine' });
    expect((await remove(stranger, comment.body.id)).body.message).toBe('Not found or no activity.delete access');
    expect((await remove(owner, comment.body.id, true)).status).toBe(204);
    expect((await remove(owner, comment.body.id)).status).toBe(400);
    const like = (await list(member, { albumId: album.id, level: 'album', type: 'like' })).body[0];
    expect((await remove(member, like.id)).status).toBe(204);
    // Its like is free again.
    expect((await create(member, { albumId: album.id, type: 'like' })).status).toBe(201);
  });

  it('goes with its asset when the asset is deleted for good, and with its album', async () => {
    const doomed = await addPhoto(owner.accessToken, { color: [1, 2, 250] });
    const other = await createAlbum(owner.accessToken, { albumName: 'Brief', assetIds: [doomed] });
    expect((await create(owner, { albumId: other.id, assetId: doomed, type: 'comment', comment: 'Soon gone' })).status).toBe(201);
    expect((await create(owner, { albumId: other.id, type: 'like' })).status).toBe(201);
    expect((await trash(owner.accessToken, [doomed], true)).status).toBe(204);
    expect((await list(owner, { albumId: other.id })).body.map((a: { type: string }) => a.type)).toEqual(['like']);
    expect(
      (
        await invoke(deleteAlbumHandler, {
          method: 'DELETE',
          path: `/api/album/${other.id}`,
          pathParameters: { id: other.id },
          headers: bearer(owner.accessToken),
        })
      ).status,
    ).toBe(200);
    const left = (await tableItems()).filter(
      (item) => (item.type === 'activity' && item.albumId === other.id) || String(item.pk).startsWith(`LIKE#${other.id}#`),
    );
    expect(left).toEqual([]);
  });
});
