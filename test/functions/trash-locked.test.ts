import { beforeAll, describe, expect, it } from 'vitest';
import { handler as emptyTrash } from '#functions/trash/empty-trash.ts';
import { handler as restoreTrash } from '#functions/trash/restore-trash.ts';
import { handler as deleteAssets } from '#functions/v3/asset/delete-assets.ts';
import { handler as getAssetInfo } from '#functions/v3/asset/get-asset-info.ts';
import { handler as getAssetStatistics } from '#functions/v3/asset/get-asset-statistics.ts';
import { handler as updateAssets } from '#functions/v3/asset/update-assets.ts';
import { bearer, createApiKey, freshUser, login, setupAccounts, unlockSession } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { addPhoto } from '../support/library.ts';

/**
 * Issue 49, Low 5: emptying (or restoring) the whole trash from a session not unlocked with the
 * PIN code, with a locked asset in it, is all or nothing: the locked asset stays in the trash,
 * untouched, and the rest is done; the answer counts what was done.
 */
let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const v3 = (token: string) => ({ ...bearer(token), accept: 'application/json' });
const empty = (token: string, headers: Record<string, string> = v3(token)) =>
  invoke(emptyTrash, { method: 'POST', path: '/api/trash/empty', headers });
const restore = (token: string) => invoke(restoreTrash, { method: 'POST', path: '/api/trash/restore', headers: v3(token) });
const info = (token: string, id: string) =>
  invoke(getAssetInfo, { path: `/api/assets/${id}`, headers: bearer(token), pathParameters: { id } });
const trashedCount = async (token: string, visibility: string) =>
  (await invoke(getAssetStatistics, { path: '/api/assets/statistics', query: { isTrashed: 'true', visibility }, headers: bearer(token) }))
    .body.total;

/** A user with a PIN code, a locked photo and two others all in the trash, and a second session that is not unlocked. */
const trashWithLockedPhoto = async (name: string) => {
  const owner = await freshUser(accounts.admin.accessToken, name);
  const token = owner.accessToken;
  const [locked, a, b] = [await addPhoto(token), await addPhoto(token), await addPhoto(token)];
  await unlockSession(token, '123456');
  const lockIt = await invoke(updateAssets, {
    method: 'PUT',
    path: '/api/assets',
    headers: bearer(token),
    body: { ids: [locked], visibility: 'locked' },
  });
  expect(lockIt.status).toBe(204);
  const trashed = await invoke(deleteAssets, {
    method: 'DELETE',
    path: '/api/assets',
    headers: bearer(token),
    body: { ids: [locked, a, b] },
  });
  expect(trashed.status).toBe(204);
  // Another session of the same user, never unlocked.
  const plain = (await login({ email: owner.email, password: `password-${name}` })).accessToken;
  return { unlocked: token, plain, locked, a, b };
};

describe('the whole trash, with a locked asset in it, from a session not unlocked', () => {
  it('POST /trash/empty (v3) empties the rest, leaves the locked asset in the trash and says how many went', async () => {
    const { unlocked, plain, locked, a, b } = await trashWithLockedPhoto('LockedBin');
    const reply = await empty(plain);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toEqual({ count: 2 });
    for (const id of [a, b]) expect((await info(unlocked, id)).status).toBe(400);
    // The locked one is still there, still in the trash, for the unlocked session to see.
    expect((await info(unlocked, locked)).body).toMatchObject({ id: locked, isTrashed: true, visibility: 'locked' });
    expect(await trashedCount(unlocked, 'locked')).toBe(1);
    // An unlocked session empties it too.
    expect((await empty(unlocked)).body).toEqual({ count: 1 });
    expect((await info(unlocked, locked)).status).toBe(400);
    expect(await trashedCount(unlocked, 'locked')).toBe(0);
  });

  it("v1.100's POST /trash/empty (204) and an API key do the same", async () => {
    const { unlocked, plain, locked, a, b } = await trashWithLockedPhoto('LockedBinV1');
    const reply = await empty(plain, bearer(plain));
    expect(reply.status, JSON.stringify(reply.body)).toBe(204);
    for (const id of [a, b]) expect((await info(unlocked, id)).status).toBe(400);
    expect((await info(unlocked, locked)).body).toMatchObject({ isTrashed: true, visibility: 'locked' });
    const { secret } = await createApiKey(unlocked);
    const byKey = await invoke(emptyTrash, {
      method: 'POST',
      path: '/api/trash/empty',
      headers: { 'x-api-key': secret, accept: 'application/json' },
    });
    expect(byKey.body).toEqual({ count: 0 });
    expect((await info(unlocked, locked)).body).toMatchObject({ isTrashed: true, visibility: 'locked' });
  });

  it('POST /trash/restore restores the rest and leaves the locked asset in the trash', async () => {
    const { unlocked, plain, locked, a, b } = await trashWithLockedPhoto('LockedRestore');
    const reply = await restore(plain);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toEqual({ count: 2 });
    for (const id of [a, b]) expect((await info(plain, id)).body.isTrashed).toBe(false);
    expect((await info(unlocked, locked)).body).toMatchObject({ isTrashed: true, visibility: 'locked' });
    expect((await restore(unlocked)).body).toEqual({ count: 1 });
    expect((await info(unlocked, locked)).body).toMatchObject({ isTrashed: false, visibility: 'locked' });
  });
});
