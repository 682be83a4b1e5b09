import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as nightlyHandler } from '#functions/nightly/run-nightly-tasks.ts';
import { db } from '#shared/db/client.ts';
import * as keys from '#shared/db/item-keys.ts';
import { freshUser, setupAccounts } from '../support/accounts.ts';
import { addPhoto, createAlbum } from '../support/library.ts';
import { SyncClient } from '../support/sync-client.ts';
import { tableItems } from '../support/table-items.ts';

/**
 * The table's one-time migration to change ids (shared/services/sync/migration.ts; docs/data-model.md,
 * "Earlier shapes"): off the request path, run by the nightly function's ticks (deployed, the first
 * after a deploy; locally, at start) until done, then marked so it runs once.
 */
let accounts: Awaited<ReturnType<typeof setupAccounts>>;

beforeAll(async () => {
  accounts = await setupAccounts();
});

/** The nightly function's tick, as the schedule (or the local server at start) gives it. */
const tick = (context?: { getRemainingTimeInMillis: () => number }) => nightlyHandler({ time: new Date().toISOString() }, context);

const update = (item: Record<string, unknown>, expression: string) =>
  db.send(new UpdateCommand({ TableName: process.env.TABLE_NAME, Key: { pk: item.pk, sk: item.sk }, UpdateExpression: expression }));

/** The table as this version found it: no migration done. */
const unmarkTable = () => db.send(new DeleteCommand({ TableName: process.env.TABLE_NAME, Key: keys.migrations() }));

const migrated = async (): Promise<boolean> =>
  (await tableItems()).some((item) => item.pk === keys.migrations().pk && item.sk === keys.migrations().sk && item.changeIds);

const indexed = async (userId: string): Promise<boolean> =>
  (await tableItems('user')).find((item) => item.id === userId)?.changesIndexed === true;

/** A user's own items as an item written before change ids holds them: no change id, no change partition, no mark. */
const asBeforeChangeIds = async (userId: string, albumId?: string): Promise<Record<string, unknown>[]> => {
  const mine = (await tableItems()).filter(
    (item) =>
      item.ownerId === userId || item.id === userId || (albumId && item.albumId === albumId) || String(item.pk) === `USER#${userId}`,
  );
  for (const item of mine) await update(item, 'REMOVE gsi3pk, updateId, changesIndexed');
  return mine;
};

describe('the migration to change ids', () => {
  it('indexes a library stored before change ids at the nightly tick after a deploy, and the first sync sends all of it', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Veteran');
    const photos = [
      await addPhoto(user.accessToken, { mwgFaces: [{ name: 'Old Friend', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] }),
      await addPhoto(user.accessToken, { color: [5, 50, 150] }),
    ];
    const album = await createAlbum(user.accessToken, { albumName: 'Old album', assetIds: photos });
    const mine = await asBeforeChangeIds(user.id, album.id);
    await unmarkTable();
    expect((await tableItems()).filter((item) => item.gsi3pk && mine.some((m) => m.pk === item.pk && m.sk === item.sk))).toEqual([]);

    // The deploy's migration, before any sync.
    await tick();
    expect(await indexed(user.id)).toBe(true);
    expect(await migrated()).toBe(true);

    const client = new SyncClient(user.accessToken);
    await client.sync();
    expect([...client.assets.keys()].sort()).toEqual([...photos].sort());
    expect([...client.albumAssets.keys()].sort()).toEqual(photos.map((id) => `${album.id}|${id}`).sort());
    expect([...client.people.values()].map((person) => person.name)).toEqual(['Old Friend']);
    expect(client.faces.size).toBe(1);
    expect(client.users.get(user.id)).toMatchObject({ id: user.id });
  });

  it('runs once: a table marked migrated is not walked again', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Latecomer');
    await addPhoto(user.accessToken, { color: [90, 20, 20] });
    await tick();
    expect(await migrated()).toBe(true);
    // Only a table not yet marked is migrated: this library, unmarked after the mark, stays as it is.
    await asBeforeChangeIds(user.id);
    await tick();
    expect(await indexed(user.id)).toBe(false);
    await unmarkTable();
    await tick();
    expect(await indexed(user.id)).toBe(true);
  });

  it('goes on at a later tick when a tick has no time left for it', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Patient');
    await addPhoto(user.accessToken, { color: [20, 90, 20] });
    await asBeforeChangeIds(user.id);
    await unmarkTable();
    // A minute left: less than the three the function keeps, so no library starts.
    await tick({ getRemainingTimeInMillis: () => 60_000 });
    expect(await indexed(user.id)).toBe(false);
    expect(await migrated()).toBe(false);
    await tick();
    expect(await indexed(user.id)).toBe(true);
    expect(await migrated()).toBe(true);
  });
});
