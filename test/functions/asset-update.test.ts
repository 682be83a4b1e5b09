import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as updateAssetsHandler } from '#functions/asset/update-assets.ts';
import { handler as getAllPeopleHandler } from '#functions/person/get-all-people.ts';
import { handler as getMyUserInfo } from '#functions/user/get-my-user-info.ts';
import { db, tableName } from '#shared/db/client.ts';
import * as keys from '#shared/db/item-keys.ts';
import { bearer, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto, assetInfo, trash, updateAsset } from '../support/library.ts';
import { makeJpeg } from '../support/photos.ts';
import { tableItems, uploadFootprint } from '../support/table-items.ts';
import { storedFiles, upload } from '../support/uploads.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

describe('PUT /asset/:id', () => {
  it('sets favourite, archive, description and position for the owner', async () => {
    const token = accounts.user1.accessToken;
    const id = await addPhoto(token, { description: 'before' });
    const reply = await updateAsset(token, id, {
      isFavorite: true,
      isArchived: true,
      description: 'after',
      latitude: 10.5,
      longitude: '-20.25',
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      id,
      isFavorite: true,
      isArchived: true,
      exifInfo: { description: 'after', latitude: 10.5, longitude: -20.25 },
    });
    expect((await assetInfo(token, id)).body).toMatchObject({ isFavorite: true, isArchived: true, exifInfo: { description: 'after' } });
  });

  it('stores a date taken with an offset as the instant it names (Immich e2e)', async () => {
    const id = await addPhoto(accounts.user1.accessToken);
    const reply = await updateAsset(accounts.user1.accessToken, id, { dateTimeOriginal: '2023-11-19T18:11:00.000-07:00' });
    expect(reply.status).toBe(200);
    expect(reply.body.exifInfo.dateTimeOriginal).toBe('2023-11-20T01:11:00.000Z');
    expect((await assetInfo(accounts.user1.accessToken, id)).body.exifInfo.dateTimeOriginal).toBe('2023-11-20T01:11:00.000Z');
  });

  // Immich's e2e "should reject invalid gps coordinates": either coordinate given (null too) needs both.
  it.each([
    [{ latitude: 12 }, ['longitude should not be empty', 'longitude must be a longitude string or number']],
    [{ longitude: 12 }, ['latitude should not be empty', 'latitude must be a latitude string or number']],
    [{ latitude: 12, longitude: 'abc' }, ['longitude must be a longitude string or number']],
    [{ latitude: 'abc', longitude: 12 }, ['latitude must be a latitude string or number']],
    [{ latitude: null, longitude: 12 }, ['latitude should not be empty', 'latitude must be a latitude string or number']],
    [{ latitude: 12, longitude: null }, ['longitude should not be empty', 'longitude must be a longitude string or number']],
    [{ latitude: 91, longitude: 12 }, ['latitude must be a latitude string or number']],
    [{ latitude: -91, longitude: 12 }, ['latitude must be a latitude string or number']],
    [{ latitude: 12, longitude: -181 }, ['longitude must be a longitude string or number']],
    [{ latitude: 12, longitude: 181 }, ['longitude must be a longitude string or number']],
    [{ isFavorite: 'yes' }, ['isFavorite must be a boolean value']],
    [{ description: 5 }, ['description must be a string']],
    [{ dateTimeOriginal: 'yesterday' }, ['dateTimeOriginal must be a valid ISO 8601 date string']],
  ])('%j → 400 %j', async (body, message) => {
    const id = await addPhoto(accounts.user1.accessToken);
    const reply = await updateAsset(accounts.user1.accessToken, id, body);
    expect({ status: reply.status, message: reply.body.message }).toEqual({ status: 400, message });
  });

  it("another user's asset: 400 Not found or no asset.update access, unchanged", async () => {
    const id = await addPhoto(accounts.user1.accessToken);
    expect((await updateAsset(accounts.user2.accessToken, id, { isFavorite: true })).body.message).toBe(
      'Not found or no asset.update access',
    );
    expect((await assetInfo(accounts.user1.accessToken, id)).body.isFavorite).toBe(false);
  });
});

