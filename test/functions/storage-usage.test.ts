import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getServerInfo } from '#functions/server-info/get-server-info.ts';
import { handler as getStorage } from '#functions/v3/server/get-storage.ts';
import { handler as getMyUser } from '#functions/v3/user/get-my-user.ts';
import { handler as updateUserAdmin } from '#functions/v3/user-admin/update-user-admin.ts';
import { bearer, freshUser, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto } from '../support/library.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

/** What the web app's sidebar reads (StorageSpace.svelte): its user, and the server's storage without a quota. */
const sidebar = async (token: string) => ({
  me: (await invoke(getMyUser, { path: '/api/users/me', headers: bearer(token) })).body,
  v3: (await invoke(getStorage, { path: '/api/server/storage', headers: bearer(token) })).body,
  v1: (await invoke(getServerInfo, { path: '/api/server-info', headers: bearer(token) })).body,
});

describe('the storage the web apps show (GET /server/storage, GET /server-info, the user’s usage)', () => {
  it('is the usage against the quota, or without one against all the server stores, never a made-up size', async () => {
    const alice = await freshUser(accounts.admin.accessToken, 'Alice');
    const bob = await freshUser(accounts.admin.accessToken, 'Bob');
    await addPhoto(alice.accessToken, { width: 64, height: 48, color: [1, 0, 0] });
    await addPhoto(bob.accessToken, { width: 640, height: 480, color: [0, 1, 0] });
    await addPhoto(bob.accessToken, { width: 320, height: 240, color: [0, 0, 1] });

    const [a, b] = [await sidebar(alice.accessToken), await sidebar(bob.accessToken)];
    const [aliceBytes, bobBytes] = [a.me.quotaUsageInBytes, b.me.quotaUsageInBytes];
    expect(aliceBytes).toBeGreaterThan(0);
    expect(bobBytes).toBeGreaterThan(aliceBytes);
    // No quota: the sidebar reads the server's figures, the caller's usage of all that is stored
    // (the admin and the two users of setupAccounts store nothing).
    expect(a.me.quotaSizeInBytes).toBeNull();
    const total = aliceBytes + bobBytes;
    expect(a.v3).toMatchObject({ diskUseRaw: aliceBytes, diskSizeRaw: total, diskAvailableRaw: bobBytes });
    expect(b.v3).toMatchObject({ diskUseRaw: bobBytes, diskSizeRaw: total, diskAvailableRaw: aliceBytes });
    expect(a.v1).toEqual(a.v3);
    expect(a.v3.diskUsagePercentage).toBe(Number.parseFloat(((aliceBytes / total) * 100).toFixed(2)));

    // A quota: the sidebar reads the user's own figures, and the server's say the same.
    const quota = 10 * 1024 ** 2;
    const set = await invoke(updateUserAdmin, {
      method: 'PUT',
      path: `/api/admin/users/${alice.userId}`,
      pathParameters: { id: alice.userId },
      body: { quotaSizeInBytes: quota },
      headers: bearer(accounts.admin.accessToken),
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const limited = await sidebar(alice.accessToken);
    expect(limited.me).toMatchObject({ quotaSizeInBytes: quota, quotaUsageInBytes: aliceBytes });
    expect(limited.v3).toMatchObject({
      diskSize: '10.0 MiB',
      diskSizeRaw: quota,
      diskUseRaw: aliceBytes,
      diskAvailableRaw: quota - aliceBytes,
    });
    // Bob's figures still count what Alice stores.
    expect((await sidebar(bob.accessToken)).v3).toMatchObject({ diskSizeRaw: total });
  });
});
