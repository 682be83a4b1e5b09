import { describe, expect, it } from 'vitest';
import { handler as signUpAdminHandler } from '#functions/auth/sign-up-admin.ts';
import { createUser } from '#shared/services/user/user.service.ts';
import { invoke } from '../support/invoke.ts';

// This file's table starts empty and no test here leaves an admin behind that another needs:
// each test holds whether it runs alone or after the other.
describe('the first admin, on a fresh table', () => {
  it('refuses a regular user before the admin exists', async () => {
    await expect(createUser({ email: 'early@immich.cloud', password: 'p', name: 'Early' })).rejects.toMatchObject({
      kind: 'invalid',
      messages: 'The first registered account must the administrator.',
    });
  });

  it('lets exactly one of several simultaneous admin sign-ups win', async () => {
    const replies = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        invoke(signUpAdminHandler, {
          method: 'POST',
          path: '/api/auth/admin-sign-up',
          body: { email: `admin${i}@immich.cloud`, password: `password${i}`, name: `Admin ${i}` },
        }),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400]);
    for (const reply of replies.filter((r) => r.status === 400)) expect(reply.body.message).toBe('The server already has an admin');
  });
});
