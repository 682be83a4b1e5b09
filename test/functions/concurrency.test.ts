import { beforeAll, describe, expect, it } from 'vitest';
import { handler as loginHandler } from '#functions/auth/login.ts';
import { handler as createUserHandler } from '#functions/user/create-user.ts';
import { bearer, fixtures, login, signUpAdmin } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';

describe('users under concurrency', () => {
  let adminToken: string;
  beforeAll(async () => {
    await signUpAdmin();
    adminToken = (await login(fixtures.admin)).accessToken;
  });

  it('lets exactly one of several simultaneous creates with one email win, and stores nothing of the others', async () => {
    const replies = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        invoke(createUserHandler, {
          method: 'POST',
          path: '/api/user',
          headers: bearer(adminToken),
          body: { email: 'same@immich.cloud', password: `secret-${i}`, name: `Same ${i}`, storageLabel: `label${i}` },
        }),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400]);
    for (const reply of replies.filter((r) => r.status === 400)) expect(reply.body.message).toBe('User exists');

    // Only the winner's password opens the account; the losers' labels were not taken either.
    const won = replies.findIndex((r) => r.status === 201);
    await login({ email: 'same@immich.cloud', password: `secret-${won}` });
    const loser = won === 0 ? 1 : 0;
    expect(
      (
        await invoke(loginHandler, {
          method: 'POST',
          path: '/api/auth/login',
          body: { email: 'same@immich.cloud', password: `secret-${loser}` },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await invoke(createUserHandler, {
          method: 'POST',
          path: '/api/user',
          headers: bearer(adminToken),
          body: { email: 'free@immich.cloud', password: 'p', name: 'F', storageLabel: `label${loser}` },
        })
      ).status,
    ).toBe(201);
  });

  it('lets exactly one of several simultaneous creates with one storage label win', async () => {
    const replies = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        invoke(createUserHandler, {
          method: 'POST',
          path: '/api/user',
          headers: bearer(adminToken),
          body: { email: `racer${i}@immich.cloud`, password: 'p', name: `Racer ${i}`, storageLabel: 'contested' },
        }),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([201, 400, 400, 400]);
    for (const reply of replies.filter((r) => r.status === 400))
      expect(reply.body.message).toBe('Storage label already in use by another account');
    // A loser's email was not taken by its failed transaction.
    const loser = replies.findIndex((r) => r.status === 400);
    expect(
      (
        await invoke(createUserHandler, {
          method: 'POST',
          path: '/api/user',
          headers: bearer(adminToken),
          body: { email: `racer${loser}@immich.cloud`, password: 'p', name: 'Again' },
        })
      ).status,
    ).toBe(201);
  });
});
