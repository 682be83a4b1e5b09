import { describe, expect, it } from 'vitest';
import { batchDelete } from '#shared/db/batch.ts';
import { changeIdAt, changeIdTime, newChangeId, syncedEntityOf } from '#shared/db/changes.ts';
import * as keys from '#shared/db/item-keys.ts';
import { deleteWrite, putWrite, updateWrite } from '#shared/db/transact.ts';

// Every synced item's write carries its change id: no write path can forget it (docs/data-model.md,
// "Change ids and the sync stream"). These check the builders every repository writes with.
const synced = {
  asset: keys.asset('a'),
  face: keys.assetFace('a', 'f'),
  person: keys.person('o', 'p'),
  user: keys.user('u'),
  album: keys.album('o', 'al'),
  albumUser: keys.albumUser('al', 'u'),
  albumAsset: keys.albumAsset('al', 'a'),
  partner: keys.partner('w', 'b'),
  memory: keys.memory('o', 'm'),
  memoryAsset: keys.memoryAsset('m', 'a'),
  assetMetadata: keys.assetMetadata('a', 'mobile-app'),
};

describe('change ids', () => {
  it('are UUIDv7s that increase, one after another, and sort as their times do', () => {
    const ids = Array.from({ length: 5_000 }, () => newChangeId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const now = Date.now();
    expect(changeIdAt(now) <= newChangeId()).toBe(true);
    expect(newChangeId() < changeIdAt(now + 60_000)).toBe(true);
    expect(changeIdTime(changeIdAt(now))).toBe(now);
  });

  it('knows every synced entity by its key, and nothing else', () => {
    for (const [entity, key] of Object.entries(synced)) expect(syncedEntityOf(key)).toBe(entity);
    for (const key of [
      keys.session('h'),
      keys.userApiKey('u', 'k'),
      keys.personName('o', 'n'),
      keys.checksum('o', 'c'),
      keys.timeBuckets('o', '2024-01'),
      keys.memoriesState(),
      keys.nightlyTasks(),
    ])
      expect(syncedEntityOf(key)).toBeUndefined();
  });

  it('stamps every update of a synced item, with or without a SET clause, unless it sends nothing', () => {
    for (const key of Object.values(synced)) {
      for (const expression of ['SET isFavorite = :f', 'ADD faceCount :n', 'REMOVE sharerDeleted', 'SET a = :a REMOVE b']) {
        const update = updateWrite(key, expression).item.Update;
        expect(update?.UpdateExpression).toMatch(/SET updateId = :updateId/);
        expect(update?.ExpressionAttributeValues?.[':updateId']).toMatch(/^[0-9a-f-]{36}$/);
        // Still one SET clause: DynamoDB refuses two.
        expect(update?.UpdateExpression?.match(/\bSET\b/g)).toHaveLength(1);
      }
      expect(updateWrite(key, 'ADD albumCount :d', { sync: 'unsent' }).item.Update?.UpdateExpression).toBe('ADD albumCount :d');
    }
    expect(updateWrite(keys.session('h'), 'SET email = :e').item.Update?.UpdateExpression).toBe('SET email = :e');
  });

  it('stamps every put of a synced item with its change id, its change partition and, where backfills start, its creation id', () => {
    const asset = putWrite({ ...synced.asset, type: 'asset', ownerId: 'o' }).item.Put?.Item;
    expect(asset).toMatchObject({ gsi3pk: 'CHANGES#o#ASSET', updateId: expect.any(String) });
    expect(putWrite({ ...synced.face, ownerId: 'o' }).item.Put?.Item).toMatchObject({ gsi3pk: 'CHANGES#o#FACE' });
    expect(putWrite({ ...synced.person, ownerId: 'o' }).item.Put?.Item).toMatchObject({ gsi3pk: 'CHANGES#o#PERSON' });
    expect(putWrite({ ...synced.albumAsset, albumId: 'al' }).item.Put?.Item).toMatchObject({ gsi3pk: 'CHANGES#ALBUM#al' });
    // An owner's metadata keys in 16 change partitions, by the asset id's first hex digit.
    const metadata = (assetId: string) => putWrite({ ...keys.assetMetadata(assetId, 'k'), ownerId: 'o', assetId }).item.Put?.Item;
    expect(metadata('3f2c0a9e-0000-4000-8000-000000000000')).toMatchObject({ gsi3pk: 'CHANGES#o#ASSETMETADATA#3' });
    expect(metadata('f0000000-0000-4000-8000-000000000000')).toMatchObject({ gsi3pk: 'CHANGES#o#ASSETMETADATA#f' });
    expect(putWrite({ ...synced.user }).item.Put?.Item).toMatchObject({ gsi3pk: 'CHANGES#USERS' });
    for (const key of [synced.album, synced.albumUser, synced.partner]) {
      const item = putWrite({ ...key }).item.Put?.Item;
      expect(item?.createId).toBe(item?.updateId);
      expect(item?.gsi3pk).toBeUndefined();
    }
    expect(putWrite({ ...keys.session('h') }).item.Put?.Item).toEqual(keys.session('h'));
  });

  it("moves an asset's EXIF id and a user's metadata id only with a write of theirs; a put makes them new", () => {
    const stamped = (key: { pk: string; sk: string }, expression: string, names?: Record<string, string>) =>
      updateWrite(key, expression, names ? { names } : {}).item.Update?.UpdateExpression ?? '';
    // Whatever the placeholders, a nested path or a function's commas: the attribute written decides.
    for (const [expression, names] of [
      ['SET #exif.#city = :c, updatedAt = :u', { '#exif': 'exif', '#city': 'city' }],
      ['SET #e = :e', { '#e': 'exif' }],
      ['SET updatedAt = :u, exif.description = if_not_exists(exif.description, :d)', undefined],
      ['REMOVE #x.#lat, #x.#lon', { '#x': 'exif', '#lat': 'latitude', '#lon': 'longitude' }],
    ] as const)
      expect(stamped(synced.asset, expression, names)).toMatch(/^SET updateId = :updateId, exifUpdateId = :updateId\b/);
    for (const expression of ['SET isFavorite = :f, updatedAt = :u', 'ADD albumCount :d', 'SET #v = :v REMOVE deletedAt'])
      expect(stamped(synced.asset, expression, { '#v': 'visibility' })).not.toMatch(/exifUpdateId/);
    // A condition on the EXIF (places check the names they read) is not a write of it.
    expect(
      updateWrite(synced.asset, 'SET isFavorite = :f', { names: { '#exif': 'exif' }, condition: '#exif.#city = :was' }).item.Update
        ?.UpdateExpression,
    ).toBe('SET updateId = :updateId, isFavorite = :f');
    for (const attribute of ['preferences', 'memoriesEnabled', 'isOnboarded', 'license'])
      expect(stamped(synced.user, `SET ${attribute} = :v, updatedAt = :u`)).toMatch(/metadataUpdateId = :updateId/);
    expect(stamped(synced.user, 'SET #n = :n, quotaUsageInBytes = :q', { '#n': 'name' })).not.toMatch(/metadataUpdateId/);
    const asset = putWrite({ ...synced.asset, ownerId: 'o' }).item.Put?.Item;
    expect(asset?.exifUpdateId).toBe(asset?.updateId);
    const user = putWrite({ ...synced.user }).item.Put?.Item;
    expect(user?.metadataUpdateId).toBe(user?.updateId);
    expect(putWrite({ ...synced.face, ownerId: 'o' }).item.Put?.Item).not.toHaveProperty('exifUpdateId');
  });

  it('refuses a deletion of a synced item that does not say how the stream learns of it', () => {
    for (const key of Object.values(synced)) {
      expect(() => deleteWrite(key)).toThrow(/must record it for the sync stream/);
      expect(() => deleteWrite(key, { sync: 'recorded' })).not.toThrow();
      expect(() => batchDelete([key])).toThrow(/must record it for the sync stream/);
    }
    expect(() => deleteWrite(keys.session('h'))).not.toThrow();
  });
});
