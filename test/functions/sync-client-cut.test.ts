import { beforeAll, describe, expect, it } from 'vitest';
import { freshUser, login, setupAccounts } from '../support/accounts.ts';
import { tableNames } from '../support/app-store.ts';
import { addPhoto, updateAsset } from '../support/library.ts';
import { SyncClient } from '../support/sync-client.ts';

/**
 * The app's connection cut inside a picked run (an asset's EXIF goes in the asset's change order,
 * picked when the EXIF changed within the window: shared/services/sync/mechanics.ts `sendPicked`).
 * The app has applied and acked the lines before the cut; its next sync goes on from its acks and
 * must still send the EXIF of every asset the cut run had not reached, however old that EXIF is
 * (docs/immich-compatibility.md, "The sync stream").
 */

let adminToken: string;
beforeAll(async () => {
  adminToken = (await setupAccounts()).admin.accessToken;
});

const tablesOf = (client: SyncClient) => Object.fromEntries(tableNames.map((name) => [name, Object.fromEntries(client.store.table(name))]));

describe('a sync cut by the connection inside the EXIF run', () => {
  it('sends, on the next sync, the EXIF of an asset changed after the cut whose EXIF came before it', async () => {
    const owner = await freshUser(adminToken, 'CutExif');
    const [first, second, third] = [
      await addPhoto(owner.accessToken, { color: [200, 30, 30], make: 'CutCam', description: 'first' }),
      await addPhoto(owner.accessToken, { color: [30, 200, 30], make: 'CutCam', description: 'second' }),
      await addPhoto(owner.accessToken, { color: [30, 30, 200], make: 'CutCam', description: 'third' }),
    ];
    if (!first || !second || !third) throw new Error('no photos');
    // The first photo changes again (a favourite, not its EXIF): in the EXIF run's order it now
    // comes after the others, its EXIF still as old as its upload.
    expect((await updateAsset(owner.accessToken, first, { isFavorite: true })).status).toBe(200);

    // A whole sync in another session: the lines, and the tables a sync leaves.
    const reference = new SyncClient((await login({ email: owner.email, password: 'password-CutExif' })).accessToken);
    const whole = await reference.sync();
    const exifLines = whole.filter((line) => line.type === 'AssetExifV1');
    expect(exifLines.map((line) => (line.data as { assetId: string }).assetId)).toEqual([second, third, first]);

    // The phone: every line handled and acked as it comes (batches of one), the connection cut
    // right after the second photo's EXIF.
    const phone = new SyncClient(owner.accessToken, { batchSize: 1 });
    const cut = await phone.attempt({ cutAfter: whole.indexOf(exifLines[0] as (typeof whole)[number]) + 1 });
    expect(cut.ok).toBe(false);
    expect(phone.exifs.has(second)).toBe(true);
    expect(phone.exifs.has(first)).toBe(false);

    await phone.sync();
    expect(phone.exifs.get(first)).toMatchObject({ make: 'CutCam', description: 'first' });
    expect(tablesOf(phone)).toEqual(tablesOf(reference));
    // The run finished: the next sync picks from its last ack again, and sends nothing.
    expect((await phone.sync()).map((line) => line.type)).toEqual(['SyncCompleteV1']);
  });
});
