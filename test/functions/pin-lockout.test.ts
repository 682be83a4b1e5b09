import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as changePinCode } from '#functions/v3/auth/change-pin-code.ts';
import { handler as getAuthStatus } from '#functions/v3/auth/get-auth-status.ts';
import { handler as resetPinCode } from '#functions/v3/auth/reset-pin-code.ts';
import { handler as setupPinCode } from '#functions/v3/auth/setup-pin-code.ts';
import { handler as unlockSession } from '#functions/v3/auth/unlock-auth-session.ts';
import { db, tableName } from '#shared/db/client.ts';
import * as keys from '#shared/db/item-keys.ts';
import { bearer, ensureAdmin, fixtures, freshUser, login } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { tableItems } from '../support/table-items.ts';

/**
 * Issue 49, Medium 3: PIN codes (and the password these routes also take) cannot be guessed without
 * end. Five wrong proofs lock the user's PIN routes, for a period that grows with every wrong proof
 * after; while locked they answer 429 without checking anything; a right proof starts the count
 * again. The count is one item of the user's (docs/data-model.md, `pinGuard`), so every function,
 * and every concurrent guess, meets the same count.
 */

let admin: { accessToken: string };
beforeAll(async () => {
  await ensureAdmin();
  admin = await login(fixtures.admin);
});

const PIN = '731905';
const withPin = async (name: string) => {
  const user = await freshUser(admin.accessToken, name);
  const reply = await invoke(setupPinCode, {
    method: 'POST',
    path: '/api/auth/pin-code',
    headers: bearer(user.accessToken),
    body: { pinCode: PIN },
  });
  expect(reply.status).toBe(204);
  return user;
};
const unlock = (token: string, pinCode: string) =>
  invoke(unlockSession, { method: 'POST', path: '/api/auth/session/unlock', headers: bearer(token), body: { pinCode } });
const change = (token: string, body: unknown) =>
  invoke(changePinCode, { method: 'PUT', path: '/api/auth/pin-code', headers: bearer(token), body });
const reset = (token: string, body: unknown) =>
  invoke(resetPinCode, { method: 'DELETE', path: '/api/auth/pin-code', headers: bearer(token), body });
const elevated = async (token: string) =>
  (await invoke(getAuthStatus, { path: '/api/auth/status', headers: bearer(token) })).body.isElevated;
const guard = async (userId: string) => (await tableItems('pinGuard')).find((item) => item.pk === keys.pinGuard(userId).pk);
/** The lock's end moved to the past, as the clock would move it: the item as stored, no stand-in. */
const expireLock = (userId: string) =>
  db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.pinGuard(userId),
      UpdateExpression: 'SET lockedUntil = :past',
      ExpressionAttributeValues: { ':past': Date.now() - 1000 },
    }),
  );

describe('PIN code guesses (issue 49, Medium 3)', () => {
  it('locks after five wrong PIN codes: 429 on every PIN route without checking, even the right PIN; open again after the period', async () => {
    const user = await withPin('Guesser');
    for (const guess of ['000000', '111111', '222222', '333333', '444444']) {
      expect((await unlock(user.accessToken, guess)).body).toMatchObject({ message: 'Wrong PIN code' });
    }
    const locked = await unlock(user.accessToken, PIN);
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ message: expect.stringMatching(/^Too many wrong PIN codes or passwords; try again in \d+ seconds$/) });
    expect(await elevated(user.accessToken)).toBe(false);
    // Change and reset are locked too, with the right PIN or the right password.
    expect((await change(user.accessToken, { pinCode: PIN, newPinCode: '999999' })).status).toBe(429);
    expect((await reset(user.accessToken, { password: 'password-Guesser' })).status).toBe(429);
    // Another user's count is their own.
    const other = await withPin('Bystander');
    expect((await unlock(other.accessToken, PIN)).status).toBe(204);

    const first = Number((await guard(user.userId))?.lockedUntil) - Date.now();
    expect(first).toBeGreaterThan(0);
    await expireLock(user.userId);
    // One more wrong proof after the period locks again at once, for longer.
    expect((await unlock(user.accessToken, '555555')).body).toMatchObject({ message: 'Wrong PIN code' });
    expect((await unlock(user.accessToken, PIN)).status).toBe(429);
    expect(Number((await guard(user.userId))?.lockedUntil) - Date.now()).toBeGreaterThan(first);

    // A right proof after the period unlocks and starts the count again: four wrong ones are four 400s.
    await expireLock(user.userId);
    expect((await unlock(user.accessToken, PIN)).status).toBe(204);
    expect(await elevated(user.accessToken)).toBe(true);
    for (const guess of ['000001', '000002', '000003', '000004']) {
      expect((await unlock(user.accessToken, guess)).status).toBe(400);
    }
    expect((await unlock(user.accessToken, PIN)).status).toBe(204);
  });

  it('counts wrong passwords and PIN codes of the change and reset routes in the same count', async () => {
    const user = await withPin('Prover');
    expect((await change(user.accessToken, { password: 'wrong-1', newPinCode: '999999' })).body).toMatchObject({
      message: 'Wrong password',
    });
    expect((await reset(user.accessToken, { password: 'wrong-2' })).body).toMatchObject({ message: 'Wrong password' });
    expect((await change(user.accessToken, { pinCode: '000000', newPinCode: '999999' })).body).toMatchObject({ message: 'Wrong PIN code' });
    expect((await reset(user.accessToken, { pinCode: '000000' })).status).toBe(400);
    expect((await unlock(user.accessToken, '000000')).status).toBe(400);
    expect((await change(user.accessToken, { password: 'password-Prover', newPinCode: '999999' })).status).toBe(429);
    // Nothing changed: the old PIN is still the PIN once the period is over.
    await expireLock(user.userId);
    expect((await unlock(user.accessToken, PIN)).status).toBe(204);
  });

  it('lets no more than five of many concurrent wrong guesses be checked', async () => {
    const user = await withPin('Racer');
    const guesses = Array.from({ length: 24 }, (_, i) => String(100000 + i));
    const replies = await Promise.all(guesses.map((guess) => unlock(user.accessToken, guess)));
    const checked = replies.filter((reply) => reply.status === 400);
    expect(checked.map((reply) => reply.body.message)).toEqual(Array(5).fill('Wrong PIN code'));
    expect(replies.filter((reply) => reply.status === 429)).toHaveLength(guesses.length - 5);
    expect((await guard(user.userId))?.failures).toBe(5);
  });
});
