import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as changePinCode } from '#functions/v3/auth/change-pin-code.ts';
import { handler as getAuthStatus } from '#functions/v3/auth/get-auth-status.ts';
import { handler as lockSession } from '#functions/v3/auth/lock-auth-session.ts';
import { handler as resetPinCode } from '#functions/v3/auth/reset-pin-code.ts';
import { handler as setupPinCode } from '#functions/v3/auth/setup-pin-code.ts';
import { handler as unlockSession } from '#functions/v3/auth/unlock-auth-session.ts';
import { handler as getSessions } from '#functions/v3/session/get-sessions.ts';
import { handler as lockSessionById } from '#functions/v3/session/lock-session.ts';
import { handler as createUserAdmin } from '#functions/v3/user-admin/create-user-admin.ts';
import { handler as updateUserAdmin } from '#functions/v3/user-admin/update-user-admin.ts';
import { hashSecret } from '#shared/core/crypto.ts';
import { db } from '#shared/db/client.ts';
import * as keys from '#shared/db/item-keys.ts';
import * as sessionRepo from '#shared/db/session.repository.ts';
import { bearer, createApiKey, freshUser, login, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { tableItems } from '../support/table-items.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const call = (handler: Parameters<typeof invoke>[0], method: string, path: string, token: string, body?: unknown) =>
  invoke(handler, { method, path, headers: bearer(token), ...(body === undefined ? {} : { body }) });
const status = async (token: string) => (await invoke(getAuthStatus, { path: '/api/auth/status', headers: bearer(token) })).body;

describe('the locked folder’s PIN code and the session it unlocks (v3)', () => {
  it('sets, proves, changes and resets a PIN code; unlocks and locks the session, as Immich answers', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Locker');
    const token = user.accessToken;
    expect(await status(token)).toMatchObject({ pinCode: false, password: true, isElevated: false });

    expect((await call(setupPinCode, 'POST', '/api/auth/pin-code', token, { pinCode: '12345' })).status).toBe(400);
    expect((await call(setupPinCode, 'POST', '/api/auth/pin-code', token, { pinCode: '123456' })).status).toBe(204);
    expect(await status(token)).toMatchObject({ pinCode: true, isElevated: false });
    expect((await call(setupPinCode, 'POST', '/api/auth/pin-code', token, { pinCode: '111111' })).body).toMatchObject({
      message: 'User already has a PIN code',
    });
    // Stored as a hash only.
    expect(JSON.stringify(await tableItems('user'))).not.toContain('"123456"');

    const unlock = (body: unknown, as = token) => call(unlockSession, 'POST', '/api/auth/session/unlock', as, body);
    expect((await unlock({ pinCode: '000000' })).body).toMatchObject({ message: 'Wrong PIN code' });
    expect((await unlock({})).body).toMatchObject({ message: 'Either password or pinCode is required' });
    expect((await unlock({ pinCode: '123456' })).status).toBe(204);
    const unlocked = await status(token);
    expect(unlocked).toMatchObject({ isElevated: true });
    const left = Date.parse(unlocked.pinExpiresAt) - Date.now();
    expect(left).toBeGreaterThan(14 * 60_000);
    expect(left).toBeLessThanOrEqual(15 * 60_000);
    // Another session of the same user is not unlocked by it.
    const other = await login({ email: 'locker@immich.cloud', password: 'password-Locker' });
    expect(await status(other.accessToken)).toMatchObject({ isElevated: false });

    expect((await call(lockSession, 'POST', '/api/auth/session/lock', token)).status).toBe(204);
    expect(await status(token)).toMatchObject({ isElevated: false });

    const change = (body: unknown) => call(changePinCode, 'PUT', '/api/auth/pin-code', token, body);
    expect((await change({ password: 'wrong', newPinCode: '654321' })).body).toMatchObject({ message: 'Wrong password' });
    expect((await change({ pinCode: '123456', newPinCode: '6543' })).status).toBe(400);
    expect((await change({ pinCode: '123456', newPinCode: '654321' })).status).toBe(204);
    expect((await unlock({ pinCode: '123456' })).body).toMatchObject({ message: 'Wrong PIN code' });
    expect((await unlock({ pinCode: '654321' })).status).toBe(204);
    expect((await unlock({ pinCode: '654321' }, other.accessToken)).status).toBe(204);
    // One session locks another of the user's (POST /sessions/:id/lock).
    const otherId = (await invoke(getSessions, { path: '/api/sessions', headers: bearer(token) })).body.find(
      (session: { current: boolean }) => !session.current,
    ).id;
    const locked = await invoke(lockSessionById, {
      method: 'POST',
      path: `/api/sessions/${otherId}/lock`,
      pathParameters: { id: otherId },
      headers: bearer(token),
    });
    expect(locked.status).toBe(204);
    expect(await status(other.accessToken)).toMatchObject({ isElevated: false });
    expect(await status(token)).toMatchObject({ isElevated: true });
    expect((await unlock({ pinCode: '654321' }, other.accessToken)).status).toBe(204);

    // A reset (proven with the password) removes the PIN and locks every session of the user.
    const reset = await call(resetPinCode, 'DELETE', '/api/auth/pin-code', token, { password: 'password-Locker' });
    expect(reset.status, JSON.stringify(reset.body)).toBe(204);
    expect(await status(token)).toMatchObject({ pinCode: false, isElevated: false });
    expect(await status(other.accessToken)).toMatchObject({ isElevated: false });
    expect((await unlock({ pinCode: '654321' })).body).toMatchObject({ message: 'User does not have a PIN code' });
  });

  it('unlocks sessions only (an API key cannot be elevated) for 15 minutes, kept five minutes past each use near its end, as Immich', async () => {
    const user = await freshUser(accounts.admin.accessToken, 'Slider');
    const token = user.accessToken;
    expect((await call(setupPinCode, 'POST', '/api/auth/pin-code', token, { pinCode: '246810' })).status).toBe(204);
    const key = (await createApiKey(token, 'no elevation')).secret;
    const byKey = await invoke(unlockSession, {
      method: 'POST',
      path: '/api/auth/session/unlock',
      headers: { 'x-api-key': key },
      body: { pinCode: '246810' },
    });
    expect(byKey.body).toMatchObject({ message: 'This endpoint can only be used with a session token' });

    expect((await call(unlockSession, 'POST', '/api/auth/session/unlock', token, { pinCode: '246810' })).status).toBe(204);
    const setPinExpiry = (at: string) =>
      db.send(
        new UpdateCommand({
          TableName: process.env.TABLE_NAME,
          Key: keys.session(hashSecret(token)),
          UpdateExpression: 'SET pinExpiresAt = :at',
          ExpressionAttributeValues: { ':at': at },
        }),
      );
    const storedPinExpiry = async () =>
      (await tableItems('session')).find((item) => item.tokenHash === hashSecret(token))?.pinExpiresAt as string;
    const unlockedFor = (answer: { pinExpiresAt: string }) => Date.parse(answer.pinExpiresAt) - Date.now();

    // Ten minutes left: unlocked, and a request moves nothing (no write).
    const later = new Date(Date.now() + 10 * 60_000).toISOString();
    await setPinExpiry(later);
    expect(await status(token)).toMatchObject({ isElevated: true, pinExpiresAt: later });
    expect(await storedPinExpiry()).toBe(later);

    // Two minutes left: the request that finds it keeps it unlocked five minutes from now, and says so.
    await setPinExpiry(new Date(Date.now() + 2 * 60_000).toISOString());
    const extended = await status(token);
    expect(extended.isElevated).toBe(true);
    expect(unlockedFor(extended)).toBeGreaterThan(4.9 * 60_000);
    expect(unlockedFor(extended)).toBeLessThanOrEqual(5 * 60_000);
    expect(await storedPinExpiry()).toBe(extended.pinExpiresAt);
    // Any request of the session does it, not only the status (here the list of sessions).
    await setPinExpiry(new Date(Date.now() + 60_000).toISOString());
    expect((await invoke(getSessions, { path: '/api/sessions', headers: bearer(token) })).status).toBe(200);
    expect(Date.parse(await storedPinExpiry()) - Date.now()).toBeGreaterThan(4.9 * 60_000);

    // An API key of the same user is never elevated and never extends the session's unlock.
    const before = new Date(Date.now() + 60_000).toISOString();
    await setPinExpiry(before);
    expect((await invoke(getAuthStatus, { path: '/api/auth/status', headers: { 'x-api-key': key } })).body).toMatchObject({
      isElevated: false,
    });
    expect(await storedPinExpiry()).toBe(before);

    // A lock that lands between a request's read and its extension wins: the extension is conditional on what was read.
    expect((await call(lockSession, 'POST', '/api/auth/session/lock', token)).status).toBe(204);
    expect(await sessionRepo.extendSessionPin(hashSecret(token), before, new Date(Date.now() + 5 * 60_000).toISOString())).toEqual({
      ok: false,
      reason: 'changed',
    });
    expect(await storedPinExpiry()).toBeNull();

    // Past its time it is locked, and a request does not bring it back.
    const past = new Date(Date.now() - 1000).toISOString();
    await setPinExpiry(past);
    expect(await status(token)).toMatchObject({ isElevated: false, pinExpiresAt: past });
    expect(await storedPinExpiry()).toBe(past);
  });

  it("lets the admin give a new user a PIN code, and set or reset a user's (the admin page's Reset PIN code)", async () => {
    const admin = accounts.admin.accessToken;
    const created = await call(createUserAdmin, 'POST', '/api/admin/users', admin, {
      email: 'pinned@immich.cloud',
      name: 'Pinned',
      password: 'password-Pinned',
      pinCode: '135790',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain('135790');
    const pinned = await login({ email: 'pinned@immich.cloud', password: 'password-Pinned' });
    const unlock = (pinCode: string) => call(unlockSession, 'POST', '/api/auth/session/unlock', pinned.accessToken, { pinCode });
    expect((await unlock('135790')).status).toBe(204);

    const update = (body: unknown) =>
      invoke(updateUserAdmin, {
        method: 'PUT',
        path: `/api/admin/users/${created.body.id}`,
        pathParameters: { id: created.body.id },
        headers: bearer(admin),
        body,
      });
    expect((await update({ pinCode: '12' })).body).toMatchObject({ message: 'Validation failed' });
    expect((await update({ pinCode: '246802' })).status).toBe(200);
    // Set by the admin: the session unlocked with the old one is locked, and the new one unlocks.
    expect(await status(pinned.accessToken)).toMatchObject({ pinCode: true, isElevated: false });
    expect((await unlock('135790')).body).toMatchObject({ message: 'Wrong PIN code' });
    expect((await unlock('246802')).status).toBe(204);
    expect((await update({ pinCode: null })).status).toBe(200);
    expect(await status(pinned.accessToken)).toMatchObject({ pinCode: false, isElevated: false });
    // Only the admin: a user cannot reset another's through the admin route.
    const byUser = await invoke(updateUserAdmin, {
      method: 'PUT',
      path: `/api/admin/users/${created.body.id}`,
      pathParameters: { id: created.body.id },
      headers: bearer(accounts.user1.accessToken),
      body: { pinCode: '111111' },
    });
    expect(byUser.status).toBe(403);
  });
});