describe('DELETE /asset', () => {
  it('moves to the trash (still readable, isTrashed) and out of people lists', async () => {
    const token = accounts.user2.accessToken;
    const id = await addPhoto(token, { mwgFaces: [{ name: 'Gus', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] });
    const reply = await trash(token, [id]);
    expect(reply.status).toBe(204);
    expect((await assetInfo(token, id)).body).toMatchObject({ id, isTrashed: true });
  });

  it('with force: deleted for good — asset, original, checksum (the file can come again), faces, usage', async () => {
    const token = accounts.user1.accessToken;
    const data = makeJpeg({ mwgFaces: [{ name: 'Hana', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] });
    const before = {
      footprint: await uploadFootprint(),
      files: await storedFiles(),
      usage: (await invoke(getMyUserInfo, { path: '/api/user/me', headers: bearer(token) })).body.quotaUsageInBytes,
    };
    const first = await upload(token, { data });
    expect(first.status).toBe(201);
    expect((await trash(token, [first.body.id], true)).status).toBe(204);
    expect((await assetInfo(token, first.body.id)).body.message).toBe('Not found or no asset.read access');
    const after = await uploadFootprint();
    expect({ ...after, people: before.footprint.people, names: before.footprint.names }).toEqual(before.footprint);
    expect(await storedFiles()).toEqual(before.files);
    expect((await invoke(getMyUserInfo, { path: '/api/user/me', headers: bearer(token) })).body.quotaUsageInBytes).toBe(before.usage);
    const people = (await invoke(getAllPeopleHandler, { path: '/api/person', headers: bearer(token) })).body.people;
    expect(people.map((p: { name: string }) => p.name)).not.toContain('Hana');
    const again = await upload(token, { data });
    expect(again).toMatchObject({ status: 201, body: { duplicate: false } });
  });

  it("one id that is not the caller's: 400 and nothing is trashed", async () => {
    const mine = await addPhoto(accounts.user1.accessToken);
    const theirs = await addPhoto(accounts.user2.accessToken);
    const reply = await trash(accounts.user1.accessToken, [mine, theirs]);
    expect(reply.body).toEqual({ message: 'Not found or no asset.delete access', error: 'Bad Request', statusCode: 400 });
    expect((await assetInfo(accounts.user1.accessToken, mine)).body.isTrashed).toBe(false);
  });

  it.each([
    [{}, ['each value in ids must be a UUID', 'ids should not be empty', 'ids must be an array']],
    [{ ids: ['00000000-0000-4000-a000-000000000000'], force: 'always' }, ['force must be a boolean value']],
  ])('%j → 400 %j', async (body, message) => {
    const { handler } = await import('#functions/asset/delete-assets.ts');
    const reply = await invoke(handler, { method: 'DELETE', path: '/api/asset', headers: bearer(accounts.user1.accessToken), body });
    expect({ status: reply.status, message: reply.body.message }).toEqual({ status: 400, message });
  });
});

describe('POST /trash/restore/assets', () => {
  it('brings trashed assets back; another user’s id is a 400', async () => {
    const { handler } = await import('#functions/trash/restore-assets.ts');
    const token = accounts.user2.accessToken;
    const id = await addPhoto(token);
    await trash(token, [id]);
    expect((await assetInfo(token, id)).body.isTrashed).toBe(true);
    const restore = (who: string, ids: string[]) =>
      invoke(handler, { method: 'POST', path: '/api/trash/restore/assets', headers: bearer(who), body: { ids } });
    expect((await restore(accounts.user1.accessToken, [id])).body.message).toBe('Not found or no asset.restore access');
    expect((await restore(token, [id])).status).toBe(204);
    expect((await assetInfo(token, id)).body.isTrashed).toBe(false);
  });
});

describe('an asset stored before Immich v3 (isArchived / isVisible flags, a duration text)', () => {
  it('reads as its visibility, and archives, favourites and moves its counters as any other', async () => {
    const token = accounts.user1.accessToken;
    const id = await addPhoto(token);
    // The item as a write before visibility left it: two flags, v1.100's duration text.
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.asset(id),
        UpdateExpression: 'REMOVE visibility SET isArchived = :false, isVisible = :true, #duration = :duration',
        ExpressionAttributeNames: { '#duration': 'duration' },
        ExpressionAttributeValues: { ':false': false, ':true': true, ':duration': '0:00:02.50000' },
      }),
    );
    expect((await assetInfo(token, id)).body).toMatchObject({ isArchived: false, duration: '00:00:02.500' });
    const archived = await updateAsset(token, id, { isArchived: true, isFavorite: true });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ isArchived: true, isFavorite: true });
    expect((await updateAsset(token, id, { isFavorite: false })).status).toBe(200);
    const stored = (await tableItems('asset')).find((item) => item.id === id);
    expect(stored?.visibility).toBe('archive');
  });
});

describe('PUT /asset (bulk)', () => {
  const bulk = (token: string, body: unknown) =>
    invoke(updateAssetsHandler, { method: 'PUT', path: '/api/asset', headers: bearer(token), body });

  it('favourites, archives, dates and places many assets: 204', async () => {
    const token = accounts.user1.accessToken;
    const ids = [await addPhoto(token), await addPhoto(token), await addPhoto(token)];
    const reply = await bulk(token, {
      ids,
      isFavorite: true,
      isArchived: true,
      dateTimeOriginal: '2020-02-02T02:02:02+02:00',
      latitude: 1,
      longitude: 2,
    });
    expect(reply.status).toBe(204);
    for (const id of ids) {
      expect((await assetInfo(token, id)).body).toMatchObject({
        isFavorite: true,
        isArchived: true,
        exifInfo: { dateTimeOriginal: '2020-02-02T00:02:02.000Z', latitude: 1, longitude: 2 },
      });
    }
    expect((await bulk(token, { ids: ids.slice(0, 1), isFavorite: false })).status).toBe(204);
    expect((await assetInfo(token, ids[0] ?? '')).body.isFavorite).toBe(false);
    expect((await assetInfo(token, ids[1] ?? '')).body.isFavorite).toBe(true);
  });

  it("one id that is not the caller's: 400 and nothing changes; stacks and bad input are 400s", async () => {
    const mine = await addPhoto(accounts.user1.accessToken);
    const theirs = await addPhoto(accounts.user2.accessToken);
    expect((await bulk(accounts.user1.accessToken, { ids: [mine, theirs], isFavorite: true })).body).toMatchObject({
      statusCode: 400,
      message: 'Not found or no asset.update access',
    });
    expect((await assetInfo(accounts.user1.accessToken, mine)).body.isFavorite).toBe(false);
    // A stack of the parent alone: 400, and the other edits are not made either.
    const alone = await bulk(accounts.user1.accessToken, { ids: [mine], stackParentId: mine, isFavorite: true });
    expect(alone.body).toMatchObject({ statusCode: 400, message: 'A stack needs at least two assets' });
    expect((await assetInfo(accounts.user1.accessToken, mine)).body.isFavorite).toBe(false);
    expect((await bulk(accounts.user1.accessToken, { ids: ['x'], latitude: 1 })).body.message).toEqual([
      'longitude should not be empty',
      'longitude must be a longitude string or number',
      'each value in ids must be a UUID',
    ]);
  });
});
