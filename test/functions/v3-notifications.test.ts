import { beforeAll, describe, expect, it } from 'vitest';
import { handler as addUsersV1 } from '#functions/album/add-users-to-album.ts';
import { handler as addAssetsToAlbum } from '#functions/v3/album/add-assets-to-album.ts';
import { handler as addAssetsToAlbums } from '#functions/v3/album/add-assets-to-albums.ts';
import { handler as createAlbumV3 } from '#functions/v3/album/create-album.ts';
import { handler as deleteNotification } from '#functions/v3/notification/delete-notification.ts';
import { handler as deleteNotifications } from '#functions/v3/notification/delete-notifications.ts';
import { handler as getNotification } from '#functions/v3/notification/get-notification.ts';
import { handler as getNotifications } from '#functions/v3/notification/get-notifications.ts';
import { handler as updateNotification } from '#functions/v3/notification/update-notification.ts';
import { handler as updateNotifications } from '#functions/v3/notification/update-notifications.ts';
import { handler as createNotification } from '#functions/v3/notification-admin/create-notification.ts';
import * as notificationRepo from '#shared/db/notification.repository.ts';
import { notificationTtl } from '#shared/model/notification.ts';
import { albumUpdateSlotMs } from '#shared/services/notification.service.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, createAlbum } from '../support/library.ts';

/**
 * Immich v3's notifications (docs/immich-compatibility.md, "Notifications") through the handlers,
 * against DynamoDB Local: made where Immich makes them (an album shared with a user, media added
 * to an album shared with them, an admin's), each its user's alone, read, marked and deleted as
 * Immich's routes do.
 */
let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

interface Notification {
  id: string;
  createdAt: string;
  level: string;
  type: string;
  title: string;
  description?: string;
  data?: Record<string, unknown>;
  readAt?: string;
}

const list = async (token: string, query: Record<string, string> = {}): Promise<Notification[]> => {
  const reply = await invoke(getNotifications, { path: '/api/notifications', query, headers: bearer(token) });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};
const one = (token: string, id: string) => ({ path: `/api/notifications/${id}`, pathParameters: { id }, headers: bearer(token) });
const all = (token: string) => ({ path: '/api/notifications', headers: bearer(token) });
const markOne = (token: string, id: string, body: Record<string, unknown>) =>
  invoke(updateNotification, { ...one(token, id), method: 'PUT', body });
const createAlbum3 = async (token: string, body: Record<string, unknown>) => {
  const reply = await invoke(createAlbumV3, { method: 'POST', path: '/api/albums', headers: bearer(token), body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body as { id: string; albumName: string };
};
const admin = (body: Record<string, unknown>, token = accounts.admin.accessToken) =>
  invoke(createNotification, { method: 'POST', path: '/api/admin/notifications', headers: bearer(token), body });

describe('an album shared with a user (AlbumInvite)', () => {
  it('tells the invitee, not the owner, with the sender, the album and a link to it', async () => {
    const [owner, invitee] = [await freshUser(accounts.admin.accessToken, 'Owen'), await freshUser(accounts.admin.accessToken, 'Ivy')];
    const album = await createAlbum3(owner.accessToken, { albumName: 'Summer', albumUsers: [{ userId: invitee.userId, role: 'viewer' }] });
    const told = await list(invitee.accessToken);
    expect(told).toEqual([
      {
        id: expect.any(String),
        createdAt: expect.any(String),
        level: 'success',
        type: 'AlbumInvite',
        title: 'Shared Album Invitation',
        description: 'Owen shared an album (Summer) with you',
        data: { albumId: album.id },
      },
    ]);
    expect(Date.now() - Date.parse(told[0]?.createdAt ?? '')).toBeLessThan(60_000);
    expect(await list(owner.accessToken)).toEqual([]);
  });

  it('tells a user shared with later, through v1.100’s route too, and only that user', async () => {
    const [owner, first, later] = [
      await freshUser(accounts.admin.accessToken, 'Olga'),
      await freshUser(accounts.admin.accessToken, 'Fay'),
      await freshUser(accounts.admin.accessToken, 'Lee'),
    ];
    const album = await createAlbum(owner.accessToken, { albumName: 'Winter', sharedWithUserIds: [first.userId] });
    const added = await invoke(addUsersV1, {
      method: 'PUT',
      path: `/api/album/${album.id}/users`,
      headers: bearer(owner.accessToken),
      pathParameters: { id: album.id },
      body: { sharedUserIds: [later.userId] },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect((await list(later.accessToken)).map((n) => [n.type, n.description, n.data])).toEqual([
      ['AlbumInvite', 'Olga shared an album (Winter) with you', { albumId: album.id }],
    ]);
    // The first invitee was told once, at the album's creation; the owner never.
    expect((await list(first.accessToken)).map((n) => n.type)).toEqual(['AlbumInvite']);
    expect(await list(owner.accessToken)).toEqual([]);
  });

  it('makes none for an album shared with no one', async () => {
    const owner = await freshUser(accounts.admin.accessToken, 'Solo');
    await createAlbum3(owner.accessToken, { albumName: 'Mine' });
    expect(await list(owner.accessToken)).toEqual([]);
  });
});

describe('media added to a shared album (AlbumUpdate)', () => {
  it('tells the album’s other users, its owner when someone else adds, once for a burst of additions', async () => {
    const [owner, editor, viewer] = [
      await freshUser(accounts.admin.accessToken, 'Anna'),
      await freshUser(accounts.admin.accessToken, 'Ed'),
      await freshUser(accounts.admin.accessToken, 'Vic'),
    ];
    const album = await createAlbum3(owner.accessToken, {
      albumName: 'Trip',
      albumUsers: [
        { userId: editor.userId, role: 'editor' },
        { userId: viewer.userId, role: 'viewer' },
      ],
    });
    const [a, b] = [await addPhoto(editor.accessToken, { color: [1, 2, 3] }), await addPhoto(editor.accessToken, { color: [3, 2, 1] })];
    const add = (id: string) =>
      invoke(addAssetsToAlbum, {
        method: 'PUT',
        path: `/api/albums/${album.id}/assets`,
        headers: bearer(editor.accessToken),
        pathParameters: { id: album.id },
        body: { ids: [id] },
      });
    const slotOf = () => Math.floor(Date.now() / albumUpdateSlotMs);
    const firstSlot = slotOf();
    expect((await add(a)).body).toEqual([{ id: a, success: true }]);
    expect((await add(b)).body).toEqual([{ id: b, success: true }]);
    // One a slot: both additions fall in one unless a slot's end came between them.
    const slots = slotOf() - firstSlot + 1;
    const updates = async (token: string) =>
      (await list(token, { type: 'AlbumUpdate' })).map((n) => [n.level, n.title, n.description, n.data]);
    const expected = ['info', 'Shared Album Update', 'New media has been added to the album (Trip)', { albumId: album.id }];
    for (const token of [owner.accessToken, viewer.accessToken]) {
      const told = await updates(token);
      expect(told.length).toBeGreaterThanOrEqual(1);
      expect(told.length).toBeLessThanOrEqual(Math.min(slots, 2));
      for (const each of told) expect(each).toEqual(expected);
    }
    // The one who added is not told.
    expect(await updates(editor.accessToken)).toEqual([]);
    // Adding nothing new (a duplicate) tells no one.
    const before = (await updates(owner.accessToken)).length;
    expect((await add(a)).body).toEqual([{ id: a, success: false, error: 'duplicate' }]);
    expect(await updates(owner.accessToken)).toHaveLength(before);
  });

  it('tells them through v3’s many-albums route too, and tells no one of an album shared with no one', async () => {
    const [owner, friend] = [await freshUser(accounts.admin.accessToken, 'Max'), await freshUser(accounts.admin.accessToken, 'Nia')];
    const shared = await createAlbum3(owner.accessToken, { albumName: 'Ours', albumUsers: [{ userId: friend.userId, role: 'editor' }] });
    const own = await createAlbum3(owner.accessToken, { albumName: 'Just mine' });
    const photo = await addPhoto(owner.accessToken, { color: [9, 9, 9] });
    const reply = await invoke(addAssetsToAlbums, {
      method: 'PUT',
      path: '/api/albums/assets',
      headers: bearer(owner.accessToken),
      body: { albumIds: [shared.id, own.id], assetIds: [photo] },
    });
    expect(reply.body).toEqual({ success: true });
    expect((await list(friend.accessToken, { type: 'AlbumUpdate' })).map((n) => n.data)).toEqual([{ albumId: shared.id }]);
    expect(await list(owner.accessToken)).toEqual([]);
  });
});

describe('a user’s notifications', () => {
  let owner: Awaited<ReturnType<typeof freshUser>>;
  let reader: Awaited<ReturnType<typeof freshUser>>;
  let stranger: Awaited<ReturnType<typeof freshUser>>;
  let first: string;
  let second: string;
  beforeAll(async () => {
    [owner, reader, stranger] = [
      await freshUser(accounts.admin.accessToken, 'Hal'),
      await freshUser(accounts.admin.accessToken, 'Rita'),
      await freshUser(accounts.admin.accessToken, 'Stan'),
    ];
    await createAlbum3(owner.accessToken, { albumName: 'One', albumUsers: [{ userId: reader.userId, role: 'viewer' }] });
    await createAlbum3(owner.accessToken, { albumName: 'Two', albumUsers: [{ userId: reader.userId, role: 'viewer' }] });
    const told = await list(reader.accessToken);
    // Newest first.
    expect(told.map((n) => n.description)).toEqual(['Hal shared an album (Two) with you', 'Hal shared an album (One) with you']);
    [second, first] = told.map((n) => n.id) as [string, string];
  });

  it('is the user’s alone: another user can neither read, mark nor delete one', async () => {
    expect(await list(stranger.accessToken)).toEqual([]);
    expect(await list(stranger.accessToken, { id: first })).toEqual([]);
    const read = await invoke(getNotification, one(stranger.accessToken, first));
    expect(read).toMatchObject({ status: 400, body: { message: 'Not found or no notification.read access' } });
    const marked = await markOne(stranger.accessToken, first, { readAt: '2026-01-01T00:00:00.000Z' });
    expect(marked).toMatchObject({ status: 400, body: { message: 'Not found or no notification.update access' } });
    const deleted = await invoke(deleteNotification, { ...one(stranger.accessToken, first), method: 'DELETE' });
    expect(deleted).toMatchObject({ status: 400, body: { message: 'Not found or no notification.delete access' } });
    // A bulk request naming one of someone else's changes none of them, the caller's own either.
    const mine = (await admin({ userId: stranger.userId, title: 'Yours' })).body.id as string;
    const bulk = await invoke(updateNotifications, {
      ...all(stranger.accessToken),
      method: 'PUT',
      body: { ids: [mine, first], readAt: '2026-01-01T00:00:00.000Z' },
    });
    expect(bulk).toMatchObject({ status: 400, body: { message: 'Not found or no notification.update access' } });
    const gone = await invoke(deleteNotifications, { ...all(stranger.accessToken), method: 'DELETE', body: { ids: [first, mine] } });
    expect(gone).toMatchObject({ status: 400, body: { message: 'Not found or no notification.delete access' } });
    expect((await list(stranger.accessToken)).map((n) => [n.id, n.readAt])).toEqual([[mine, undefined]]);
    // The reader's are untouched.
    expect((await list(reader.accessToken, { unread: 'true' })).map((n) => n.id)).toEqual([second, first]);
  });

  it('is read one by one, marked read and unread again, and the unread filter follows', async () => {
    const got = await invoke(getNotification, one(reader.accessToken, first));
    expect(got).toMatchObject({ status: 200, body: { id: first, type: 'AlbumInvite', description: 'Hal shared an album (One) with you' } });
    expect(got.body).not.toHaveProperty('readAt');

    const readAt = '2026-03-04T05:06:07.000Z';
    const marked = await markOne(reader.accessToken, first, { readAt });
    expect(marked).toMatchObject({ status: 200, body: { id: first, readAt } });
    expect((await list(reader.accessToken, { unread: 'true' })).map((n) => n.id)).toEqual([second]);
    // `unread=false` filters nothing, as Immich's.
    expect((await list(reader.accessToken, { unread: 'false' })).map((n) => [n.id, n.readAt])).toEqual([
      [second, undefined],
      [first, readAt],
    ]);
    // No `readAt`: nothing changes.
    expect((await markOne(reader.accessToken, first, {})).body).toMatchObject({ id: first, readAt });

    const unread = await markOne(reader.accessToken, first, { readAt: null });
    expect(unread.status).toBe(200);
    expect(unread.body).not.toHaveProperty('readAt');
    expect((await list(reader.accessToken, { unread: 'true' })).map((n) => n.id)).toEqual([second, first]);

    // The web app's "mark all as read".
    const bulk = await invoke(updateNotifications, {
      ...all(reader.accessToken),
      method: 'PUT',
      body: { ids: [first, second], readAt },
    });
    expect(bulk.status).toBe(204);
    expect(await list(reader.accessToken, { unread: 'true' })).toEqual([]);
    expect((await list(reader.accessToken)).every((n) => n.readAt === readAt)).toBe(true);
  });

  it('is filtered by id, level and type, each checked as Immich checks them', async () => {
    expect((await list(reader.accessToken, { id: second })).map((n) => n.id)).toEqual([second]);
    expect((await list(reader.accessToken, { level: 'success', type: 'AlbumInvite' })).map((n) => n.id)).toEqual([second, first]);
    expect(await list(reader.accessToken, { level: 'error' })).toEqual([]);
    expect(await list(reader.accessToken, { type: 'JobFailed' })).toEqual([]);
    const queries: Record<string, string>[] = [{ level: 'loud' }, { type: 'Album' }, { id: 'x' }, { unread: 'yes' }];
    for (const query of queries) {
      const reply = await invoke(getNotifications, { path: '/api/notifications', query, headers: bearer(reader.accessToken) });
      expect(reply, JSON.stringify(query)).toMatchObject({ status: 400, body: { message: 'Validation failed' } });
    }
  });

  it('is deleted one by one or many at once, and then is gone', async () => {
    const deleted = await invoke(deleteNotification, { ...one(reader.accessToken, first), method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect((await list(reader.accessToken)).map((n) => n.id)).toEqual([second]);
    expect((await invoke(getNotification, one(reader.accessToken, first))).status).toBe(400);
    expect((await markOne(reader.accessToken, first, { readAt: null })).status).toBe(400);
    const bulk = await invoke(deleteNotifications, { ...all(reader.accessToken), method: 'DELETE', body: { ids: [second] } });
    expect(bulk.status).toBe(204);
    expect(await list(reader.accessToken)).toEqual([]);
  });

  it('is not listed past its time (Immich’s clean-up: 30 days unread)', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Old');
    const createdAt = new Date(Date.now() - 31 * 24 * 3600_000).toISOString();
    const base = {
      userId: user.userId,
      level: 'info',
      type: 'Custom',
      title: 'Old',
      description: null,
      dataJson: null,
      readAt: null,
    } as const;
    await notificationRepo.putMany([
      { ...base, id: '00000000-0000-4000-8000-00000000000a', createdAt, ttl: notificationTtl(createdAt, null) },
      {
        ...base,
        id: '00000000-0000-4000-8000-00000000000b',
        createdAt: new Date().toISOString(),
        ttl: notificationTtl(new Date().toISOString(), null),
      },
    ]);
    expect((await list(user.accessToken)).map((n) => n.id)).toEqual(['00000000-0000-4000-8000-00000000000b']);
    expect((await invoke(getNotification, one(user.accessToken, '00000000-0000-4000-8000-00000000000a'))).status).toBe(400);
  });
});

describe('POST /admin/notifications', () => {
  it('makes a notification for a user, Custom and info unless said, with its data as given', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Told');
    // Any JSON, kept as its text: 1e300 is beyond what a DynamoDB number holds.
    const data = { link: '/photos', nested: { list: [1, 'two', null, true], huge: 1e300, fraction: 0.1, empty: '' } };
    const made = await admin({ userId: user.userId, title: 'Hello', description: 'World', data, readAt: '2026-01-01T00:00:00.000Z' });
    expect(made).toMatchObject({ status: 201 });
    expect(made.body).toEqual({
      id: expect.any(String),
      createdAt: expect.any(String),
      level: 'info',
      type: 'Custom',
      title: 'Hello',
      description: 'World',
      data,
    });
    const warning = await admin({ userId: user.userId, title: 'Careful', level: 'warning', type: 'SystemMessage', description: null });
    expect(warning.body).toMatchObject({ level: 'warning', type: 'SystemMessage', title: 'Careful' });
    expect(warning.body).not.toHaveProperty('description');
    expect(warning.body).not.toHaveProperty('data');
    expect((await list(user.accessToken)).map((n) => n.id)).toEqual([warning.body.id, made.body.id]);
    expect((await invoke(getNotification, one(user.accessToken, made.body.id))).body).toEqual(made.body);
  });

  it('is the admin’s alone, and refuses what Immich refuses with a 400', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Plain');
    expect((await admin({ userId: user.userId, title: 'x' }, user.accessToken)).status).toBe(403);
    const refused: [Record<string, unknown>, string][] = [
      [{ title: 'x' }, 'Validation failed'],
      [{ userId: user.userId }, 'Validation failed'],
      [{ userId: user.userId, title: 'x', level: 'loud' }, 'Validation failed'],
      [{ userId: user.userId, title: 'x', type: 'Spam' }, 'Validation failed'],
      [{ userId: user.userId, title: 'x', data: [1, 2] }, 'Validation failed'],
      [{ userId: user.userId, title: 'x', data: 'text' }, 'Validation failed'],
      [{ userId: '00000000-0000-4000-8000-000000000000', title: 'x' }, 'User not found'],
      [{ userId: user.userId, title: 'x', data: { blob: 'x'.repeat(300_000) } }, expect.stringContaining('at most')],
    ];
    for (const [body, message] of refused) {
      const reply = await admin(body);
      expect(reply, JSON.stringify(body).slice(0, 80)).toMatchObject({ status: 400, body: { message } });
    }
    expect(await list(user.accessToken)).toEqual([]);
  });
});
